//! The games waiting for a player's move: for the home page, the tab's title and the
//! daily digest.

use crate::clock::now_ms;
use crate::hub::{Hub, HubResult};
use crate::store::{GameFilter, Outcome};
use serde::Serialize;

/// The most games in progress looked through for one player.
const MAX_GAMES: usize = 500;

/// A game in which it is the player's move.
#[derive(Clone, Debug, Serialize)]
pub struct WaitingGame {
    pub id: String,
    pub opponent: Option<String>,
    /// What the opponent is called: their name, `loa level N` or `Anonymous`.
    pub against: String,
    /// The time the player has left, if a clock runs.
    pub time_left_ms: Option<u64>,
    /// When the player's clock runs again, while it stands still for their vacation.
    pub resumes_at: Option<i64>,
    /// Whether it is a correspondence game.
    pub correspondence: bool,
    pub moves: usize,
}

/// The games in progress in which `account` is to move, the least time left first.
pub async fn games_waiting(hub: &std::sync::Arc<Hub>, account: i64) -> HubResult<Vec<WaitingGame>> {
    let filter = GameFilter {
        outcome: Some(Outcome::Playing),
        ..GameFilter::of(account)
    };
    let mut waiting = Vec::new();
    for (row, _) in hub.store.list(MAX_GAMES, 0, &filter).await? {
        let Ok(open) = hub.open(&row.id).await else {
            continue;
        };
        let live = open.game.lock().await;
        let Some((side, _)) = live.account_to_move().filter(|&(_, a)| a == account) else {
            continue;
        };
        let now = now_ms();
        waiting.push(WaitingGame {
            id: live.id.clone(),
            opponent: live.names[(!side).index()].clone(),
            against: live.side_title(!side),
            time_left_ms: live
                .clock
                .filter(|c| c.running_since.is_some())
                .map(|c| c.left_at(side, side, now)),
            resumes_at: live
                .clock
                .and_then(|c| c.running_since)
                .filter(|&since| since > now),
            correspondence: live.is_correspondence(),
            moves: live.game.ply(),
        });
    }
    waiting.sort_by_key(|g| g.time_left_ms.unwrap_or(u64::MAX));
    Ok(waiting)
}
