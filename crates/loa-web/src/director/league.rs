//! A correspondence league's seasons: divisions, each a double round robin whose games
//! are all played at once; at a season's end the top two of a division go up and the
//! bottom two down, newcomers join the lowest division, and the next season starts by
//! itself.

use super::{board_row, entrants_of, make_games, rounds_of, DirectorResult};
use crate::hub::Hub;
use crate::store::{BoardRow, EntrantRow, TournamentRow};
use crate::tournament::standings::{standings, Standing};
use crate::tournament::{league, round_robin, Board, PlayerId, Round};
use std::collections::HashMap;
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
    let rows = season_boards(season, divisions);
    // Another server may have started the season first.
    if hub.store.add_round(&t.id, season, &rows).await? {
        make_games(hub, t).await?;
    }
    Ok(())
}

/// A season's games: each division a double round robin, the top division's first.
fn season_boards(season: i64, divisions: &[Vec<PlayerId>]) -> Vec<BoardRow> {
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
    rows
}

/// The season's standings, division by division (the top division first), each best
/// first.
pub fn season_standings(
    entrants: &[EntrantRow],
    boards: &[BoardRow],
    season: i64,
) -> Vec<(i64, Vec<Standing>)> {
    let mut numbers: Vec<i64> = entrants.iter().filter_map(|e| e.division).collect();
    numbers.sort_unstable();
    numbers.dedup();
    let divisions = numbers.into_iter().map(|d| {
        let players = entrants.iter().filter(|e| e.division == Some(d));
        (d, players.map(|e| e.account).collect())
    });
    rank_divisions(entrants, &boards_of(boards, season), divisions)
}

/// An earlier season's final standings, division by division (the top division first).
/// The players' divisions now are the current season's: that season's are read from its
/// games, a division being everyone who met in it, made top division first.
pub fn past_season_standings(
    entrants: &[EntrantRow],
    boards: &[BoardRow],
    season: i64,
) -> Vec<(i64, Vec<Standing>)> {
    let mut season_boards = boards_of(boards, season);
    season_boards.sort_by_key(|b| b.board);
    // Each player's group, groups merged as their players meet.
    let mut group_of: HashMap<PlayerId, usize> = HashMap::new();
    let mut groups: Vec<Vec<PlayerId>> = Vec::new();
    for b in &season_boards {
        let Some(white) = b.white else { continue };
        let group = match (
            group_of.get(&b.black).copied(),
            group_of.get(&white).copied(),
        ) {
            (Some(g), Some(h)) if g != h => {
                let (keep, gone) = (g.min(h), g.max(h));
                let moved = std::mem::take(&mut groups[gone]);
                for &p in &moved {
                    group_of.insert(p, keep);
                }
                groups[keep].extend(moved);
                keep
            }
            (Some(g), _) | (None, Some(g)) => g,
            (None, None) => {
                groups.push(Vec::new());
                groups.len() - 1
            }
        };
        for p in [b.black, white] {
            if group_of.insert(p, group).is_none() {
                groups[group].push(p);
            }
        }
    }
    let divisions = (1..).zip(groups.into_iter().filter(|g| !g.is_empty()));
    rank_divisions(entrants, &season_boards, divisions)
}

/// A season's boards.
fn boards_of(boards: &[BoardRow], season: i64) -> Vec<BoardRow> {
    boards
        .iter()
        .filter(|b| b.round == season)
        .cloned()
        .collect()
}

/// Each division's standings from the season's boards, `divisions` giving each one's
/// number and players.
fn rank_divisions(
    entrants: &[EntrantRow],
    season_boards: &[BoardRow],
    divisions: impl IntoIterator<Item = (i64, Vec<PlayerId>)>,
) -> Vec<(i64, Vec<Standing>)> {
    let rounds: Vec<Round> = rounds_of(season_boards);
    divisions
        .into_iter()
        .map(|(d, players)| {
            let members: Vec<EntrantRow> = entrants
                .iter()
                .filter(|e| players.contains(&e.account))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_earlier_season_is_ranked_in_its_own_divisions() {
        // Season one: 1-4 on top, 5-8 below; the lower number wins every game.
        let mut boards = season_boards(1, &[vec![1, 2, 3, 4], vec![5, 6, 7, 8]]);
        for b in &mut boards {
            let white = b.white.unwrap();
            b.result = Some(if b.black < white { "black" } else { "white" }.into());
        }
        // Now in season two, 3 and 4 went down and 5 and 6 up.
        let now_in = |account: i64| match account {
            1 | 2 | 5 | 6 => 1,
            _ => 2,
        };
        let entrants: Vec<EntrantRow> = (1..=8)
            .map(|account| EntrantRow {
                account,
                name: format!("p{account}"),
                joined_at: 0,
                rating: 1500.0,
                active: true,
                division: Some(now_in(account)),
            })
            .collect();
        let table: Vec<(i64, Vec<(PlayerId, f64)>)> = past_season_standings(&entrants, &boards, 1)
            .into_iter()
            .map(|(d, s)| (d, s.iter().map(|s| (s.id, s.points)).collect()))
            .collect();
        assert_eq!(
            table,
            [
                (1, vec![(1, 6.0), (2, 4.0), (3, 2.0), (4, 0.0)]),
                (2, vec![(5, 6.0), (6, 4.0), (7, 2.0), (8, 0.0)]),
            ]
        );
    }
}
