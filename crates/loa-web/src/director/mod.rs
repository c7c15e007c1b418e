//! Runs the tournaments: starts them (by their creator, or when their time comes), pairs
//! each round once the last one is over, notes the games' results, withdraws a Swiss
//! player after two forfeits, and ends them, awarding a championship's medals. The rules
//! themselves (who meets whom, the standings) are `crate::tournament`'s.

mod arena;
mod league;
pub mod schedule;

pub use schedule::spawn;

use crate::clock::{now_ms, TimeControl};
use crate::game::LiveGame;
use crate::hub::{Hub, HubError};
use crate::pairing::{ColorChoice, Party, TermsRequest};
use crate::ratings::{Category, Speed};
use crate::store::{BoardOf, BoardRow, EntrantRow, StoreError, TournamentRow};
use crate::tournament::championship::Championship;
use crate::tournament::standings::{standings, Standing};
use crate::tournament::{round_robin, swiss, Board, Entrant, Format, GameResult, PlayerId, Round};
use loa_core::Color;
use std::sync::Arc;
use tokio::sync::broadcast;

/// One tournament change at a time: two games ending together must not pair a round
/// twice.
pub struct Director {
    lock: tokio::sync::Mutex<()>,
    /// Told the id of each tournament that changes.
    pub changes: broadcast::Sender<String>,
    /// The site's championships, as the server was started with.
    pub championships: std::sync::OnceLock<Vec<Championship>>,
    /// Since when each arena's players have been seen waiting for a game.
    arena_waiting: arena::WaitingSince,
}

