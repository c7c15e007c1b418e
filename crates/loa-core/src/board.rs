//! Board sizes: 6x6, 7x7 and 8x8, all in the lower-left corner of the 8x8 grid.

use crate::Bitboard;
use std::fmt;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;

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
