//! An arena while it runs: whoever is not playing is paired again at once, by arena
//! points and rating, until its time is up; it ends when its last game does.

use super::{board_row, make_games, DirectorResult};
use crate::clock::now_ms;
use crate::hub::Hub;
use crate::store::{BoardRow, TournamentRow};
use crate::tournament::arena::{self, ArenaGame, Waiting};
use crate::tournament::{Board, PlayerId};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

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
    if ends_at(t).is_some_and(|end| now_ms() >= end) {
        return Ok(playing.is_empty());
    }
    let points = points(&boards);
    let mut last_opponent = HashMap::new();
    let mut color_balance: HashMap<PlayerId, i32> = HashMap::new();
    for b in &boards {
        let Some(white) = b.white else { continue };
        last_opponent.insert(b.black, white);
        last_opponent.insert(white, b.black);
        *color_balance.entry(b.black).or_default() += 1;
        *color_balance.entry(white).or_default() -= 1;
    }
    let waiting: Vec<Waiting> = hub
        .store
        .entrants(&t.id)
        .await?
        .into_iter()
        .filter(|e| e.active && !playing.contains(&e.account))
        .map(|e| Waiting {
            id: e.account,
            points: points.get(&e.account).copied().unwrap_or(0),
            rating: e.rating,
            last_opponent: last_opponent.get(&e.account).copied(),
            color_balance: color_balance.get(&e.account).copied().unwrap_or(0),
        })
        .collect();
    let pairs = arena::pair(&waiting);
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
