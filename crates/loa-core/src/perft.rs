//! Perft: the number of move sequences of a given length. Every sequence is counted, games
//! are not cut off at their end, and a forced pass counts as one move.

use crate::{Move, Position};

/// The number of legal move sequences of `depth` plies from `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => pos
            .legal_moves()
            .iter()
            .map(|&mv| perft(&pos.after(mv), depth - 1))
            .sum(),
    }
}

/// Perft split by first move, in move-generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    assert!(depth >= 1, "divide needs a depth of at least 1");
    pos.legal_moves()
        .iter()
        .map(|&mv| (mv, perft(&pos.after(mv), depth - 1)))
        .collect()
}
