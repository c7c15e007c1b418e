//! Alpha-beta search: iterative deepening, principal variation search, a transposition
//! table, killer and history move ordering, late move reductions, null move, and a
//! quiescence search on captures that make or break connections.
//!
//! One file per concern: the engine and what a search is asked and answers here;
//! `iterate` (iterative deepening, aspiration, multi-PV), `negamax`, `quiescence`,
//! `ordering` (killers, move picking), `history`, `eval_cache`, `threads` (lazy SMP),
//! `searcher` (one thread's state) and `score`.

mod eval_cache;
mod history;
mod iterate;
mod negamax;
mod ordering;
mod quiescence;
mod role;
mod searcher;
mod threads;

use crate::score::Score;

use crate::solver::beside::{self, Proven};
use crate::time::{Clock, TimeLimit};
use crate::tt::{Bound, TranspositionTable};
use crate::{SearchRequest, Searchable};
use loa_core::{Move, RuleSet, VariantPosition};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use role::ThreadTables;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The deepest ply the search reaches.
pub const MAX_PLY: usize = 128;

/// The deepest iteration a search can be asked for.
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 1;

/// On a clock, the solver beside the search runs only where an earlier search scored the
/// root at least this much for the side to move (three to five pieces' worth), and tries
/// that win alone: beside every search it cost the engine about 70 Elo (docs/solver.md).
const SUSPECTED_WIN: i32 = 200;

/// Whether the solver runs beside a search whose root an earlier search left as `known`:
/// always in analysis (no clock), on a clock only where that search found the side to
/// move at least [`SUSPECTED_WIN`] ahead.
fn solver_runs(on_clock: bool, known: Option<crate::tt::Entry>) -> bool {
    !on_clock || known.is_some_and(|e| e.score >= SUSPECTED_WIN && e.bound != Bound::Upper)
}

/// When to stop searching. With no limit at all the search runs until stopped.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Time for this move.
    pub time: Option<TimeLimit>,
    /// How many best lines to find (0 or 1: just the best).
    pub multipv: usize,
    /// When the time started: when the command to search came. `None`: when the search
    /// starts.
    pub start: Option<Instant>,
    /// Play a move drawn among all the root's moves rather than the best: each weighs
    /// `exp((score - best) / spread)`, scores in centipawns (the weak levels).
    pub spread: Option<u32>,
}

impl SearchLimits {
    /// These limits played on `clock`: the time is kept inside the clock's share for
    /// this move ([`Clock::budget`]), with `overhead` in hand.
    pub fn on_clock(self, clock: &Clock, overhead: Duration) -> SearchLimits {
        self.within(clock.budget(overhead))
    }

    /// These limits with their time kept inside `time` (the tighter of the two).
    pub fn within(mut self, time: TimeLimit) -> SearchLimits {
        self.time = Some(self.time.map_or(time, |own| own.tighter(time)));
        self
    }
}

/// A report after each completed iteration, one per line of a multi-line search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    /// Which of the best lines this is, from 1.
    pub multipv: usize,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    /// Permille of the table used by this search.
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when the game is already over at the root.
    pub best: Option<Move>,
    /// The best line's value for the side to move.
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
    /// What the solver beside the search proved at the root, if it ran and proved it.
    pub proven: Option<Proven>,
}

/// Makes a proved result the search's answer. A connection the search found itself is
/// kept when it is at least as near (the search finds the nearest it sees; the proof's
/// distance is an upper bound); a proved win is played with the proof's move, a proved
/// loss with the move the search found.
fn take_proven(result: &mut SearchResult, proven: Proven) {
    result.proven = Some(proven);
    let score = Score::from_internal(proven.score());
    let (searched, proved) = (result.score.as_cp(), score.as_cp());
    let search_knew = if proven.win {
        searched >= proved
    } else {
        matches!(result.score, Score::Mate(n) if n < 0) && searched <= proved
    };
    if search_knew {
        return;
    }
    result.score = score;
    if proven.win {
        if let Some(best) = proven.best {
            result.best = Some(best);
            result.pv = vec![best];
        }
    }
}

/// The engine: its table and ordering heuristics outlive a single search.
pub struct Engine {
    tt: TranspositionTable,
    /// What each thread keeps from one search to the next; the main thread's first.
    threads: Vec<Box<ThreadTables>>,
    /// Whether a proof-number solver runs beside the search, on a thread of its own.
    solver: bool,
    /// On a clock, the solver's table from one move to the next.
    solver_memory: Option<beside::Memory>,
    /// Draws the move of a search with a spread.
    rng: ChaCha8Rng,
}

