//! Perft: the number of move sequences of a given length. Every sequence is counted, games
//! are not cut off at their end, and a forced pass counts as one move.

use crate::{GameState, Move};
use std::sync::atomic::{AtomicBool, Ordering};

/// Below this depth a count is too quick to be worth interrupting.
const INTERRUPTIBLE_DEPTH: u32 = 4;

/// The number of legal move sequences of `depth` plies from `pos`.
pub fn perft<P: GameState>(pos: &P, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            let mut total = 0;
            pos.for_each_move(|mv| total += perft(&pos.after(mv), depth - 1));
            total
        }
    }
}

/// Perft split by first move, in move-generation order.
pub fn divide<P: GameState>(pos: &P, depth: u32) -> Vec<(Move, u64)> {
    assert!(depth >= 1, "divide needs a depth of at least 1");
    pos.moves()
        .into_iter()
        .map(|mv| (mv, perft(&pos.after(mv), depth - 1)))
        .collect()
}

/// [`perft`] that gives up, with `None`, soon after `stop` is set.
pub fn perft_until<P: GameState>(pos: &P, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth < INTERRUPTIBLE_DEPTH {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    pos.moves()
        .into_iter()
        .map(|mv| perft_until(&pos.after(mv), depth - 1, stop))
        .sum()
}

/// [`divide`] that gives up, with `None`, soon after `stop` is set.
pub fn divide_until<P: GameState>(
    pos: &P,
    depth: u32,
    stop: &AtomicBool,
) -> Option<Vec<(Move, u64)>> {
    assert!(depth >= 1, "divide needs a depth of at least 1");
    pos.moves()
        .into_iter()
        .map(|mv| Some((mv, perft_until(&pos.after(mv), depth - 1, stop)?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    #[test]
    fn interruptible_counts_agree_and_stop() {
        let start = Position::startpos();
        let go_on = AtomicBool::new(false);
        assert_eq!(perft_until(&start, 4, &go_on), Some(1_563_208));
        let split = divide_until(&start, 4, &go_on).unwrap();
        assert_eq!(split, divide(&start, 4));
        let stopped = AtomicBool::new(true);
        assert_eq!(perft_until(&start, 9, &stopped), None);
        assert_eq!(divide_until(&start, 9, &stopped), None);
    }
}
