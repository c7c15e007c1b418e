//! Zobrist keys, made at compile time from a fixed seed so hashes are the same in every build.

use crate::{Color, Square};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn make_keys() -> ([[u64; 64]; 2], u64) {
    let mut pieces = [[0u64; 64]; 2];
    let mut state = 0x4C4F_415F_5A4F_4252; // "LOA_ZOBR"
    let mut color = 0;
    while color < 2 {
        let mut sq = 0;
        while sq < 64 {
            let (next, key) = splitmix64(state);
            state = next;
            pieces[color][sq] = key;
            sq += 1;
        }
        color += 1;
    }
    let (_, side) = splitmix64(state);
    (pieces, side)
}

const KEYS: ([[u64; 64]; 2], u64) = make_keys();

/// The key of a piece of `color` on `sq`.
#[inline]
pub const fn piece_key(color: Color, sq: Square) -> u64 {
    KEYS.0[color.index()][sq.index()]
}

/// Xored in when White is to move.
pub const WHITE_TO_MOVE: u64 = KEYS.1;
