//! The eight symmetries of the square board. The rules do not change under any of them
//! (a line's pieces, blocking and 8-neighbour connection look the same mirrored or
//! turned), so a position and its images have the same value: where a position is its
//! own image, a solver need search only one of a move and its images.

use crate::{Bitboard, BoardSize, Move, Square};

/// The board upside down: rank `r` to rank `n - 1 - r`.
#[inline]
fn flip_ranks(bits: u64, size: BoardSize) -> u64 {
    bits.swap_bytes() >> (8 * (8 - u32::from(size.side())))
}

/// The board left to right: file `f` to file `n - 1 - f`.
#[inline]
fn flip_files(bits: u64, size: BoardSize) -> u64 {
    bits.reverse_bits().swap_bytes() >> (8 - u32::from(size.side()))
}

/// Ranks and files exchanged (the a1 diagonal stays); a small board stays in its corner.
#[inline]
fn transpose(mut bits: u64) -> u64 {
    // Three exchanges of blocks across the diagonal: 4x4, 2x2, then single squares.
    let swap = |bits: u64, mask: u64, shift: u32| {
        let t = mask & (bits ^ (bits << shift));
        bits ^ t ^ (t >> shift)
    };
    bits = swap(bits, 0x0f0f_0f0f_0000_0000, 28);
    bits = swap(bits, 0x3333_0000_3333_0000, 14);
    swap(bits, 0x5500_5500_5500_5500, 7)
}

/// The `i`-th image of a set of squares, `i` from 0 to 7: as it is, upside down, left to
/// right, turned half round, and each of these with ranks and files exchanged.
fn image(bits: u64, i: usize, size: BoardSize) -> u64 {
    let ranks = if i & 1 != 0 {
        flip_ranks(bits, size)
    } else {
        bits
    };
    let turned = if i & 2 != 0 {
        flip_files(ranks, size)
    } else {
        ranks
    };
    if i & 4 != 0 {
        transpose(turned)
    } else {
        turned
    }
}

/// The eight images of a set of squares, in the order of [`image`].
pub fn images(squares: Bitboard, size: BoardSize) -> [Bitboard; 8] {
    std::array::from_fn(|i| Bitboard(image(squares.0, i, size)))
}

/// The symmetries that map `black` and `white` onto themselves, as bits: bit `i` for the
/// `i`-th image of [`images`], the first (the identity) never set.
pub fn fixing(black: Bitboard, white: Bitboard, size: BoardSize) -> u8 {
    let (black_images, white_images) = (images(black, size), images(white, size));
    (1..8)
        .filter(|&i| black_images[i] == black && white_images[i] == white)
        .fold(0, |set, i| set | 1 << i)
}

/// A square's `i`-th image.
pub fn square_image(square: Square, i: usize, size: BoardSize) -> Square {
    Square::new(image(1 << square.index(), i, size).trailing_zeros() as u8)
}

/// A move's `i`-th image: the same move on the board seen through the symmetry.
pub fn move_image(mv: Move, i: usize, size: BoardSize) -> Move {
    if mv.is_pass() {
        return mv;
    }
    let (from, to) = (
        square_image(mv.from(), i, size),
        square_image(mv.to(), i, size),
    );
    Move::new(from, to, mv.is_capture())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{perft::perft, Color, GameState, Position, Square};

    fn square(name: &str) -> Bitboard {
        Bitboard(1 << Square::parse(name).unwrap().index())
    }

    #[test]
    fn a_square_has_its_eight_images_on_every_board() {
        let cases = [
            (
                BoardSize::Six,
                "b1",
                ["b1", "b6", "e1", "e6", "a2", "f2", "a5", "f5"],
            ),
            (
                BoardSize::Seven,
                "c2",
                ["c2", "c6", "e2", "e6", "b3", "f3", "b5", "f5"],
            ),
            (
                BoardSize::Eight,
                "a3",
                ["a3", "a6", "h3", "h6", "c1", "f1", "c8", "f8"],
            ),
        ];
        for (size, from, expected) in cases {
            assert_eq!(
                images(square(from), size),
                expected.map(square),
                "{from} {size:?}"
            );
        }
    }

    fn image_of(pos: &Position, i: usize) -> Position {
        let side = |c| images(pos.pieces(c), pos.size())[i];
        let (black, white) = (side(Color::Black), side(Color::White));
        Position::from_parts(black, white, pos.side_to_move(), pos.size()).unwrap()
    }

    #[test]
    fn the_rules_are_the_same_on_every_image() {
        for text in [
            "1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b",
            "1bwbb1/2w2w/5w/w1wb2/w4w/b3b1 b",
            "3wbw2/2bb4/5w2/2b2w2/2b5/3b3b/8/3bb1b1 w",
            "b5w/1bw4/2b4/3w3/4b2/5w1/6b w",
        ] {
            let pos: Position = text.parse().unwrap();
            let tree = perft(&pos, 2);
            for i in 0..8 {
                let image = image_of(&pos, i);
                assert_eq!(perft(&image, 2), tree, "{text}: image {i} {image}");
                // Each move's image is the image's move, to the image of its position.
                for mv in GameState::moves(&pos) {
                    let seen = move_image(mv, i, pos.size());
                    assert_eq!(
                        image.after(seen),
                        image_of(&pos.after(mv), i),
                        "{text}: {mv} {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_symmetries_a_position_keeps() {
        let cases = [
            // The starts: upside down, left to right, and both.
            ("1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b", 0b1110),
            ("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b", 0b1110),
            ("1bwbb1/2w2w/5w/w1wb2/w4w/b3b1 b", 0),
            // Every symmetry: the corners and the centre.
            ("b4b/6/2ww2/2ww2/6/b4b w", 0b1111_1110),
            // The a1 diagonal only (ranks and files exchanged).
            ("6w/5b1/4b2/3w3/2w4/1b5/b6 b", 0b1_0000),
        ];
        for (text, expected) in cases {
            let pos: Position = text.parse().unwrap();
            assert_eq!(pos.symmetries(), expected, "{text}");
        }
    }
}