impl Engine {
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            tt: TranspositionTable::new(hash_mb),
            threads: vec![ThreadTables::new()],
            solver: false,
            solver_memory: None,
            rng: ChaCha8Rng::seed_from_u64(clock_seed()),
        }
    }

    /// Seeds the draw of moves under a spread: the same seed draws the same moves.
    pub fn seed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }

    pub fn set_hash(&mut self, megabytes: usize) {
        self.tt = TranspositionTable::new(megabytes);
    }

    /// Forgets everything learnt: for a new game.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.threads.fill_with(ThreadTables::new);
        self.solver_memory = None;
    }

    /// Sets the number of search threads (lazy SMP over the shared table).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads.resize_with(threads.max(1), ThreadTables::new);
    }

    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// Runs the proof-number solver beside the search (one more thread): a win it
    /// proves is played at once, and a proved win or loss is reported as a connection
    /// score.
    pub fn set_solver(&mut self, on: bool) {
        self.solver = on;
    }

    /// Searches `root` under `rules`. `history` holds the hashes of the game's positions
    /// before `root`, oldest first, so repetitions are seen; `stop` ends the search from
    /// outside; `on_info` hears of every finished iteration.
    pub fn search<P: Searchable>(
        &mut self,
        root: &P,
        history: &[u64],
        rules: RuleSet,
        limits: &SearchLimits,
        stop: &AtomicBool,
        mut on_info: impl FnMut(&Info),
    ) -> SearchResult {
        if let Some(spread) = limits.spread {
            return self.search_spread(root, history, rules, limits, spread, stop, &mut on_info);
        }
        self.tt.new_search();
        for tables in &mut self.threads {
            tables.history.age();
        }
        let (tt, tables) = (&self.tt, &mut self.threads);
        let halt = AtomicBool::new(false);
        // The solver's answer concerns the best line only.
        let on_clock = limits.time.is_some();
        if !self.solver || limits.multipv > 1 || !solver_runs(on_clock, tt.probe(root.key())) {
            return threads::search(
                tt, tables, rules, root, history, limits, stop, &halt, on_info,
            );
        }
        let start = limits.start.unwrap_or_else(Instant::now);
        let solver_stop = AtomicBool::new(false);
        // On a clock the solver tries the side to move's win alone, and goes on from
        // what it learnt at the side's earlier moves.
        let side = root.side_to_move();
        if on_clock
            && !self
                .solver_memory
                .as_ref()
                .is_some_and(|m| m.serves(side, rules))
        {
            self.solver_memory = beside::Memory::new(side, rules);
        }
        let memory = self.solver_memory.as_ref().filter(|_| on_clock);
        std::thread::scope(|scope| {
            let solver = std::thread::Builder::new()
                .name("solver".to_string())
                .stack_size(64 << 20)
                .spawn_scoped(scope, || match memory {
                    Some(memory) => memory.prove(root, history, &solver_stop, &halt),
                    None => {
                        let only = on_clock.then_some(side);
                        beside::prove(root, history, rules, only, &solver_stop, &halt)
                    }
                });
            let mut result = threads::search(
                tt,
                tables,
                rules,
                root,
                history,
                limits,
                stop,
                &halt,
                &mut on_info,
            );
            solver_stop.store(true, Ordering::Relaxed);
            // A solver thread that could not start proves nothing.
            let proven = solver.ok().and_then(|s| s.join().ok()).flatten();
            if let Some(proven) = proven {
                take_proven(&mut result, proven);
                on_info(&Info {
                    depth: result.depth,
                    multipv: 1,
                    seldepth: result.depth,
                    score: result.score,
                    nodes: result.nodes,
                    time: start.elapsed(),
                    hashfull: tt.hashfull(),
                    pv: result.pv.clone(),
                });
            }
            result
        })
    }

    /// Every root move searched (one line each), then one drawn by its score.
    #[allow(clippy::too_many_arguments)]
    fn search_spread<P: Searchable>(
        &mut self,
        root: &P,
        history: &[u64],
        rules: RuleSet,
        limits: &SearchLimits,
        spread: u32,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let every_line = SearchLimits {
            multipv: usize::MAX,
            spread: None,
            ..limits.clone()
        };
        // The lines of the deepest iteration, as (depth, first move, score).
        let mut lines: Vec<(u32, Move, Score)> = Vec::new();
        // Through `dyn`: `search` is instantiated once for this closure, not without end.
        let mut collect = |info: &Info| {
            if lines
                .first()
                .is_some_and(|&(depth, ..)| depth != info.depth)
            {
                lines.clear();
            }
            if let Some(&first) = info.pv.first() {
                lines.push((info.depth, first, info.score));
            }
            on_info(info);
        };
        let mut result = self.search(root, history, rules, &every_line, stop, &mut collect);
        if let Some((mv, score)) = draw_by_score(&lines, spread, &mut self.rng) {
            result.best = Some(mv);
            result.score = score;
            result.pv = vec![mv];
        }
        result
    }

    /// Searches what `request` asks, a position of any variant: [`Engine::search`] on
    /// the position it holds. `request.until_stopped` is for the caller to honour.
    pub fn search_any(
        &mut self,
        request: &SearchRequest,
        stop: &AtomicBool,
        on_info: impl FnMut(&Info),
    ) -> SearchResult {
        let SearchRequest {
            root,
            history,
            rules,
            limits,
            ..
        } = request;
        match root {
            VariantPosition::Standard(pos) => {
                self.search(pos, history, *rules, limits, stop, on_info)
            }
            VariantPosition::Parachute(pos) => {
                self.search(pos, history, *rules, limits, stop, on_info)
            }
            VariantPosition::AmbiLoa(pos) => {
                self.search(pos, history, *rules, limits, stop, on_info)
            }
            VariantPosition::Neighbors(pos) => {
                self.search(pos, history, *rules, limits, stop, on_info)
            }
            VariantPosition::FieldsOfAction(pos) => {
                self.search(pos, history, *rules, limits, stop, on_info)
            }
        }
    }
}

