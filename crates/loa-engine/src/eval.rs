//! Static evaluation, from the side to move's point of view, in centipawn-like units.
//!
//! The terms follow the published LOA evaluations (MIA): pieces gathered around their
//! centre of mass (concentration), pieces near the middle of the board (centralisation),
//! and few separate groups.

use loa_core::{Bitboard, Color, Position};

/// A plain centralisation table for the 8x8 grid: the middle is worth most.
const CENTRE: [i32; 64] = {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let df = if f < 4 { 3 - f } else { f - 4 };
        let dr = if r < 4 { 3 - r } else { r - 4 };
        let d = if df > dr { df } else { dr };
        table[sq] = 3 - d;
        sq += 1;
    }
    table
};

/// The smallest possible sum of distances to the centre of mass for `n` pieces: the
/// pieces packed in rings around it.
const fn min_distance_sum(n: u32) -> i32 {
    let mut sum = 0;
    let mut placed = 1;
    let mut ring = 1;
    while placed < n {
        let in_ring = 8 * ring;
        let take = if n - placed < in_ring {
            n - placed
        } else {
            in_ring
        };
        sum += (take * ring) as i32;
        placed += take;
        ring += 1;
    }
    sum
}

/// The evaluation terms of one side; larger is better for that side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideTerms {
    pub concentration: i32,
    pub centralisation: i32,
    pub groups: i32,
}

impl SideTerms {
    pub fn of(pieces: Bitboard, board_len: u8) -> SideTerms {
        let n = pieces.count();
        if n == 0 {
            return SideTerms::default();
        }
        let (mut fsum, mut rsum, mut centre) = (0i32, 0i32, 0i32);
        for sq in pieces {
            fsum += i32::from(sq.file());
            rsum += i32::from(sq.rank());
            centre += CENTRE[sq.index()];
        }
        let n_i = n as i32;
        // The centre of mass rounded to the nearest square.
        let (cf, cr) = ((2 * fsum + n_i) / (2 * n_i), (2 * rsum + n_i) / (2 * n_i));
        let spread: i32 = pieces
            .map(|sq| {
                (i32::from(sq.file()) - cf)
                    .abs()
                    .max((i32::from(sq.rank()) - cr).abs())
            })
            .sum();
        let excess = spread - min_distance_sum(n);
        // Smaller boards have a smaller middle: the table is for 8x8, shift it.
        let centralisation = if board_len == 8 { centre } else { 0 };
        SideTerms {
            concentration: -excess * 100 / n_i.max(1),
            centralisation,
            groups: pieces.groups().count() as i32,
        }
    }

    fn score(self) -> i32 {
        self.concentration * 2 + self.centralisation * 4 - self.groups * 12
    }
}

/// The evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let len = pos.size().side();
    let ours = SideTerms::of(pos.pieces(us), len).score();
    let theirs = SideTerms::of(pos.pieces(!us), len).score();
    const TEMPO: i32 = 10;
    ours - theirs + TEMPO
}

/// The terms of both sides, for display.
pub fn terms(pos: &Position) -> [(Color, SideTerms); 2] {
    let len = pos.size().side();
    Color::ALL.map(|c| (c, SideTerms::of(pos.pieces(c), len)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimum_spread() {
        assert_eq!(min_distance_sum(1), 0);
        assert_eq!(min_distance_sum(9), 8);
        assert_eq!(min_distance_sum(12), 8 + 3 * 2);
    }

    #[test]
    fn start_is_balanced_apart_from_tempo() {
        let pos = Position::startpos();
        let [(_, b), (_, w)] = terms(&pos);
        assert_eq!(b, w);
        assert_eq!(evaluate(&pos), 10);
    }

    #[test]
    fn gathered_pieces_score_higher() {
        // Black in one clump, White scattered: Black is better whoever moves.
        let pos: Position = "w6w/8/8/3bb3/3bb3/8/8/w6w b".parse().unwrap();
        assert!(evaluate(&pos) > 100, "{}", evaluate(&pos));
        let pos: Position = "w6w/8/8/3bb3/3bb3/8/8/w6w w".parse().unwrap();
        assert!(evaluate(&pos) < -100, "{}", evaluate(&pos));
    }
}
