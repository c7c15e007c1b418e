//! Past the horizon: a connection the side to move can make at once is a win, and only
//! captures that make or break a connection are searched (after Winands' quad heuristic):
//! the mover's pieces form fewer groups, or the captured side's more.

use super::searcher::Searcher;
use super::MAX_PLY;
use crate::score::{MATE, MATE_BOUND};
use crate::Searchable;
use loa_core::MoveList;

impl Searcher<'_> {
    /// Past the horizon, only the variant's quiescence moves are searched (for the
    /// standard game, captures that make or break a connection). Captures cannot repeat
    /// a position.
    pub fn quiesce<P: Searchable>(
        &mut self,
        pos: &P,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        left: u32,
    ) -> i32 {
        let stand = self.leaf(pos, ply);
        if stand >= beta || left == 0 || ply >= MAX_PLY || stand.abs() >= MATE_BOUND {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let mut captures = MoveList::new();
        pos.quiescence_moves(&mut captures);
        for &mv in captures.iter() {
            let child = pos.after(mv);
            self.nodes += 1;
            self.check_limits();
            if self.stopped {
                return 0;
            }
            self.seldepth = self.seldepth.max(ply as u32 + 1);
            let score = match self.end_after(&child, mv, ply + 1) {
                Some(end) => -end,
                None => -self.quiesce(&child, -beta, -alpha, ply + 1, left - 1),
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The value of a node at the horizon: a win the side to move can make at once is a
    /// win, not an evaluation; otherwise the static evaluation.
    fn leaf<P: Searchable>(&mut self, pos: &P, ply: usize) -> i32 {
        if pos.wins_in_one(self.rules) {
            return MATE - ply as i32 - 1;
        }
        self.evaluate(pos)
    }
}