/// A line's first move drawn with weight `exp((score - best) / spread)`.
fn draw_by_score(
    lines: &[(u32, Move, Score)],
    spread: u32,
    rng: &mut ChaCha8Rng,
) -> Option<(Move, Score)> {
    let best = lines.iter().map(|&(_, _, s)| s.as_cp()).max()?;
    let spread = f64::from(spread.max(1));
    let weights: Vec<f64> = (lines.iter())
        .map(|&(_, _, s)| (f64::from(s.as_cp() - best) / spread).max(-60.0).exp())
        .collect();
    let mut left = rng.random::<f64>() * weights.iter().sum::<f64>();
    for (&(_, mv, score), weight) in lines.iter().zip(&weights) {
        left -= weight;
        if left < 0.0 {
            return Some((mv, score));
        }
    }
    lines.last().map(|&(_, mv, score)| (mv, score))
}

/// A seed that differs from one run to the next, from the clock.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::MATE;
    use loa_core::Square;

    #[test]
    fn on_a_clock_the_solver_runs_only_where_the_side_to_move_was_found_well_ahead() {
        let known = |score, bound| {
            Some(crate::tt::Entry {
                mv: None,
                score,
                depth: 6,
                bound,
            })
        };
        // Analysis: always, known or not.
        assert!(solver_runs(false, None));
        assert!(solver_runs(false, known(-500, Bound::Exact)));
        // On a clock: a score of at least SUSPECTED_WIN that is not only an upper bound.
        assert!(!solver_runs(true, None));
        assert!(solver_runs(true, known(SUSPECTED_WIN, Bound::Exact)));
        assert!(solver_runs(true, known(SUSPECTED_WIN + 300, Bound::Lower)));
        assert!(!solver_runs(true, known(SUSPECTED_WIN - 1, Bound::Exact)));
        assert!(!solver_runs(true, known(SUSPECTED_WIN + 300, Bound::Upper)));
        assert!(!solver_runs(true, known(-SUSPECTED_WIN, Bound::Lower)));
    }

    fn mv(from: u8, to: u8) -> Move {
        Move::new(Square::new(from), Square::new(to), false)
    }

    fn searched(score: i32) -> SearchResult {
        SearchResult {
            best: Some(mv(0, 1)),
            score: Score::from_internal(score),
            depth: 5,
            nodes: 100,
            pv: vec![mv(0, 1)],
            proven: None,
        }
    }

    fn proven(win: bool, plies: u32) -> Proven {
        Proven {
            win,
            best: win.then(|| mv(18, 34)),
            plies,
        }
    }

    #[test]
    fn a_draw_by_score_favours_the_better_moves_by_the_spread() {
        let lines = [
            (1, mv(0, 1), Score::Cp(50)),
            (1, mv(0, 2), Score::Cp(50 - 69)),
            (1, mv(0, 3), Score::Mate(-1)),
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut drawn = [0; 3];
        for _ in 0..10_000 {
            let (mv, _) = draw_by_score(&lines, 100, &mut rng).unwrap();
            drawn[mv.to().index() - 1] += 1;
        }
        // Weights 1 and exp(-0.69) = 1/2: two thirds and one third; a loss never.
        assert!((6_400..6_950).contains(&drawn[0]), "{drawn:?}");
        assert!((3_050..3_600).contains(&drawn[1]), "{drawn:?}");
        assert_eq!(drawn[2], 0);
        assert_eq!(draw_by_score(&[], 100, &mut rng), None);
    }

    #[test]
    fn a_proved_win_the_search_did_not_see_is_played_with_its_distance() {
        let mut result = searched(35);
        take_proven(&mut result, proven(true, 9));
        assert_eq!(result.best, Some(mv(18, 34)));
        assert_eq!(result.pv, vec![mv(18, 34)]);
        assert_eq!(result.score, Score::Mate(5));
        assert!(result.proven.is_some());
    }

    #[test]
    fn a_nearer_connection_of_the_search_is_kept() {
        let mut result = searched(MATE - 3);
        take_proven(&mut result, proven(true, 9));
        assert_eq!(result.best, Some(mv(0, 1)));
        assert_eq!(result.score, Score::Mate(2));
    }

    #[test]
    fn a_proved_loss_keeps_the_search_move_and_reports_the_loss() {
        let mut result = searched(-20);
        take_proven(&mut result, proven(false, 8));
        assert_eq!(result.best, Some(mv(0, 1)));
        assert_eq!(result.score, Score::Mate(-4));
        // A nearer loss the search saw is kept.
        let mut result = searched(-(MATE - 4));
        take_proven(&mut result, proven(false, 8));
        assert_eq!(result.score, Score::Mate(-2));
    }
}
