//! What a reply to a your-move e-mail plays: the move (or resignation, or draw) on its
//! first line, for the player and move its address was made for, once.

use super::notices::{notice_of, pending_move, write_about_move, Kind, Pending};
use super::reply;
use crate::auth::token_hash;
use crate::clock::now_ms;
use crate::game::{Caller, Changed, GameError, LiveGame};
use crate::hub::{Hub, HubError};
use loa_core::Color;
use std::sync::Arc;

/// A reply to a reply address: its first line played as the move (or resign, or draw)
/// for the player and move the address was made for, once. A reply that plays nothing
/// is answered with why and the legal moves; one to an unknown or spent address plays
/// nothing and is not answered (its sender may not be the player).
pub async fn play_reply(hub: &Arc<Hub>, secret: &str, message: &[u8]) {
    let spent = match hub
        .store
        .spend_mail_move(&token_hash(secret), now_ms())
        .await
    {
        Ok(Some(spent)) => spent,
        Ok(None) => {
            tracing::info!("a reply to an unknown or spent address played nothing");
            return;
        }
        Err(err) => {
            tracing::error!("reply not read: {err}");
            return;
        }
    };
    let Ok(open) = hub.open(&spent.game_id).await else {
        return;
    };
    let caller = Caller {
        token: None,
        account: Some(spent.account_id),
    };
    let ply = usize::try_from(spent.ply).unwrap_or(usize::MAX);
    let text = reply::text_of(message).unwrap_or_default();
    let played = match reply::command(&text) {
        reply::Command::Move(text) => hub
            .change(&open, |live, now| {
                live.play_human(&caller, &text, Some(ply), now)
            })
            .await
            .map(drop),
        command @ (reply::Command::Resign | reply::Command::Draw) => hub
            .change(&open, |live, now| {
                if command == reply::Command::Resign {
                    live.resign(&caller, None, now)?;
                } else {
                    live.offer_draw(&caller, None, now)?;
                }
                Ok(Changed::nothing_at(live.game.ply()))
            })
            .await
            .map(drop),
        reply::Command::Empty => Err(HubError::Game(GameError::IllegalMove(
            "its first line is empty: write your move on the first line".into(),
        ))),
    };
    let reason = match played {
        Ok(()) => return,
        Err(HubError::Game(refused)) => refused.to_string(),
        Err(err) => {
            tracing::error!("reply to game {} not played: {err}", spent.game_id);
            return;
        }
    };
    let pending = {
        let live = open.game.lock().await;
        pending_move(&live, now_ms()).filter(|p| p.account == spent.account_id)
    };
    // The game is over or it is not their move: the reason is all there is to say.
    let pending = match pending {
        Some(pending) => pending,
        None => {
            let live = open.game.lock().await;
            let Some(mut pending) = pending_move_any(&live, spent.account_id) else {
                return;
            };
            pending.legal_moves.clear();
            pending
        }
    };
    if let Err(err) = write_about_move(hub, pending, Kind::Refusal { reason }).await {
        tracing::error!("answer to a reply not queued: {err}");
    }
}

/// A notice of the game for `account` whoever is to move, for a refusal's answer.
fn pending_move_any(live: &LiveGame, account: i64) -> Option<Pending> {
    let side = [Color::Black, Color::White]
        .into_iter()
        .find(|&side| live.account_of(side) == Some(account))?;
    let notice = notice_of(live, side, Default::default());
    Some(Pending {
        game: live.id.clone(),
        account,
        ply: live.game.ply(),
        notice,
        legal_moves: Vec::new(),
    })
}
