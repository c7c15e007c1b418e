//! The history table: how often a move (by side, from, to) caused a cutoff, so that quiet
//! moves that worked elsewhere are tried early.

use loa_core::{Color, Move};

/// Values stay within this, below the killers' ordering scores.
const HISTORY_MAX: i32 = 1 << 24;

#[derive(Clone)]
pub(super) struct History([[[i32; 64]; 64]; 2]);

impl History {
    pub fn new() -> History {
        History([[[0; 64]; 64]; 2])
    }

    #[inline]
    pub fn get(&self, side: Color, mv: Move) -> i32 {
        self.0[side.index()][mv.from().index()][mv.to().index()]
    }

    /// `best` caused a cutoff at `depth`: it gains, and the moves tried before it lose.
    pub fn reward(&mut self, side: Color, best: Move, depth: i32, tried: &[Move]) {
        let bonus = depth * depth;
        let table = &mut self.0[side.index()];
        let h = &mut table[best.from().index()][best.to().index()];
        *h = (*h + bonus).min(HISTORY_MAX);
        for &other in tried.iter().filter(|m| !m.is_pass()) {
            let h = &mut table[other.from().index()][other.to().index()];
            *h = (*h - bonus).max(-HISTORY_MAX);
        }
    }

    /// Older results count for less in a new search.
    pub fn age(&mut self) {
        for h in self.0.iter_mut().flatten().flatten() {
            *h /= 8;
        }
    }
}
