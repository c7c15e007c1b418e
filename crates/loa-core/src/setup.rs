//! Board sizes and starting arrays.

use crate::{Bitboard, Color, Position, Square};
use std::fmt;
use std::str::FromStr;

/// The side length of the board. Smaller boards occupy the lower-left corner of the
/// 8x8 grid, so squares keep their names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BoardSize {
    Six = 6,
    Seven = 7,
    #[default]
    Eight = 8,
}

impl BoardSize {
    pub const ALL: [BoardSize; 3] = [BoardSize::Six, BoardSize::Seven, BoardSize::Eight];

    pub const fn from_len(len: usize) -> Option<BoardSize> {
        match len {
            6 => Some(BoardSize::Six),
            7 => Some(BoardSize::Seven),
            8 => Some(BoardSize::Eight),
            _ => None,
        }
    }

    #[inline]
    pub const fn side(self) -> u8 {
        self as u8
    }

    /// The squares of the board.
    #[inline]
    pub const fn mask(self) -> Bitboard {
        let n = self as u32;
        let rank = (1u64 << n) - 1;
        let mut mask = 0;
        let mut r = 0;
        while r < n {
            mask |= rank << (8 * r);
            r += 1;
        }
        Bitboard(mask)
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.side(), self.side())
    }
}

/// A starting array of the standard rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Start {
    /// Black on the first and last ranks, White on the first and last files, corners empty.
    #[default]
    Standard,
    /// The same squares with the colours alternating around the board.
    ScrambledEggs,
}

impl Start {
    pub const fn name(self) -> &'static str {
        match self {
            Start::Standard => "standard",
            Start::ScrambledEggs => "scrambled-eggs",
        }
    }

    /// The starting position on a board of the given size, Black to move.
    ///
    /// Scrambled Eggs on 6x6 and 7x7 continues the 8x8 pattern: along the top rank from
    /// the b-file Black, White, ...; down the a-file from the top White, Black, ...;
    /// down the last file Black, White, ...; along rank 1 from the b-file White, Black, ...
    pub fn position(self, size: BoardSize) -> Position {
        let n = size.side();
        let mut pieces = [Bitboard::EMPTY; 2];
        for i in 0..n - 2 {
            // i counts from the b-file rightwards along the edges ranks, and from the top
            // downwards along the edge files.
            let top = Square::from_coords(1 + i, n - 1);
            let bottom = Square::from_coords(1 + i, 0);
            let left = Square::from_coords(0, n - 2 - i);
            let right = Square::from_coords(n - 1, n - 2 - i);
            let (top_c, bottom_c, left_c, right_c) = match self {
                Start::Standard => (Color::Black, Color::Black, Color::White, Color::White),
                Start::ScrambledEggs => {
                    let even = i % 2 == 0;
                    let pick = |first: Color| if even { first } else { !first };
                    (
                        pick(Color::Black),
                        pick(Color::White),
                        pick(Color::White),
                        pick(Color::Black),
                    )
                }
            };
            for (sq, c) in [
                (top, top_c),
                (bottom, bottom_c),
                (left, left_c),
                (right, right_c),
            ] {
                pieces[c.index()] = pieces[c.index()].with(sq);
            }
        }
        Position::from_parts(pieces[0], pieces[1], Color::Black, size)
            .expect("starting arrays have pieces of both colours")
    }
}

impl fmt::Display for Start {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown start '{0}': expected standard or scrambled-eggs")]
pub struct UnknownStart(pub String);

impl FromStr for Start {
    type Err = UnknownStart;

    fn from_str(s: &str) -> Result<Start, UnknownStart> {
        match s.to_ascii_lowercase().as_str() {
            "standard" => Ok(Start::Standard),
            "scrambled-eggs" | "scrambled_eggs" | "scrambledeggs" | "scrambled" => {
                Ok(Start::ScrambledEggs)
            }
            _ => Err(UnknownStart(crate::excerpt(s).into_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starting_arrays_match_the_rule_book() {
        let cases = [
            (
                Start::Standard,
                BoardSize::Eight,
                "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b",
            ),
            (
                Start::ScrambledEggs,
                BoardSize::Eight,
                "1bwbwbw1/w6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 b",
            ),
            (
                Start::Standard,
                BoardSize::Six,
                "1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b",
            ),
            (
                Start::Standard,
                BoardSize::Seven,
                "1bbbbb1/w5w/w5w/w5w/w5w/w5w/1bbbbb1 b",
            ),
            (
                Start::ScrambledEggs,
                BoardSize::Six,
                "1bwbw1/w4b/b4w/w4b/b4w/1wbwb1 b",
            ),
            (
                Start::ScrambledEggs,
                BoardSize::Seven,
                "1bwbwb1/w5b/b5w/w5b/b5w/w5b/1wbwbw1 b",
            ),
        ];
        for (start, size, text) in cases {
            assert_eq!(start.position(size).to_string(), text, "{start} {size}");
        }
    }

    #[test]
    fn piece_counts_are_equal() {
        for size in BoardSize::ALL {
            for start in [Start::Standard, Start::ScrambledEggs] {
                let pos = start.position(size);
                let n = 2 * (size.side() as u32 - 2);
                assert_eq!(pos.pieces(Color::Black).count(), n, "{start} {size}");
                assert_eq!(pos.pieces(Color::White).count(), n, "{start} {size}");
            }
        }
    }

    #[test]
    fn masks() {
        assert_eq!(BoardSize::Eight.mask(), Bitboard::FULL);
        assert_eq!(BoardSize::Six.mask().count(), 36);
        assert!(!BoardSize::Seven
            .mask()
            .contains(Square::parse("h1").unwrap()));
        assert!(BoardSize::Seven
            .mask()
            .contains(Square::parse("g7").unwrap()));
    }
}
