//! The opening explorer: for a position, the moves played from it in the site's rated
//! games and in imported archives, with their games and results by rating band, and the
//! engine's and the solver's word on the position. The first plies of each game are
//! counted: by a worker for the site's games as they end, at start for archives.

use crate::clock::now_ms;
use crate::game::LiveGame;
use crate::hub::Hub;
use crate::solver_jobs::{Kept, SolverJobs};
use crate::store::{ExploredGame, ExploredMove};
use loa_core::record::{read_games_as, RecordResult};
use loa_core::{Color, Game, GameState, Move, RuleSet, Variant, VariantPosition};
use loa_engine::report::search_position;
use loa_engine::solver::{SolveLimits, Solver, Verdict};
use loa_engine::Engine;
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The plies of each game counted: the opening, where games meet again.
pub const MAX_PLY: usize = 30;

/// The rating bands, by their lower bounds; 0 holds the unrated and those under 1000.
pub const BANDS: [i64; 9] = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500];

/// The band of a game by its players' mean rating (none: an unrated archive game).
pub fn band_of(rating: Option<f64>) -> i64 {
    let Some(rating) = rating.filter(|r| r.is_finite()) else {
        return 0;
    };
    BANDS
        .iter()
        .copied()
        .rev()
        .find(|&band| rating >= band as f64)
        .unwrap_or(0)
}

