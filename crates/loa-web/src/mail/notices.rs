//! When the site writes about games. A correspondence move (or a game's start) makes one
//! your-move e-mail for the player to move (not watching the game, not told before
//! without having looked since); a minute's tick sends the 24-hour reminders and the
//! daily digests. Everything here runs after the move is written and answered: it only
//! puts rows in the outbox.

use super::compose::{self, MoveNotice};
use super::{Letter, MailConfig, Notices};
use crate::auth::token_hash;
use crate::clock::{now_ms, HOUR};
use crate::game::{Changed, LiveGame};
use crate::hub::{Hub, HubError, OpenGame};
use crate::store::StoreError;
use loa_core::{Color, GameState};
use std::sync::Arc;
use std::time::Duration;

/// A reminder goes when this much is left for a move.
const REMINDER_MS: i64 = 24 * HOUR;
/// How often reminders and digests are looked for.
const TICK: Duration = Duration::from_secs(60);

/// Which e-mail about a move.
pub(super) enum Kind {
    YourMove,
    Reminder,
    Refusal { reason: String },
}

/// A move's notice with whom and what it is for.
pub(super) struct Pending {
    pub(super) game: String,
    pub(super) account: i64,
    pub(super) ply: usize,
    pub(super) notice: MoveNotice,
    pub(super) legal_moves: Vec<String>,
}

/// After a change is written: a correspondence move tells the player now to move.
pub fn after_change(hub: &Arc<Hub>, open: &Arc<OpenGame>, live: &LiveGame, changed: &Changed) {
    // Only correspondence games have notices to note as seen or to send.
    if hub.mail.config().is_none() || changed.new_moves.is_empty() || !live.is_correspondence() {
        return;
    }
    // The mover has looked at the game.
    if let Some(mover) = live
        .movers
        .last()
        .and_then(|seat| live.account_of(seat.side))
    {
        game_seen(hub, &live.id, mover);
    }
    tell_player_to_move(hub, Some(open), live);
}

/// A new game: in a correspondence game made started (a seek or challenge taken, a
/// tournament's pairing), the player to move first is told.
pub fn after_create(hub: &Arc<Hub>, live: &LiveGame) {
    if hub.mail.config().is_some() {
        tell_player_to_move(hub, None, live);
    }
}

/// Queues the your-move e-mail of a correspondence game's player to move, unless they
/// are watching it (a game just made has nobody watching).
fn tell_player_to_move(hub: &Arc<Hub>, open: Option<&Arc<OpenGame>>, live: &LiveGame) {
    if !live.is_correspondence() {
        return;
    }
    let Some(pending) = pending_move(live, now_ms()) else {
        return;
    };
    if open.is_some_and(|open| open.is_watched_by(pending.account)) {
        return;
    }
    let hub = Arc::clone(hub);
    tokio::spawn(async move {
        if let Err(err) = write_about_move(&hub, pending, Kind::YourMove).await {
            tracing::error!("your-move e-mail not queued: {err}");
        }
    });
}

/// A player looked at a game: their next move there is told again.
pub fn game_seen(hub: &Arc<Hub>, game: &str, account: i64) {
    if hub.mail.config().is_none() {
        return;
    }
    let (hub, game) = (Arc::clone(hub), game.to_string());
    tokio::spawn(async move {
        if let Err(err) = hub.store.note_seen(&game, account).await {
            tracing::error!("cannot note that game {game} was seen: {err}");
        }
    });
}

/// The notice for the player to move, if a person with an account is to move.
pub(super) fn pending_move(live: &LiveGame, now: i64) -> Option<Pending> {
    let (side, account) = live.account_to_move()?;
    let ply = live.game.ply();
    let last = live.game.moves().last();
    let mut notice = notice_of(live, side, last.map(|mv| mv.squares()).unwrap_or_default());
    notice.last_move = last.map(|mv| {
        let number = (ply - 1) / 2 + 1;
        let dots = if ply % 2 == 1 { "." } else { "..." };
        format!("{number}{dots} {mv}")
    });
    notice.time_left_ms = live
        .clock
        .filter(|c| c.running_since.is_some())
        .map(|c| c.left_at(side, side, now));
    // A vacation runs the clock from its end.
    notice.paused_for_ms = live
        .clock
        .and_then(|c| c.running_since)
        .filter(|&since| since > now)
        .and_then(|since| u64::try_from(since - now).ok());
    let legal_moves: Vec<String> = live
        .position()
        .moves()
        .iter()
        .map(ToString::to_string)
        .collect();
    notice.example_move = legal_moves.first().cloned();
    Some(Pending {
        game: live.id.clone(),
        account,
        ply,
        notice,
        legal_moves,
    })
}

/// The game as `side`'s player is told it: the names and the board (`marked`: the last
/// move's squares); the last move, the time and the link are the caller's to fill in.
pub(super) fn notice_of(live: &LiveGame, side: Color, marked: loa_core::Bitboard) -> MoveNotice {
    MoveNotice {
        player: live.names[side.index()].clone().unwrap_or_default(),
        opponent: live.names[(!side).index()]
            .clone()
            .unwrap_or_else(|| "your opponent".into()),
        side: if side == Color::Black {
            "Black"
        } else {
            "White"
        },
        last_move: None,
        diagram: live.position().diagram(marked),
        time_left_ms: None,
        paused_for_ms: None,
        link: String::new(),
        by_reply: false,
        example_move: None,
    }
}

