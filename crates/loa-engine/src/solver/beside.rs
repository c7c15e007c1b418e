//! The solver beside the alpha-beta search: it tries to prove the root while the search
//! runs, and what it proves (with a proof written out) becomes the search's
//! answer: a proved win is played at once and reported as a connection score, a proved
//! loss is reported as one while the search picks the move that resists longest.

use super::{SolveLimits, Solver, Verdict};
use crate::score::MATE;
use loa_core::{Color, GameState, Move, RuleSet, VariantPosition};
use std::sync::atomic::{AtomicBool, Ordering};

/// The solver's table beside a search, in megabytes: made for each search (the system
/// zeroes its pages as they are touched, so an early stop pays only for what was used).
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
    let solution = solver.solve_as(root, history);
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
