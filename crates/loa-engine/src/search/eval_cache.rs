//! A small cache of static evaluations: the same leaves recur through transpositions and
//! the searches of iterative deepening.

use crate::eval::evaluate;
use loa_core::Position;

const SLOTS: usize = 1 << 16;

pub(super) struct EvalCache(Vec<(u64, i32)>);

impl EvalCache {
    pub fn new() -> EvalCache {
        EvalCache(vec![(0, 0); SLOTS])
    }

    /// The evaluation of `pos` for the side to move.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let key = pos.hash();
        let slot = &mut self.0[(key as usize) & (SLOTS - 1)];
        if slot.0 == key {
            return slot.1;
        }
        let score = evaluate(pos);
        *slot = (key, score);
        score
    }
}
