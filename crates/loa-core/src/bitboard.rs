use crate::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares, one bit per square (`a1` is bit 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

const NOT_FILE_A: u64 = !Bitboard::FILE_A.0;
const NOT_FILE_H: u64 = !Bitboard::FILE_H.0;

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(!0);
    /// The a-file of the 8x8 grid.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// The h-file of the 8x8 grid.
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);

    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(sq.bit())
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }

    #[inline]
    pub fn first(self) -> Option<Square> {
        (self.0 != 0).then(|| Square::new(self.0.trailing_zeros() as u8))
    }

    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | sq.bit())
    }

    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !sq.bit())
    }

    /// The set plus every square next to one of its squares (8-neighbourhood).
    #[inline]
    pub const fn dilate(self) -> Bitboard {
        let b = self.0;
        let horizontal = b | ((b << 1) & NOT_FILE_A) | ((b >> 1) & NOT_FILE_H);
        Bitboard(horizontal | (horizontal << 8) | (horizontal >> 8))
    }

    /// The squares next to a square of the set, the set itself excluded.
    #[inline]
    pub const fn neighbours(self) -> Bitboard {
        Bitboard(self.dilate().0 & !self.0)
    }

    /// Whether the squares form one group under 8-connectivity. The empty set and a
    /// single square count as connected.
    #[inline]
    pub fn is_connected(self) -> bool {
        let all = self.0;
        let mut group = all & all.wrapping_neg();
        loop {
            let grown = Bitboard(group).dilate().0 & all;
            if grown == group {
                return group == all;
            }
            group = grown;
        }
    }

    /// The 8-connected groups of the set, in order of their lowest square.
    pub fn groups(self) -> impl Iterator<Item = Bitboard> {
        let mut rest = self.0;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let mut group = rest & rest.wrapping_neg();
            loop {
                let grown = Bitboard(group).dilate().0 & rest;
                if grown == group {
                    break;
                }
                group = grown;
            }
            rest &= !group;
            Some(Bitboard(group))
        })
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

macro_rules! bit_ops {
    ($($trait:ident $fn:ident $op:tt $assign_trait:ident $assign_fn:ident),*) => {$(
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    )*};
}

bit_ops!(
    BitAnd bitand & BitAndAssign bitand_assign,
    BitOr bitor | BitOrAssign bitor_assign,
    BitXor bitxor ^ BitXorAssign bitxor_assign
);

impl Not for Bitboard {
    type Output = Bitboard;

    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bb(names: &[&str]) -> Bitboard {
        names
            .iter()
            .fold(Bitboard::EMPTY, |b, n| b.with(Square::parse(n).unwrap()))
    }

    #[test]
    fn dilate_does_not_wrap_around_the_edges() {
        assert_eq!(bb(&["a1"]).dilate(), bb(&["a1", "b1", "a2", "b2"]));
        assert_eq!(
            bb(&["h4"]).dilate(),
            bb(&["g3", "h3", "g4", "h4", "g5", "h5"])
        );
        assert_eq!(bb(&["h8"]).neighbours(), bb(&["g7", "h7", "g8"]));
    }

    #[test]
    fn connectivity_is_eight_way() {
        assert!(bb(&["a1", "b2", "c3", "c4"]).is_connected());
        assert!(!bb(&["a1", "c1"]).is_connected());
        assert!(!bb(&["h1", "a2"]).is_connected(), "no wrap from h1 to a2");
        assert!(bb(&["e5"]).is_connected());
        assert_eq!(bb(&["a1", "c1", "b2", "h8", "g6"]).groups().count(), 3);
    }

    #[test]
    fn iterates_squares_in_order() {
        let squares: Vec<String> = bb(&["h8", "a1", "d4"]).map(|s| s.to_string()).collect();
        assert_eq!(squares, ["a1", "d4", "h8"]);
    }
}
