//! Move ordering: the table's move first, then captures, the killers, and the quiet moves
//! by history; picked one at a time, best first.

use super::history::History;
use super::MAX_PLY;
use loa_core::{Color, Move};

/// Two quiet moves per ply that caused cutoffs in sibling nodes.
pub(super) struct Killers([[Option<Move>; 2]; MAX_PLY + 1]);

impl Killers {
    pub fn new() -> Killers {
        Killers([[None; 2]; MAX_PLY + 1])
    }

    #[inline]
    pub fn contains(&self, ply: usize, mv: Move) -> bool {
        self.0[ply].contains(&Some(mv))
    }

    /// A quiet move caused a cutoff at `ply`.
    pub fn store(&mut self, ply: usize, mv: Move) {
        if self.0[ply][0] != Some(mv) {
            self.0[ply][1] = self.0[ply][0];
            self.0[ply][0] = Some(mv);
        }
    }
}

/// How early to try `mv`: higher first.
#[inline]
pub(super) fn order_score(
    mv: Move,
    side: Color,
    tt_move: Option<Move>,
    killers: &Killers,
    ply: usize,
    history: &History,
) -> i32 {
    if Some(mv) == tt_move {
        return 1 << 30;
    }
    if mv.is_pass() {
        return 0;
    }
    let history = history.get(side, mv);
    if mv.is_capture() {
        (1 << 28) + history
    } else if killers.0[ply][0] == Some(mv) {
        (1 << 27) + 1
    } else if killers.0[ply][1] == Some(mv) {
        1 << 27
    } else {
        history
    }
}

/// Brings the best of `moves[i..]` (by `scores`) to `i`: a selection sort done one step
/// at a time, since a cutoff often comes after the first few moves.
#[inline]
pub(super) fn pick_next(moves: &mut [Move], scores: &mut [i32], i: usize) {
    let scores = &mut scores[..moves.len()];
    // The first of the best, as a plain selection sort would take it.
    let (mut top, mut best) = (i, scores[i]);
    for (j, &score) in scores.iter().enumerate().skip(i + 1) {
        if score > best {
            (top, best) = (j, score);
        }
    }
    moves.swap(i, top);
    scores.swap(i, top);
}
