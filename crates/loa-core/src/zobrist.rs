//! Zobrist keys, made at compile time from a fixed seed so hashes are the same in every build.

use crate::{Color, Square};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

struct Keys {
    pieces: [[u64; 64]; 2],
    side: u64,
    /// AmbiLOA's second kind of each side (`b`, `w`).
    second_kind: [[u64; 64]; 2],
    /// Which of AmbiLOA's four kinds is due.
    kind_due: [u64; 4],
    /// Parachute's reserve of each side, by count.
    reserve: [[u64; 13]; 2],
    /// Fields of Action's numbered pieces: colour, number 1-12, square.
    numbered: [[[u64; 64]; 13]; 2],
    /// One per variant, so the positions of different variants never share a key.
    variant: [u64; 8],
}

const fn make_keys() -> Keys {
    let mut state = 0x4C4F_415F_5A4F_4252; // "LOA_ZOBR"
    let mut keys = Keys {
        pieces: [[0; 64]; 2],
        side: 0,
        second_kind: [[0; 64]; 2],
        kind_due: [0; 4],
        reserve: [[0; 13]; 2],
        numbered: [[[0; 64]; 13]; 2],
        variant: [0; 8],
    };
    // The first keys are drawn in the order of the first version, so standard hashes stay.
    let mut color = 0;
    while color < 2 {
        let mut sq = 0;
        while sq < 64 {
            let (next, key) = splitmix64(state);
            state = next;
            keys.pieces[color][sq] = key;
            sq += 1;
        }
        color += 1;
    }
    let (next, side) = splitmix64(state);
    state = next;
    keys.side = side;
    let mut color = 0;
    while color < 2 {
        let mut sq = 0;
        while sq < 64 {
            let (next, key) = splitmix64(state);
            state = next;
            keys.second_kind[color][sq] = key;
            sq += 1;
        }
        let mut count = 0;
        while count < 13 {
            let (next, key) = splitmix64(state);
            state = next;
            keys.reserve[color][count] = key;
            count += 1;
        }
        let mut number = 1;
        while number < 13 {
            let mut sq = 0;
            while sq < 64 {
                let (next, key) = splitmix64(state);
                state = next;
                keys.numbered[color][number][sq] = key;
                sq += 1;
            }
            number += 1;
        }
        color += 1;
    }
    let mut i = 0;
    while i < 4 {
        let (next, key) = splitmix64(state);
        state = next;
        keys.kind_due[i] = key;
        i += 1;
    }
    let mut i = 0;
    while i < 8 {
        let (next, key) = splitmix64(state);
        state = next;
        keys.variant[i] = key;
        i += 1;
    }
    keys
}

const KEYS: Keys = make_keys();

/// The key of a piece of `color` on `sq`.
#[inline]
pub const fn piece_key(color: Color, sq: Square) -> u64 {
    KEYS.pieces[color.index()][sq.index()]
}

/// Xored in when White is to move.
pub const WHITE_TO_MOVE: u64 = KEYS.side;

/// The key of a piece of AmbiLOA's second kind of `color` (`b`, `w`) on `sq`.
#[inline]
pub const fn second_kind_key(color: Color, sq: Square) -> u64 {
    KEYS.second_kind[color.index()][sq.index()]
}

/// The key of AmbiLOA's kind due, 0 to 3 (`B`, `W`, `b`, `w`).
#[inline]
pub const fn kind_due_key(kind: usize) -> u64 {
    KEYS.kind_due[kind]
}

/// The key of `count` pieces in `color`'s reserve (Parachute).
#[inline]
pub const fn reserve_key(color: Color, count: u8) -> u64 {
    KEYS.reserve[color.index()][count as usize]
}

/// The key of `color`'s piece number `number` (1 to 12) on `sq` (Fields of Action).
#[inline]
pub const fn numbered_key(color: Color, number: u8, sq: Square) -> u64 {
    KEYS.numbered[color.index()][number as usize][sq.index()]
}

/// The key that sets a variant's positions apart, by the variant's index.
#[inline]
pub const fn variant_key(index: usize) -> u64 {
    KEYS.variant[index]
}
