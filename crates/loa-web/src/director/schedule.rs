//! The director's clock: every second it makes the championships' next editions and
//! starts the tournaments whose time has come, and lets arenas pair and end; at the
//! start it picks up after a restart.

use super::{make_games, next_round, note_result, start, DirectorError, DirectorResult, GameEnd};
use crate::clock::now_ms;
use crate::hub::Hub;
use crate::store::TournamentRow;
use crate::tournament::championship::Championship;
use crate::tournament::Format;
use std::sync::Arc;
use std::time::Duration;

/// Starts the tournaments whose time has come, every second, and picks up after a
/// restart: games to make, results noted while the server was down.
pub fn spawn(hub: &Arc<Hub>) {
    let hub = Arc::clone(hub);
    tokio::spawn(async move {
        if let Err(e) = recover(&hub).await {
            tracing::error!("tournaments: {e}");
        }
        loop {
            if let Err(e) = tick(&hub).await {
                tracing::error!("tournaments: {e}");
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    });
}

/// Makes a championship's next edition when none is open or running: open to join
/// until its date, when it starts by itself.
pub async fn next_edition(
    hub: &Arc<Hub>,
    championship: Championship,
    now: i64,
) -> DirectorResult<Option<String>> {
    let key = championship.key();
    if hub.store.edition_pending(key).await? {
        return Ok(None);
    }
    let organizer = hub.store.bot_account("loa", now).await?;
    let starts_at = championship.next_start(now);
    let row = TournamentRow {
        id: crate::ids::random_name(),
        name: championship.edition_name(starts_at),
        format: Format::Swiss.name().into(),
        rounds: championship.rounds(),
        minutes: None,
        variant: loa_core::Variant::Standard.name().into(),
        rules: loa_core::RuleSet::default().name().into(),
        clock: serde_json::to_string(&championship.clock()).expect("a clock serializes"),
        rated: true,
        creator: organizer.id,
        status: "open".into(),
        round: 0,
        starts_at: Some(starts_at),
        started_at: None,
        finished_at: None,
        created_at: now,
        championship: Some(key.into()),
    };
    // Another server sharing the database may have made it a moment before.
    Ok(hub.store.create_edition(&row).await?.then_some(row.id))
}

/// After a restart: the games a crash left unmade, and the results of games that ended
/// while the server was down, are seen to.
async fn recover(hub: &Arc<Hub>) -> DirectorResult<()> {
    for t in hub.store.tournaments(Some("running"), usize::MAX).await? {
        {
            let _guard = hub.director.lock().await;
            make_games(hub, &t).await?;
        }
        for b in hub.store.boards(&t.id).await? {
            let (Some(game), None) = (&b.game_id, &b.result) else {
                continue;
            };
            let open = hub.open(game).await?;
            let end = {
                let live = open.game.lock().await;
                live.is_over().then(|| GameEnd::of(&live))
            };
            if let Some(end) = end {
                note_result(hub, &end).await?;
            }
        }
    }
    Ok(())
}

async fn tick(hub: &Arc<Hub>) -> DirectorResult<()> {
    let now = now_ms();
    for championship in hub.director.championships.get().into_iter().flatten() {
        next_edition(hub, *championship, now).await?;
    }
    for id in hub.store.tournaments_due(now).await? {
        match start(hub, &id).await {
            Ok(()) => {}
            // Too few players: a championship's edition waits for its next date; another
            // tournament for its creator.
            Err(DirectorError::Refused(_)) => {
                let t = hub.store.tournament(&id).await?;
                let key = t.as_ref().and_then(|t| t.championship.as_deref());
                let later = key.and_then(|k| Championship::parse(k).ok());
                hub.store
                    .postpone_tournament(&id, later.map(|c| c.next_start(now)))
                    .await?;
                hub.tournament_changed(&id);
            }
            Err(e) => return Err(e),
        }
    }
    // Arenas: late joiners are paired, and one whose time is up ends with its last game.
    for t in hub.store.tournaments(Some("running"), usize::MAX).await? {
        if t.format == Format::Arena.name() {
            let _guard = hub.director.lock().await;
            let before = (t.round, t.status.clone());
            next_round(hub, &t.id).await?;
            let after = hub.store.tournament(&t.id).await?;
            if after.is_some_and(|a| (a.round, a.status) != before) {
                hub.tournament_changed(&t.id);
            }
        }
    }
    Ok(())
}
