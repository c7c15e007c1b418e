//! The solver beside the alpha-beta search: it tries to prove the root while the search
//! runs, and what it proves (with a proof written out) becomes the search's
//! answer: a proved win is played at once and reported as a connection score, a proved
//! loss is reported as one while the search picks the move that resists longest.

use super::table::Table;
use super::{Solution, SolveLimits, Solver, Verdict};
use crate::score::MATE;
use loa_core::{Color, GameState, Move, RuleSet, VariantPosition};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The solver's table beside a search, in megabytes (the system zeroes its pages as
/// they are touched, so a short solve pays only for what it used).
const TABLE_MB: usize = 64;

/// A result the solver proved at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proven {
    /// `true`: the side to move wins; `false`: it loses.
    pub win: bool,
    /// The winning move of a win.
    pub best: Option<Move>,
    /// The proof's longest line in plies: the win comes within it whatever the loser
    /// does (an upper bound: df-pn proves a win, not the shortest one).
    pub plies: u32,
}

impl Proven {
    /// The result as a search score for the side to move.
    pub fn score(&self) -> i32 {
        let distance = MATE - self.plies as i32;
        if self.win {
            distance
        } else {
            -distance
        }
    }
}

/// Tries to prove `root` (only `only`'s win, where given) until `stop`; sets `halt` when
/// it proves a win, so that the search ends and the win is played. The proof is written
/// out (which checks that every line of it holds on its own), but not checked again with
/// the rules as `loa solve` does: that would cost the engine time it plays against.
pub fn prove<P: GameState + Copy + Into<VariantPosition>>(
    root: &P,
    history: &[u64],
    rules: RuleSet,
    only: Option<Color>,
    stop: &AtomicBool,
    halt: &AtomicBool,
) -> Option<Proven> {
    let mut solver = Solver::new(TABLE_MB, rules, SolveLimits::default(), stop).ok()?;
    if let Some(side) = only {
        solver.prove_only(side);
    }
    proven(solver.solve_as(root, history), halt)
}

/// The solver's table kept from one search to the next for one side's wins. On a clock
/// the solver tries the side to move's win alone, the same side move after move, and
/// what it proved or learnt of the positions the game goes on to still holds there
/// (a proof that rests on the line it was found on is proved again when written out).
pub struct Memory {
    table: Arc<Table>,
    side: Color,
    rules: RuleSet,
}

impl Memory {
    /// An empty table for `side`'s wins under `rules`; `None` when the memory cannot be had.
    pub fn new(side: Color, rules: RuleSet) -> Option<Memory> {
        let table = Arc::new(Table::new(TABLE_MB).ok()?);
        Some(Memory { table, side, rules })
    }

    /// Whether it holds what was learnt of `side`'s wins under `rules`.
    pub fn serves(&self, side: Color, rules: RuleSet) -> bool {
        self.side == side && self.rules == rules
    }

    /// [`prove`] of the side's win alone, going on from what earlier solves left.
    pub fn prove<P: GameState + Copy + Into<VariantPosition>>(
        &self,
        root: &P,
        history: &[u64],
        stop: &AtomicBool,
        halt: &AtomicBool,
    ) -> Option<Proven> {
        let limits = SolveLimits::default();
        let mut solver = Solver::over(Arc::clone(&self.table), true, self.rules, limits, stop);
        solver.prove_only(self.side);
        proven(solver.solve_as(root, history), halt)
    }
}

/// What a solve proved at the root, with `halt` set on a win.
fn proven(solution: Solution, halt: &AtomicBool) -> Option<Proven> {
    let win = match solution.verdict {
        Verdict::Win => true,
        Verdict::Loss => false,
        Verdict::Draw | Verdict::Unknown => return None,
    };
    let proof = solution.proof?;
    let plies = proof.longest_line()?;
    if win {
        halt.store(true, Ordering::Relaxed);
    }
    Some(Proven {
        win,
        best: solution.best,
        plies: u32::try_from(plies)
            .unwrap_or(u32::MAX)
            .min(MATE as u32 - 1),
    })
}