/// A position's key: the first 8 bytes of SHA-256 of its text. Stable across versions,
/// unlike the engine's hashes.
pub fn position_key(position: &VariantPosition) -> i64 {
    let digest = Sha256::digest(position.to_string().as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    i64::from_be_bytes(bytes)
}

/// The moves of a game's first plies to count: a move played twice from one position
/// (the position repeated) counts once for the game.
pub fn explored(game: &Game<VariantPosition>, band: i64, black_won: Option<bool>) -> ExploredGame {
    let mut position = *game.start();
    let mut moves = Vec::new();
    let mut seen = HashSet::new();
    for mv in game.moves().take(MAX_PLY) {
        let counted = ExploredMove {
            position_key: position_key(&position),
            played: mv.to_string(),
        };
        if seen.insert((counted.position_key, mv)) {
            moves.push(counted);
        }
        position.play(mv);
    }
    ExploredGame {
        variant: game.start().variant().name().to_string(),
        band,
        black_won,
        moves,
    }
}

/// An archive read: its games to count (those with a result), and how many were not.
#[derive(Debug, Default)]
pub struct Archive {
    pub digest: String,
    pub games: Vec<ExploredGame>,
    pub skipped: usize,
}

/// Reads an archive's records (SGF or PGN, any number of games): a game's band is its
/// players' mean Elo when the record gives both (`BlackElo`, `WhiteElo`).
pub fn read_archive(text: &str, default: Variant) -> Archive {
    let mut archive = Archive {
        digest: Sha256::digest(text.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
        ..Archive::default()
    };
    for read in read_games_as(text, default) {
        let Ok(read) = read else {
            archive.skipped += 1;
            continue;
        };
        let black_won = match read.record.result {
            RecordResult::BlackWins => Some(true),
            RecordResult::WhiteWins => Some(false),
            RecordResult::Draw => None,
            RecordResult::Unknown => {
                archive.skipped += 1;
                continue;
            }
        };
        let elo = |tag: &str| {
            read.record
                .extra
                .iter()
                .find(|(key, _)| key.eq_ignore_ascii_case(tag))
                .and_then(|(_, value)| value.trim().parse::<f64>().ok())
        };
        let rating = elo("BlackElo")
            .zip(elo("WhiteElo"))
            .map(|(b, w)| (b + w) / 2.0);
        archive
            .games
            .push(explored(&read.replay.game, band_of(rating), black_won));
    }
    archive
}

/// How often the worker looks for rated games that ended and are not counted.
const SWEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// Counts the site's rated games as they end (any server may: each is counted once).
pub fn start_worker(hub: &Arc<Hub>) {
    let hub = Arc::clone(hub);
    tokio::spawn(async move {
        let mut sweep = tokio::time::interval(SWEEP_EVERY);
        loop {
            sweep.tick().await;
            if let Err(err) = count_ended_games(&hub).await {
                tracing::warn!("counting games for the explorer: {err}");
            }
        }
    });
}

/// Counts the rated games that ended and are not counted yet: how many.
pub async fn count_ended_games(hub: &Hub) -> anyhow::Result<usize> {
    let mut counted = 0;
    loop {
        let ids = hub.store.games_to_explore(100).await?;
        if ids.is_empty() {
            return Ok(counted);
        }
        for id in ids {
            // A row that cannot be read (or replayed) is marked counted, with nothing in
            // it, rather than holding up every game after it.
            let stored = match hub.store.load(&id).await {
                Ok(stored) => stored,
                Err(err) if err.is_damaged_row() => None,
                Err(err) => return Err(err.into()),
            };
            let game = stored.and_then(|stored| {
                let black_won = match stored.row.winner.as_deref() {
                    Some("black") => Some(true),
                    Some("white") => Some(false),
                    _ => None,
                };
                let live = LiveGame::restore(stored).ok()?;
                Some((live.game, black_won))
            });
            let explored_game = match game {
                Some((game, black_won)) => {
                    let rating = hub.store.mean_rating_after(&id).await?;
                    explored(&game, band_of(rating), black_won)
                }
                None => ExploredGame {
                    variant: String::new(),
                    band: 0,
                    black_won: None,
                    moves: Vec::new(),
                },
            };
            if hub
                .store
                .explore_game(&id, &explored_game, now_ms())
                .await?
            {
                counted += 1;
            }
        }
    }
}

/// The engine's and the solver's word on a position, as the explorer shows it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Verdicts {
    /// The engine's move and its evaluation for Black (`0.35`, `#3`).
    pub engine: Option<EngineWord>,
    /// `black` or `white` wins by force, proved; `null` when not proved in the budget.
    pub proved_win: Option<&'static str>,
    /// The winning move, when the side to move wins by force.
    pub winning_move: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EngineWord {
    #[serde(rename = "move")]
    pub best: Option<String>,
    pub eval: String,
}

/// The engine's budget for a position of the explorer, in nodes.
const ENGINE_NODES: u64 = 100_000;
/// The solver's budget, in nodes: with the engine's, about 2 s a new position.
const SOLVER_NODES: u64 = 300_000;
/// Verdicts kept before the store is emptied and begun again.
const KEPT_VERDICTS: usize = 20_000;

/// The explorer's verdicts, kept: each position searched and solved once per server.
pub struct ExplorerVerdicts {
    known: Kept<Verdicts>,
}

impl Default for ExplorerVerdicts {
    fn default() -> ExplorerVerdicts {
        ExplorerVerdicts {
            known: Kept::new(KEPT_VERDICTS),
        }
    }
}

impl ExplorerVerdicts {
    /// The verdicts on a position (its history aside): kept, or searched and solved as a
    /// solver job.
    pub async fn of(
        &self,
        jobs: &SolverJobs,
        position: VariantPosition,
        rules: RuleSet,
    ) -> anyhow::Result<Verdicts> {
        let key = format!("{rules} ; {position}");
        if let Some(known) = self.known.get(&key) {
            return Ok(known);
        }
        let verdicts = jobs
            .run(move |stop| judge(&Game::new(position, rules), stop))
            .await??;
        self.known.put(key, verdicts.clone());
        Ok(verdicts)
    }
}

fn judge(game: &Game<VariantPosition>, stop: &AtomicBool) -> anyhow::Result<Verdicts> {
    if game.is_over() {
        return Ok(Verdicts {
            engine: None,
            proved_win: None,
            winning_move: None,
        });
    }
    let mut engine = Engine::new(16);
    let searched = search_position(&mut engine, game, ENGINE_NODES, stop);
    let limits = SolveLimits {
        nodes: Some(SOLVER_NODES),
        time: None,
    };
    let mut solver = Solver::new(16, game.rules(), limits, stop)?;
    let solution = solver.solve(game.position(), &game.previous_hashes());
    let side = game.position().side_to_move();
    let winner = match solution.verdict {
        Verdict::Win => Some(side),
        Verdict::Loss => Some(!side),
        Verdict::Draw | Verdict::Unknown => None,
    };
    Ok(Verdicts {
        engine: Some(EngineWord {
            best: searched.line.first().map(Move::to_string),
            eval: searched.for_black(),
        }),
        proved_win: winner.map(|c| if c == Color::Black { "black" } else { "white" }),
        winning_move: (solution.verdict == Verdict::Win)
            .then_some(solution.best)
            .flatten()
            .map(|m| m.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use loa_core::RuleSet;

    #[test]
    fn bands_by_mean_rating() {
        assert_eq!(band_of(None), 0);
        assert_eq!(band_of(Some(f64::NAN)), 0);
        assert_eq!(band_of(Some(950.0)), 0);
        assert_eq!(band_of(Some(1000.0)), 1000);
        assert_eq!(band_of(Some(1599.9)), 1400);
        assert_eq!(band_of(Some(1600.0)), 1600);
        assert_eq!(band_of(Some(3100.0)), 2500);
    }

    #[test]
    fn an_archive_counts_its_finished_games_by_their_elo() {
        let pgn = "[Variant \"standard\"]\n[BlackElo \"1700\"]\n[WhiteElo \"1900\"]\n[Result \"1-0\"]\n\n1. b1-d3 a2-c4 1-0\n\n\
                   [Result \"*\"]\n\n1. b1-d3 *\n\n\
                   [Result \"1/2-1/2\"]\n\n1. c1-c3 1/2-1/2\n";
        let archive = read_archive(pgn, Variant::Standard);
        assert_eq!(archive.skipped, 1);
        assert_eq!(archive.games.len(), 2);
        let first = &archive.games[0];
        assert_eq!(first.band, 1800);
        assert_eq!(first.variant, "standard");
        let played: Vec<&str> = first.moves.iter().map(|m| m.played.as_str()).collect();
        assert_eq!(played, ["b1-d3", "a2-c4"]);
        // Both games start from the same position; the second is unrated.
        assert_eq!(
            first.moves[0].position_key,
            archive.games[1].moves[0].position_key
        );
        assert_ne!(first.moves[0].position_key, first.moves[1].position_key);
        assert_eq!(archive.games[1].band, 0);
        assert_eq!(archive.games[1].black_won, None);
        assert_eq!(archive.digest.len(), 64);
    }

    #[test]
    fn only_the_opening_is_counted_and_a_repeated_move_once() {
        let start = Variant::Standard.start(loa_core::BoardSize::Eight).unwrap();
        let mut game = Game::new(start, RuleSet::Draw);
        while game.ply() < MAX_PLY + 10 && !game.is_over() {
            let mut first = None;
            game.position().for_each_move(|m| {
                first.get_or_insert(m);
            });
            game.play(first.unwrap()).unwrap();
        }
        let counted = explored(&game, 0, Some(true));
        // Always the first move: the game goes back and forth, and a move played again
        // from a position seen before counts once.
        let mut position = *game.start();
        let mut pairs = HashSet::new();
        for mv in game.moves().take(MAX_PLY) {
            pairs.insert((position.to_string(), mv));
            position.play(mv);
        }
        assert!(pairs.len() < MAX_PLY, "the game repeats itself");
        assert_eq!(counted.moves.len(), pairs.len());
    }
}
