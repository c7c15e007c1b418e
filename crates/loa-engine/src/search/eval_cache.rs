//! A small cache of static evaluations: the same leaves recur through transpositions and
//! the searches of iterative deepening.

use crate::Searchable;

const SLOTS: usize = 1 << 16;

pub(super) struct EvalCache(Vec<(u64, i32)>);

impl EvalCache {
    pub fn new() -> EvalCache {
        EvalCache(vec![(0, 0); SLOTS])
    }

    /// The evaluation of `pos` for the side to move.
    #[inline]
    pub fn evaluate<P: Searchable>(&mut self, pos: &P) -> i32 {
        let key = pos.key();
        let slot = &mut self.0[(key as usize) & (SLOTS - 1)];
        if slot.0 == key {
            return slot.1;
        }
        let score = pos.evaluate();
        *slot = (key, score);
        score
    }
}
