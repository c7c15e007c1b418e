//! An arena while it runs: whoever is not playing is paired again at once, by arena
//! points and rating, until its time is up; it ends when its last game does.

use super::{board_row, make_games, DirectorResult};
use crate::clock::now_ms;
use crate::hub::Hub;
use crate::store::{BoardRow, TournamentRow};
use crate::tournament::arena::{self, ArenaGame, Waiting};
use crate::tournament::{Board, PlayerId};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};

/// Since when each arena's players have been seen waiting, by tournament and player:
/// kept by this server only (another sharing the database sees its own), which at worst
/// makes a rematch wait a little longer after a restart.
#[derive(Default)]
pub struct WaitingSince(Mutex<HashMap<String, HashMap<PlayerId, i64>>>);

impl WaitingSince {
    /// How long each of `waiting` has waited at `now`; those no longer waiting are
    /// forgotten.
    fn waited(&self, tournament: &str, waiting: &[PlayerId], now: i64) -> Vec<i64> {
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let since = all.entry(tournament.to_string()).or_default();
        since.retain(|player, _| waiting.contains(player));
        waiting
            .iter()
            .map(|player| now - *since.entry(*player).or_insert(now))
            .collect()
    }

    fn forget(&self, tournament: &str) {
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        all.remove(tournament);
    }
}

/// When an arena stops pairing.
pub fn ends_at(t: &TournamentRow) -> Option<i64> {
    Some(t.started_at? + t.minutes? * 60_000)
}

/// Each player's arena points, from the finished games in the order they were paired.
pub fn points(boards: &[BoardRow]) -> BTreeMap<PlayerId, u32> {
    let games: Vec<ArenaGame> = boards
        .iter()
        .filter_map(|b| {
            Some(ArenaGame {
                black: b.black,
                white: b.white?,
                result: super::result_of(b.result.as_deref()?)?,
            })
        })
        .collect();
    arena::points(&games)
}

/// Pairs the players who wait; once the time is up and no game is left, the arena is
/// over (answers true).
pub async fn pair_waiting(hub: &Arc<Hub>, t: &TournamentRow) -> DirectorResult<bool> {
    let boards = hub.store.boards(&t.id).await?;
    let playing: HashSet<PlayerId> = boards
        .iter()
        .filter(|b| b.result.is_none())
        .filter_map(|b| Some([b.black, b.white?]))
        .flatten()
        .collect();
    let now = now_ms();
    if ends_at(t).is_some_and(|end| now >= end) {
        hub.director.arena_waiting.forget(&t.id);
        return Ok(playing.is_empty());
    }
    let points = points(&boards);
    // Each player's last opponent, and their games in a row against them.
    let mut last_opponent: HashMap<PlayerId, (PlayerId, u32)> = HashMap::new();
    let mut color_balance: HashMap<PlayerId, i32> = HashMap::new();
    for b in &boards {
        let Some(white) = b.white else { continue };
        for (player, opponent) in [(b.black, white), (white, b.black)] {
            let last = last_opponent.entry(player).or_insert((opponent, 0));
            *last = (opponent, if last.0 == opponent { last.1 + 1 } else { 1 });
        }
        *color_balance.entry(b.black).or_default() += 1;
        *color_balance.entry(white).or_default() -= 1;
    }
    let entrants: Vec<_> = (hub.store.entrants(&t.id).await?.into_iter())
        .filter(|e| e.active && !playing.contains(&e.account))
        .collect();
    let ids: Vec<PlayerId> = entrants.iter().map(|e| e.account).collect();
    let waited = hub.director.arena_waiting.waited(&t.id, &ids, now);
    let waiting: Vec<Waiting> = (entrants.iter().zip(waited))
        .map(|(e, waited_ms)| Waiting {
            id: e.account,
            points: points.get(&e.account).copied().unwrap_or(0),
            rating: e.rating,
            last_opponent: last_opponent.get(&e.account).map(|last| last.0),
            games_with_last: last_opponent.get(&e.account).map_or(0, |last| last.1),
            color_balance: color_balance.get(&e.account).copied().unwrap_or(0),
            waited_ms,
        })
        .collect();
    let pairs = arena::pair(&waiting, !playing.is_empty());
    if pairs.is_empty() {
        return Ok(false);
    }
    let round = t.round + 1;
    let rows: Vec<BoardRow> = pairs
        .iter()
        .zip(1..)
        .map(|(&(black, white), number)| board_row(round, number, &Board::game(black, white)))
        .collect();
    // Another server may have paired them first.
    if hub.store.add_round(&t.id, round, &rows).await? {
        make_games(hub, t).await?;
    }
    Ok(false)
}