impl Default for Director {
    fn default() -> Director {
        Director {
            lock: tokio::sync::Mutex::new(()),
            changes: broadcast::channel(64).0,
            championships: std::sync::OnceLock::new(),
            arena_waiting: arena::WaitingSince::default(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum DirectorError {
    #[error("no such tournament")]
    NotFound,
    /// What was asked does not fit where the tournament stands.
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Hub(#[from] HubError),
}

type DirectorResult<T> = Result<T, DirectorError>;

/// A game that has just ended, as a tournament notes it.
pub struct GameEnd {
    pub game: String,
    pub winner: Option<Color>,
    /// The loser never moved: lost on time, or by not making a first move in time.
    pub forfeit: bool,
}

impl GameEnd {
    pub fn of(live: &LiveGame) -> GameEnd {
        let ending = live.ending.as_ref();
        GameEnd {
            game: live.id.clone(),
            winner: ending.and_then(|e| e.winner),
            forfeit: live.lost_without_moving(),
        }
    }
}

/// A result as a board keeps it.
fn result_name(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::Black) => "black",
        Some(Color::White) => "white",
        None => "draw",
    }
}

fn result_of(text: &str) -> Option<GameResult> {
    match text {
        "black" => Some(GameResult::BlackWins),
        "white" => Some(GameResult::WhiteWins),
        "draw" => Some(GameResult::Draw),
        _ => None,
    }
}

/// The rounds so far, as the rules read them.
pub fn rounds_of(boards: &[BoardRow]) -> Vec<Round> {
    let mut rounds: Vec<Round> = Vec::new();
    for b in boards {
        let number = u32::try_from(b.round).unwrap_or(0);
        if rounds.last().is_none_or(|r| r.number != number) {
            rounds.push(Round {
                number,
                boards: Vec::new(),
            });
        }
        let board = match (b.white, b.bye_points) {
            (Some(white), _) => Board::Game {
                black: b.black,
                white,
                result: b.result.as_deref().and_then(result_of),
                forfeit: b.forfeit,
            },
            (None, points) => Board::Bye {
                player: b.black,
                points: points.unwrap_or(0.0),
            },
        };
        rounds.last_mut().expect("pushed above").boards.push(board);
    }
    rounds
}

pub fn entrants_of(rows: &[EntrantRow]) -> Vec<Entrant> {
    rows.iter()
        .map(|e| Entrant {
            id: e.account,
            rating: e.rating,
            active: e.active,
        })
        .collect()
}

/// The tournament's games' terms, for a pair.
fn terms_of(t: &TournamentRow) -> Result<crate::pairing::Terms, String> {
    TermsRequest {
        variant: Some(t.variant.clone()),
        rules: Some(t.rules.clone()),
        clock: serde_json::from_str(&t.clock).map_err(|e| e.to_string())?,
        rated: t.rated,
        color: Some(ColorChoice::Black),
    }
    .check()
}

impl Director {
    async fn lock(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.lock.lock().await
    }
}

/// Starts a tournament now: by its creator, or at its time.
pub async fn start(hub: &Arc<Hub>, id: &str) -> DirectorResult<()> {
    let _guard = hub.director.lock().await;
    start_locked(hub, id).await?;
    hub.tournament_changed(id);
    Ok(())
}

async fn start_locked(hub: &Arc<Hub>, id: &str) -> DirectorResult<()> {
    let t = hub
        .store
        .tournament(id)
        .await?
        .ok_or(DirectorError::NotFound)?;
    if t.status != "open" {
        return Err(DirectorError::Refused(format!(
            "the tournament is {}, not open",
            t.status
        )));
    }
    let entrants = hub.store.entrants(id).await?;
    if entrants.len() < 2 {
        return Err(DirectorError::Refused(
            "a tournament needs two players to start".into(),
        ));
    }
    let mut seeds = Vec::with_capacity(entrants.len());
    for e in &entrants {
        let rating = seed_rating(hub, &t, e.account).await?;
        seeds.push((e.account, rating, None));
    }
    if !hub.store.start_tournament(id, now_ms(), &seeds).await? {
        return Err(DirectorError::Refused("the tournament has started".into()));
    }
    next_round(hub, id).await
}

/// A player's rating in the tournament's variant and speed, which seeds them (1500
/// without one): at the start, and for a late joiner.
pub async fn seed_rating(hub: &Hub, t: &TournamentRow, account: PlayerId) -> DirectorResult<f64> {
    let unrated = crate::ratings::Rating::default().rating;
    let (Ok(clock), Ok(variant)) = (
        serde_json::from_str::<TimeControl>(&t.clock),
        t.variant.parse(),
    ) else {
        return Ok(unrated);
    };
    let category = Category {
        variant,
        speed: Speed::of(clock),
    }
    .key();
    let rating = hub.store.rating(account, &category).await?;
    Ok(rating.map_or(unrated, |r| r.rating))
}

/// Pairs the next round, or ends the tournament when none is left.
async fn next_round(hub: &Arc<Hub>, id: &str) -> DirectorResult<()> {
    let t = hub
        .store
        .tournament(id)
        .await?
        .ok_or(DirectorError::NotFound)?;
    let format = Format::parse(&t.format)
        .ok_or_else(|| DirectorError::Refused(format!("unknown format {}", t.format)))?;
    let began = std::time::Instant::now();
    let entrants_rows = hub.store.entrants(id).await?;
    let entrants = entrants_of(&entrants_rows);
    let boards = hub.store.boards(id).await?;
    let played = rounds_of(&boards);
    let active = entrants.iter().filter(|e| e.active).count();
    let round = t.round + 1;
    let pairs: Vec<Board> = match format {
        Format::Swiss if t.round < t.rounds && active >= 2 => swiss::pair(&entrants, &played),
        Format::RoundRobin => {
            let seeded = seeded(&entrants);
            let schedule = round_robin::schedule(seeded.len(), t.rounds >= 2);
            match schedule.get(usize::try_from(t.round).unwrap_or(usize::MAX)) {
                Some(pairs) if active >= 2 => pairs
                    .iter()
                    .map(|&(a, b)| match b {
                        Some(b) => round_robin_board(&seeded[a], &seeded[b]),
                        None => Board::bye(seeded[a].id),
                    })
                    .collect(),
                _ => Vec::new(),
            }
        }
        Format::Arena => {
            if arena::pair_waiting(hub, &t).await? {
                finish(hub, &t).await?;
            }
            return Ok(());
        }
        Format::League => {
            let divisions = if t.round == 0 {
                league::first_divisions(&entrants_rows)
            } else if t.round < t.rounds {
                league::next_divisions(&entrants_rows, &boards, t.round)
            } else {
                Vec::new()
            };
            if divisions.iter().map(Vec::len).sum::<usize>() < 2 {
                return finish(hub, &t).await;
            }
            league::start_season(hub, &t, &divisions).await?;
            return Ok(());
        }
        Format::Swiss => Vec::new(),
    };
    if pairs.is_empty() {
        return finish(hub, &t).await;
    }
    let paired = began.elapsed();
    let rows: Vec<BoardRow> = pairs
        .iter()
        .enumerate()
        .map(|(i, board)| board_row(round, i as i64 + 1, board))
        .collect();
    if !hub.store.add_round(id, round, &rows).await? {
        // Another server paired this round first.
        return Ok(());
    }
    make_games(hub, &t).await?;
    tracing::info!(
        "tournament {id}: round {round} of {} players paired in {:.1} ms, its {} boards written and games made in {:.1} ms",
        active,
        paired.as_secs_f64() * 1e3,
        rows.len(),
        (began.elapsed() - paired).as_secs_f64() * 1e3
    );
    // A round whose every board is settled without a game (byes, withdrawn players)
    // is over at once.
    if round_over(hub, id, round).await? {
        Box::pin(next_round(hub, id)).await?;
    }
    Ok(())
}

/// A league's seasons before the current one, each with its final standings, division
/// by division; nothing for the other formats.
pub fn earlier_seasons(
    t: &TournamentRow,
    entrants: &[EntrantRow],
    boards: &[BoardRow],
) -> Vec<(i64, Table)> {
    if Format::parse(&t.format) != Some(Format::League) {
        return Vec::new();
    }
    (1..t.round)
        .map(|season| {
            let divisions = league::past_season_standings(entrants, boards, season);
            (season, by_division(divisions))
        })
        .collect()
}

/// When an arena stops pairing; `None` for the other formats.
pub fn arena_ends_at(t: &TournamentRow) -> Option<i64> {
    arena::ends_at(t)
}

/// Standings, each line with its league division.
pub type Table = Vec<(Option<i64>, Standing)>;

/// A league's divisions' standings as one table, the top division first.
fn by_division(divisions: Vec<(i64, Vec<Standing>)>) -> Table {
    divisions
        .into_iter()
        .flat_map(|(d, table)| table.into_iter().map(move |s| (Some(d), s)))
        .collect()
}

/// The standings as the format ranks them, each line with its league division: points,
/// Sonneborn-Berger, Buchholz for a Swiss and a round robin; arena points for an arena;
/// the current season's points, division by division, for a league.
pub fn standings_of(t: &TournamentRow, entrants: &[EntrantRow], boards: &[BoardRow]) -> Table {
    match Format::parse(&t.format) {
        Some(Format::League) if t.round > 0 => {
            let mut table = by_division(league::season_standings(entrants, boards, t.round));
            // Who joined during the season is listed too, with no division until the next
            // (those who left before it are not).
            let waiting: Vec<EntrantRow> = entrants
                .iter()
                .filter(|e| e.division.is_none() && e.active)
                .cloned()
                .collect();
            table.extend(
                standings(&entrants_of(&waiting), &[])
                    .into_iter()
                    .map(|s| (None, s)),
            );
            table
        }
        Some(Format::Arena) => {
            let points = arena::points(boards);
            let mut table = standings(&entrants_of(entrants), &rounds_of(boards));
            for s in &mut table {
                s.points = f64::from(points.get(&s.id).copied().unwrap_or(0));
            }
            // Stable: equal arena points keep the tie-break order.
            table.sort_by(|a, b| b.points.total_cmp(&a.points));
            table.into_iter().map(|s| (None, s)).collect()
        }
        _ => standings(&entrants_of(entrants), &rounds_of(boards))
            .into_iter()
            .map(|s| (None, s))
            .collect(),
    }
}

/// The entrants in seed order: rating at the start, then the order they joined.
fn seeded(entrants: &[Entrant]) -> Vec<Entrant> {
    let mut seeded = entrants.to_vec();
    seeded.sort_by(|a, b| b.rating.total_cmp(&a.rating));
    seeded
}

/// A round robin's board: a withdrawn player's game is not played, and scores for the
/// other as a forfeit.
fn round_robin_board(black: &Entrant, white: &Entrant) -> Board {
    let result = match (black.active, white.active) {
        (true, true) => None,
        (false, true) => Some(GameResult::WhiteWins),
        (true, false) => Some(GameResult::BlackWins),
        (false, false) => Some(GameResult::Draw),
    };
    Board::Game {
        black: black.id,
        white: white.id,
        result,
        forfeit: result.is_some(),
    }
}

fn board_row(round: i64, number: i64, board: &Board) -> BoardRow {
    match board {
        Board::Game {
            black,
            white,
            result,
            forfeit,
        } => BoardRow {
            round,
            board: number,
            game_id: None,
            black: *black,
            white: Some(*white),
            bye_points: None,
            result: result.map(|r| {
                match r {
                    GameResult::BlackWins => "black",
                    GameResult::WhiteWins => "white",
                    GameResult::Draw => "draw",
                }
                .to_string()
            }),
            forfeit: *forfeit,
        },
        Board::Bye { player, points } => BoardRow {
            round,
            board: number,
            game_id: None,
            black: *player,
            white: None,
            bye_points: Some(*points),
            result: None,
            forfeit: false,
        },
    }
}

/// Makes the games of the boards that need one and have none (after a restart, too).
async fn make_games(hub: &Arc<Hub>, t: &TournamentRow) -> DirectorResult<()> {
    let terms = terms_of(t).map_err(DirectorError::Refused)?;
    let names: std::collections::HashMap<PlayerId, String> = hub
        .store
        .entrants(&t.id)
        .await?
        .into_iter()
        .map(|e| (e.account, e.name))
        .collect();
    let party = |id: PlayerId| Party {
        account: Some(id),
        name: names.get(&id).cloned(),
    };
    for b in hub.store.boards(&t.id).await? {
        let Some(white) = b.white else { continue };
        if b.game_id.is_some() || b.result.is_some() {
            continue;
        }
        let now = now_ms();
        let mut live =
            LiveGame::create_paired(terms.game(Color::Black, party(b.black), party(white)), now);
        // A tournament's clock runs from the pairing: a player who does not come loses
        // on time (the game is never aborted).
        live.tournament_game = true;
        live.start_clock(now);
        let board = BoardOf {
            tournament: &t.id,
            round: b.round,
            board: b.board,
        };
        let open = hub.create_on(live, Some(board)).await?;
        let live = open.game.lock().await;
        let view = live.view(now);
        hub.after_change(&open, &live, &view);
    }
    Ok(())
}

/// Whether every board of a round has its result (a bye has one from the start).
async fn round_over(hub: &Hub, id: &str, round: i64) -> DirectorResult<bool> {
    Ok(hub
        .store
        .boards(id)
        .await?
        .iter()
        .filter(|b| b.round == round)
        .all(|b| b.white.is_none() || b.result.is_some()))
}

/// Ends a tournament; a championship's top three get their medals.
async fn finish(hub: &Arc<Hub>, t: &TournamentRow) -> DirectorResult<()> {
    let medals: Vec<(PlayerId, i64)> = if t.championship.is_some() {
        let entrants = hub.store.entrants(&t.id).await?;
        let boards = hub.store.boards(&t.id).await?;
        standings_of(t, &entrants, &boards)
            .iter()
            .take(3)
            .zip(1..)
            .map(|((_, s), place)| (s.id, place))
            .collect()
    } else {
        Vec::new()
    };
    hub.store
        .finish_tournament(&t.id, now_ms(), &medals)
        .await?;
    Ok(())
}

/// Notes a tournament game's result, and pairs the next round once the round is over.
/// A game of no tournament is left alone. Failures are logged: the game's end stands.
pub async fn game_ended(hub: &Arc<Hub>, end: GameEnd) {
    if let Err(e) = note_result(hub, &end).await {
        tracing::error!("tournament game {}: {e}", end.game);
    }
}

async fn note_result(hub: &Arc<Hub>, end: &GameEnd) -> DirectorResult<()> {
    let Some((id, _, _)) = hub.store.game_tournament(&end.game).await? else {
        return Ok(());
    };
    let _guard = hub.director.lock().await;
    if !hub
        .store
        .set_board_result(&end.game, result_name(end.winner), end.forfeit)
        .await?
    {
        return Ok(());
    }
    let t = hub
        .store
        .tournament(&id)
        .await?
        .ok_or(DirectorError::NotFound)?;
    let arena = t.format == Format::Arena.name();
    if end.forfeit && (arena || t.format == Format::Swiss.name()) {
        withdraw_absent(hub, &t, end).await?;
    }
    // An arena pairs the two players again at once; the others wait for the round.
    if t.status == "running" && (arena || round_over(hub, &id, t.round).await?) {
        next_round(hub, &id).await?;
    }
    hub.tournament_changed(&id);
    Ok(())
}

/// Resigns, for `player`, their games of the tournament not yet over.
pub async fn resign_games_in_progress(
    hub: &Arc<Hub>,
    t: &TournamentRow,
    player: PlayerId,
) -> DirectorResult<()> {
    let caller = crate::game::Caller {
        token: None,
        account: Some(player),
    };
    for board in hub.store.boards(&t.id).await? {
        let (Some(game), None) = (&board.game_id, &board.result) else {
            continue;
        };
        if board.black != player && board.white != Some(player) {
            continue;
        }
        let open = hub.open(game).await?;
        // Over meanwhile (a move, a flag): nothing to resign.
        hub.change_if(&open, |live, now| {
            live.resign(&caller, None, now).ok()?;
            Some(crate::game::Changed::nothing_at(live.game.ply()))
        })
        .await?;
    }
    Ok(())
}

/// The forfeits that withdraw a Swiss player, who may not join again.
pub const SWISS_FORFEITS: usize = 2;

/// The games `player` lost without a move.
pub fn forfeits_lost(boards: &[BoardRow], player: PlayerId) -> usize {
    (boards.iter().filter(|b| b.forfeit))
        .filter(|b| match b.result.as_deref() {
            Some("black") => b.white == Some(player),
            Some("white") => b.black == player,
            _ => false,
        })
        .count()
}

/// The player who lost `end` without a move is withdrawn: from an arena at once
/// (paused: not paired again to keep someone waiting, and free to join again), from a
/// Swiss after two such games.
async fn withdraw_absent(hub: &Arc<Hub>, t: &TournamentRow, end: &GameEnd) -> DirectorResult<()> {
    let boards = hub.store.boards(&t.id).await?;
    let Some(board) = boards
        .iter()
        .find(|b| b.game_id.as_deref() == Some(&end.game))
    else {
        return Ok(());
    };
    let loser = match end.winner {
        Some(Color::Black) => board.white,
        Some(Color::White) => Some(board.black),
        None => None,
    };
    let Some(loser) = loser else { return Ok(()) };
    if t.format == Format::Arena.name() || forfeits_lost(&boards, loser) >= SWISS_FORFEITS {
        hub.store
            .withdraw_from_tournament(&t.id, loser, true)
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(black: PlayerId, white: PlayerId, result: &str, forfeit: bool) -> BoardRow {
        BoardRow {
            round: 1,
            board: 1,
            game_id: Some("g".into()),
            black,
            white: Some(white),
            bye_points: None,
            result: Some(result.into()),
            forfeit,
        }
    }

    #[test]
    fn only_games_lost_without_a_move_count_as_forfeits() {
        let boards = [
            game(1, 2, "white", true),  // 1 forfeits
            game(2, 1, "black", true),  // 1 forfeits again
            game(3, 1, "white", false), // 3 loses a game played
            game(1, 3, "black", true),  // 3 forfeits, 1 wins
            game(2, 3, "draw", false),
        ];
        assert_eq!(forfeits_lost(&boards, 1), 2);
        assert_eq!(forfeits_lost(&boards, 2), 0);
        assert_eq!(forfeits_lost(&boards, 3), 1);
    }
}
