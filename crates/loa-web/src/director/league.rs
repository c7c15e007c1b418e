//! A correspondence league's seasons: divisions, each a double round robin whose games
//! are all played at once; at a season's end the top two of a division go up and the
//! bottom two down, newcomers join the lowest division, and the next season starts by
//! itself.

use super::{board_row, entrants_of, make_games, rounds_of, DirectorResult};
use crate::hub::Hub;
use crate::store::{BoardRow, EntrantRow, TournamentRow};
use crate::tournament::standings::{standings, Standing};
use crate::tournament::{league, round_robin, Board, PlayerId, Round};
use std::sync::Arc;

/// The first season's divisions: by rating, the best on top.
pub fn first_divisions(entrants: &[EntrantRow]) -> Vec<Vec<PlayerId>> {
    let mut ranked: Vec<&EntrantRow> = entrants.iter().filter(|e| e.active).collect();
    ranked.sort_by(|a, b| b.rating.total_cmp(&a.rating));
    league::divisions(&ranked.iter().map(|e| e.account).collect::<Vec<_>>())
}

/// Starts the next season with these divisions: every game of it made at once.
pub async fn start_season(
    hub: &Arc<Hub>,
    t: &TournamentRow,
    divisions: &[Vec<PlayerId>],
) -> DirectorResult<()> {
    let season = t.round + 1;
    let placed: Vec<(PlayerId, i64)> = divisions
        .iter()
        .zip(1..)
        .flat_map(|(players, d)| players.iter().map(move |&p| (p, d)))
        .collect();
    hub.store.set_divisions(&t.id, &placed).await?;
    let mut rows = Vec::new();
    for players in divisions {
        for round in round_robin::schedule(players.len(), true) {
            // A division of odd size has a player out each round: in a league all games
            // run at once, so that is simply no game.
            for (black, white) in round {
                let Some(white) = white else { continue };
                let board = Board::game(players[black], players[white]);
                rows.push(board_row(season, rows.len() as i64 + 1, &board));
            }
        }
    }
    // Another server may have started the season first.
    if hub.store.add_round(&t.id, season, &rows).await? {
        make_games(hub, t).await?;
    }
    Ok(())
}

/// The season's standings, division by division (the top division first), each best
/// first.
pub fn season_standings(
    entrants: &[EntrantRow],
    boards: &[BoardRow],
    season: i64,
) -> Vec<(i64, Vec<Standing>)> {
    let season_boards: Vec<BoardRow> = boards
        .iter()
        .filter(|b| b.round == season)
        .cloned()
        .collect();
    let rounds: Vec<Round> = rounds_of(&season_boards);
    let mut divisions: Vec<i64> = entrants.iter().filter_map(|e| e.division).collect();
    divisions.sort_unstable();
    divisions.dedup();
    divisions
        .into_iter()
        .map(|d| {
            let members: Vec<EntrantRow> = entrants
                .iter()
                .filter(|e| e.division == Some(d))
                .cloned()
                .collect();
            (d, standings(&entrants_of(&members), &rounds))
        })
        .collect()
}

/// The next season's divisions after this one: promotion, relegation, leavers and
/// newcomers.
pub fn next_divisions(
    entrants: &[EntrantRow],
    boards: &[BoardRow],
    season: i64,
) -> Vec<Vec<PlayerId>> {
    let finished: Vec<Vec<PlayerId>> = season_standings(entrants, boards, season)
        .into_iter()
        .map(|(_, table)| table.iter().map(|s| s.id).collect())
        .collect();
    let left: Vec<PlayerId> = entrants
        .iter()
        .filter(|e| !e.active)
        .map(|e| e.account)
        .collect();
    let newcomers: Vec<PlayerId> = entrants
        .iter()
        .filter(|e| e.active && e.division.is_none())
        .map(|e| e.account)
        .collect();
    league::next_season(&finished, &left, &newcomers)
}