/// Queues an e-mail about a move, if the player wants it and has a verified address.
pub(super) async fn write_about_move(
    hub: &Hub,
    pending: Pending,
    kind: Kind,
) -> Result<(), StoreError> {
    let Some(config) = hub.mail.config() else {
        return Ok(());
    };
    let Some(settings) = hub.store.mail_settings(pending.account).await? else {
        return Ok(());
    };
    let Some(email) = settings.verified_email() else {
        return Ok(());
    };
    let wanted = match kind {
        Kind::YourMove => settings.notices == Notices::Each,
        Kind::Reminder => settings.notices != Notices::Off,
        // An answer to the player's own reply always goes.
        Kind::Refusal { .. } => true,
    };
    if !wanted {
        return Ok(());
    }
    match kind {
        Kind::YourMove
            if !hub
                .store
                .note_notice(&pending.game, pending.account)
                .await? =>
        {
            return Ok(());
        }
        Kind::Reminder
            if !hub
                .store
                .note_reminder(&pending.game, pending.account, pending.ply)
                .await? =>
        {
            return Ok(());
        }
        _ => {}
    }
    let now = now_ms();
    let reply_to = if config.replies {
        let secret = super::new_secret();
        hub.store
            .create_mail_move(
                &token_hash(&secret),
                &pending.game,
                pending.account,
                pending.ply,
                now,
            )
            .await?;
        Some(config.reply_address(&secret))
    } else {
        None
    };
    let notice = MoveNotice {
        link: format!("{}/game/{}", config.public_url, pending.game),
        by_reply: reply_to.is_some(),
        ..pending.notice
    };
    let (subject, body) = match &kind {
        Kind::YourMove => compose::your_move(&notice),
        Kind::Reminder => compose::reminder(&notice),
        Kind::Refusal { reason } => compose::refusal(&notice, reason, &pending.legal_moves),
    };
    send(hub, config, pending.account, email, subject, body, reply_to).await
}

/// Puts an e-mail to an account in the outbox, with the footer, and wakes the worker.
async fn send(
    hub: &Hub,
    config: &MailConfig,
    account: i64,
    to: &str,
    subject: String,
    mut body: String,
    reply_to: Option<String>,
) -> Result<(), StoreError> {
    let unsubscribe = hub
        .store
        .unsubscribe_secret(account, &super::new_secret())
        .await?
        .map(|secret| format!("{}/mail/unsubscribe/{secret}", config.public_url));
    if let Some(link) = &unsubscribe {
        body.push_str(&compose::footer(
            &format!("{}/account", config.public_url),
            link,
        ));
    }
    let letter = Letter {
        to: to.to_string(),
        subject,
        body,
        reply_to,
        unsubscribe,
    };
    hub.store.queue_mail(&letter, now_ms()).await?;
    hub.mail.queued.notify_one();
    Ok(())
}

/// Every minute: the reminders of moves with 24 hours left, and the daily digests.
pub fn spawn_ticker(hub: &Arc<Hub>) {
    if hub.mail.config().is_none() {
        return;
    }
    let hub = Arc::clone(hub);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(TICK);
        loop {
            tick.tick().await;
            if let Err(err) = remind(&hub, now_ms()).await {
                tracing::error!("reminders: {err}");
            }
            if let Err(err) = digests(&hub, now_ms()).await {
                tracing::error!("digests: {err}");
            }
            if hub.store.is_shared() {
                // A server that stopped mid-send does not start again to say so.
                if let Err(err) = super::outbox::fail_interrupted(&hub).await {
                    tracing::error!("the outbox: {err}");
                }
            }
        }
    });
}

/// Reminds each player with 24 hours or less left for a correspondence move that had
/// more than that.
pub async fn remind(hub: &Arc<Hub>, now: i64) -> Result<(), StoreError> {
    for open in hub.open_games() {
        let pending = {
            let live = open.game.lock().await;
            let long_moves = live.clock.is_some_and(|c| {
                c.control.is_correspondence() && c.control.initial_ms() > REMINDER_MS as u64
            });
            let flag_at = live.flag_at();
            match (long_moves, flag_at) {
                (true, Some(flag_at)) if flag_at > now && flag_at - now <= REMINDER_MS => {
                    pending_move(&live, now)
                }
                _ => None,
            }
        };
        if let Some(pending) = pending {
            write_about_move(hub, pending, Kind::Reminder).await?;
        }
    }
    Ok(())
}

/// One e-mail a day to each player who asked for a digest, listing the games waiting.
pub async fn digests(hub: &Arc<Hub>, now: i64) -> Result<(), StoreError> {
    let Some(config) = hub.mail.config() else {
        return Ok(());
    };
    let before = now - REMINDER_MS;
    for due in hub.store.digests_due(before).await? {
        if !hub.store.note_digest(due.account_id, now, before).await? {
            continue;
        }
        let waiting = match crate::waiting::games_waiting(hub, due.account_id).await {
            Ok(waiting) => waiting,
            Err(HubError::Store(err)) => return Err(err),
            Err(_) => continue,
        };
        if waiting.is_empty() {
            continue;
        }
        let games: Vec<compose::WaitingGame> = waiting
            .into_iter()
            .map(|game| compose::WaitingGame {
                opponent: game.opponent.unwrap_or_else(|| "your opponent".into()),
                time_left_ms: game.time_left_ms,
                link: format!("{}/game/{}", config.public_url, game.id),
            })
            .collect();
        let Some(settings) = hub.store.mail_settings(due.account_id).await? else {
            continue;
        };
        let (subject, body) = compose::digest(&settings.name, &games);
        send(hub, config, due.account_id, &due.email, subject, body, None).await?;
    }
    Ok(())
}
