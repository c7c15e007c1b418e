//! The shape of a set of pieces and of the board: 2x2 windows (quads), the Euler number
//! (groups minus holes) they give, and the board's edge. The evaluation and the search
//! both read them.

use crate::Bitboard;

/// What the 2x2 windows over a set of pieces say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quads {
    /// Windows holding three or four pieces.
    pub solid: i32,
    /// Four times the Euler number under 8-connectivity: groups minus holes, from
    /// (Q1 - Q3 - 2 Qd), after Gray's quad counts.
    pub euler4: i32,
}

/// The pieces on a 10x10 grid with an empty border (bit = 10 * (rank + 1) + file + 1), so
/// every 2x2 window, border windows included, is four shifts of the same word.
#[inline]
fn padded(pieces: Bitboard) -> u128 {
    let mut grid = 0u128;
    for rank in 0..8 {
        let row = (pieces.0 >> (8 * rank)) & 0xFF;
        grid |= u128::from(row) << (10 * (rank + 1) + 1);
    }
    grid
}

/// Counts the 2x2 windows over `pieces`, bit-parallel.
#[inline]
pub fn quads(pieces: Bitboard) -> Quads {
    let a = padded(pieces);
    let (b, c, d) = (a >> 1, a >> 10, a >> 11);
    // Bit-sliced sum of four bits per window.
    let (s1, c1) = (a ^ b, a & b);
    let (s2, c2) = (c ^ d, c & d);
    let bit0 = s1 ^ s2;
    let carry = s1 & s2;
    let bit1 = c1 ^ c2 ^ carry;
    let bit2 = (c1 & c2) | (carry & (c1 ^ c2));
    let one = bit0 & !bit1 & !bit2;
    let three = bit0 & bit1;
    let four = bit2;
    let diagonal = (a & d & !b & !c) | (b & c & !a & !d);
    Quads {
        solid: (three | four).count_ones() as i32,
        euler4: one.count_ones() as i32
            - three.count_ones() as i32
            - 2 * diagonal.count_ones() as i32,
    }
}

/// Four times the Euler number of a set of pieces: groups minus holes.
#[inline]
pub fn euler4(pieces: Bitboard) -> i32 {
    quads(pieces).euler4
}

/// The squares of the board whose eight neighbours all lie on the board.
#[inline]
pub fn interior(board: Bitboard) -> Bitboard {
    let b = board.0;
    Bitboard(
        b & (b << 8)
            & (b >> 8)
            & ((b << 1) & !Bitboard::FILE_A.0)
            & ((b >> 1) & !Bitboard::FILE_H.0),
    )
}

/// The squares of the board with a neighbour off the board.
#[inline]
pub fn edge_squares(board: Bitboard) -> Bitboard {
    board & !interior(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BoardSize, Color, Position};

    fn black(text: &str) -> Bitboard {
        text.parse::<Position>().unwrap().pieces(Color::Black)
    }

    #[test]
    fn quads_count_windows_and_euler() {
        // Black's pieces; (solid windows, 4 x Euler number).
        let cases = [
            // One lone piece: four windows with one piece, Euler number 1.
            ("8/8/8/3b4/8/8/8/7w w", (0, 4)),
            // A 2x2 block: one solid window, Euler number 1.
            ("8/8/8/3bb3/3bb3/8/8/7w w", (1, 4)),
            // Two pieces touching diagonally: one diagonal window, Euler 1.
            ("8/8/8/3b4/4b3/8/8/7w w", (0, 4)),
            // Two separate pieces: Euler 2.
            ("8/8/8/b6b/8/8/8/7w w", (0, 8)),
            // Corner pieces use the border windows too.
            ("b6b/8/8/8/3w4/8/8/b6b w", (0, 16)),
            // A ring around a hole: one group, one hole, Euler 0; its four inner corner
            // windows hold three pieces each.
            ("8/8/8/2bbb3/2b1b3/2bbb3/8/7w w", (4, 0)),
        ];
        for (text, (solid, euler4)) in cases {
            assert_eq!(quads(black(text)), Quads { solid, euler4 }, "{text}");
        }
    }

    #[test]
    fn the_edge_follows_the_board() {
        let edge = |size: BoardSize| edge_squares(size.mask()).0;
        assert_eq!(edge(BoardSize::Eight), 0xFF81_8181_8181_81FF);
        // 6x6: ranks 1 and 6 (a1-f1, a6-f6) and files a and f between them.
        assert_eq!(edge(BoardSize::Six), 0x3F21_2121_213F);
        assert_eq!(interior(BoardSize::Seven.mask()).count(), 25);
    }
}
