//! Static evaluation, from the side to move's point of view.
//!
//! A linear function of features measured for each side, after the evaluation of MIA
//! (Winands et al.): concentration around the centre of mass, centralisation, where the
//! centre of mass lies, quads (solid 2x2 formations and the Euler number), mobility,
//! connections between neighbouring pieces, uniformity (the area the pieces span), walls
//! (edge pieces hemmed in by enemy pieces), and the side to move. Linear weights make Texel-style tuning direct. (The number of groups, a flood
//! fill per group, added nothing the Euler number does not already say.)

mod terms;
pub mod variants;
pub mod weights;

pub use terms::{measure_all, weight_name, Shape, Taper, Term, PHASES, TERMS};

use loa_core::topology::{interior, quads, Quads};
use loa_core::{Bitboard, BoardSize, Color, Position};

/// How many terms the evaluation has.
pub const TERM_COUNT: usize = TERMS.len();

/// The terms' weights on a crowded and on a sparse board, in the order of `TERMS`, as
/// plain numbers the compiler folds.
const WEIGHTS: [[i32; TERM_COUNT]; 2] = {
    let mut weights = [[0; TERM_COUNT]; 2];
    let mut i = 0;
    while i < TERM_COUNT {
        weights[0][i] = TERMS[i].weight.crowded;
        weights[1][i] = TERMS[i].weight.sparse;
        i += 1;
    }
    weights
};

/// How crowded a board of `size` holding `pieces` is: from 0 (empty) to [`PHASES`] (the
/// start's number of pieces), so that the three sizes share the weights.
#[inline]
pub fn phase(pieces: u32, size: BoardSize) -> i32 {
    let start = 4 * (u32::from(size.side()) - 2);
    (pieces.min(start) * PHASES as u32 / start) as i32
}

/// The phase of `pos`, by the pieces on its board.
#[inline]
pub fn phase_of(pos: &Position) -> i32 {
    phase(pos.occupied().count(), pos.size())
}

/// A 0-3 centralisation value per square of the 8x8 grid.
const CENTRE: [i32; 64] = {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let df = if f < 4 { 3 - f } else { f - 4 };
        let dr = if r < 4 { 3 - r } else { r - 4 };
        table[sq] = 3 - if df > dr { df } else { dr };
        sq += 1;
    }
    table
};

/// The edge squares of the 8x8 grid: moves there count less as mobility.
const EDGE: u64 = 0xFF81_8181_8181_81FF;

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

/// Squares whose file (or rank) index has bit `k` set: sums of coordinates by popcount.
const FILE_BITS: [u64; 3] = [
    0xAAAA_AAAA_AAAA_AAAA,
    0xCCCC_CCCC_CCCC_CCCC,
    0xF0F0_F0F0_F0F0_F0F0,
];
const RANK_BITS: [u64; 3] = [
    0xFF00_FF00_FF00_FF00,
    0xFFFF_0000_FFFF_0000,
    0xFFFF_FFFF_0000_0000,
];

/// Squares with centralisation value at least k (k = 1, 2, 3).
const CENTRE_RINGS: [u64; 3] = {
    let mut rings = [0u64; 3];
    let mut sq = 0;
    while sq < 64 {
        let mut k = 0;
        while k < CENTRE[sq] {
            rings[k as usize] |= 1 << sq;
            k += 1;
        }
        sq += 1;
    }
    rings
};

/// `BOXES[sq][d]`: the squares within Chebyshev distance `d` of `sq`.
const BOXES: [[u64; 8]; 64] = {
    let mut boxes = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut other: i32 = 0;
        while other < 64 {
            let df = (sq % 8) as i32 - (other % 8);
            let dr = (sq / 8) as i32 - (other / 8);
            let df = if df < 0 { -df } else { df };
            let dr = if dr < 0 { -dr } else { dr };
            let d = if df > dr { df } else { dr };
            let mut k = d as usize;
            while k < 8 {
                boxes[sq][k] |= 1u64 << other;
                k += 1;
            }
            other += 1;
        }
        sq += 1;
    }
    boxes
};

const NOT_FILE_A: u64 = !Bitboard::FILE_A.0;
const NOT_FILE_H: u64 = !Bitboard::FILE_H.0;

#[inline]
fn weighted_sum(p: u64, bits: &[u64; 3]) -> i32 {
    ((p & bits[0]).count_ones() + 2 * (p & bits[1]).count_ones() + 4 * (p & bits[2]).count_ones())
        as i32
}

/// Pairs of neighbouring pieces (8-neighbourhood), each pair once.
#[inline]
fn adjacent_pairs(p: u64) -> i32 {
    ((p & (p << 1) & NOT_FILE_A).count_ones()
        + (p & (p << 8)).count_ones()
        + (p & (p << 9) & NOT_FILE_A).count_ones()
        + (p & (p << 7) & NOT_FILE_H).count_ones()) as i32
}

/// Walls: the pieces of `ours` on the board's edge hemmed in by enemy pieces on the line
/// inside. Returns the enemy pieces next to them on the inside, and how many of them
/// have every inside neighbour taken by the enemy.
#[inline]
fn walls(ours: u64, theirs: u64, board: Bitboard) -> (i32, i32) {
    let inside = interior(board).0;
    let mut edge = ours & !inside;
    let (mut blocked, mut walled) = (0, 0);
    while edge != 0 {
        let sq = edge.trailing_zeros() as usize;
        edge &= edge - 1;
        let inward = BOXES[sq][1] & inside;
        blocked += (inward & theirs).count_ones() as i32;
        walled += i32::from(inward & !theirs == 0);
    }
    (blocked, walled)
}

/// What moves onto `targets` are worth for mobility: captures count double and landings
/// on the edge less.
#[inline(always)]
pub fn mobility(targets: Bitboard, theirs: Bitboard) -> i32 {
    let t = targets.0;
    2 * t.count_ones() as i32 + 2 * (t & theirs.0).count_ones() as i32
        - (t & EDGE).count_ones() as i32
}

impl Shape {
    /// The shape of `color`'s pieces in `pos`; `None` when it has none.
    #[inline(always)]
    pub fn of(pos: &Position, color: Color) -> Option<Shape> {
        let them = pos.pieces(!color);
        let mut moves = 0;
        pos.for_each_move_set(color, |_, targets| moves += mobility(targets, them));
        Shape::measure(pos.pieces(color), them, pos.board(), pos.size(), moves)
    }

    /// The shape of the pieces `ours` against `theirs` on `board`, given their mobility
    /// (the sum of [`mobility`] over their moves); `None` when there are none.
    #[inline(always)]
    pub fn measure(
        ours: Bitboard,
        theirs: Bitboard,
        board: Bitboard,
        size: BoardSize,
        mobility: i32,
    ) -> Option<Shape> {
        let p = ours.0;
        let n = p.count_ones() as i32;
        if n == 0 {
            return None;
        }
        let fsum = weighted_sum(p, &FILE_BITS);
        let rsum = weighted_sum(p, &RANK_BITS);
        let centre = CENTRE_RINGS
            .iter()
            .map(|&ring| (p & ring).count_ones() as i32)
            .sum::<i32>();
        // The centre of mass rounded to the nearest square.
        let (cf, cr) = ((2 * fsum + n) / (2 * n), (2 * rsum + n) / (2 * n));
        let boxes = &BOXES[(cr * 8 + cf) as usize];
        // The sum of distances: a piece at distance d lies outside the boxes 0..d.
        let spread: i32 = boxes[..7]
            .iter()
            .map(|&b| (p & !b).count_ones() as i32)
            .sum();
        // Distance of the centre of mass from the board's middle, in half squares.
        let middle = i32::from(size.side()) - 1;
        let files = {
            let mut f = p;
            f |= f >> 32;
            f |= f >> 16;
            f |= f >> 8;
            (f & 0xFF) as u32
        };
        let width = 32 - files.leading_zeros() as i32 - files.trailing_zeros() as i32;
        let height = (63 - p.leading_zeros() as i32) / 8 - (p.trailing_zeros() as i32) / 8 + 1;
        let Quads { solid, euler4 } = quads(ours);
        let (edge_blocked, walled) = walls(p, theirs.0, board);
        Some(Shape {
            pieces: n,
            excess_spread: spread - min_distance_sum(n as u32),
            centre,
            com_offcentre: (2 * fsum / n - middle)
                .abs()
                .max((2 * rsum / n - middle).abs()),
            solid,
            euler4,
            mobility,
            pairs: adjacent_pairs(p),
            area: width * height,
            edge_blocked,
            walled,
        })
    }
}

/// Every term measured on `color`'s pieces in `pos` (all 0 when it has none).
#[inline]
pub fn features(pos: &Position, color: Color) -> [i32; TERM_COUNT] {
    shape_features(Shape::of(pos, color))
}

/// The evaluation of `pos` for the side to move: the weighted differences of the terms,
/// over 16, and the bonus for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    weigh(&features(pos, us), &features(pos, !us), phase_of(pos))
}

/// The side to move's terms against the other side's, weighted for `phase`.
#[inline]
pub fn weigh(ours: &[i32; TERM_COUNT], theirs: &[i32; TERM_COUNT], phase: i32) -> i32 {
    let (mut crowded, mut sparse) = (0, 0);
    for i in 0..TERM_COUNT {
        let difference = ours[i] - theirs[i];
        crowded += WEIGHTS[0][i] * difference;
        sparse += WEIGHTS[1][i] * difference;
    }
    Taper::new(crowded, sparse).at(phase) / 16 + weights::TEMPO.at(phase)
}

/// The terms of a shape (all 0 when there are no pieces).
#[inline]
pub fn shape_features(shape: Option<Shape>) -> [i32; TERM_COUNT] {
    match shape {
        Some(shape) => measure_all(&shape),
        None => [0; TERM_COUNT],
    }
}

/// The features of both sides, for display.
pub fn terms(pos: &Position) -> [(Color, [i32; TERM_COUNT]); 2] {
    Color::ALL.map(|c| (c, features(pos, c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str) -> Position {
        text.parse().unwrap()
    }

    #[test]
    fn minimum_spread() {
        assert_eq!(min_distance_sum(1), 0);
        assert_eq!(min_distance_sum(9), 8);
        assert_eq!(min_distance_sum(12), 8 + 3 * 2);
    }

    #[test]
    fn walls_count_hemmed_edge_pieces() {
        // Black's (enemy pieces inside next to Black's edge pieces, edge pieces walled in).
        let cases = [
            // a4 faces b3, b4, b5, all White: walled.
            ("8/8/8/1w6/bw6/1w6/8/7b w", (3, 1)),
            // One gap in the wall: blocked twice, not walled.
            ("8/8/8/1w6/bw6/8/8/7b w", (2, 0)),
            // A corner piece has one inside neighbour; h1 is free.
            ("b7/1w6/8/8/8/8/8/7b w", (1, 1)),
            // White pieces on the edge are not a wall.
            ("8/8/8/w7/b7/w7/8/7b w", (0, 0)),
            // On 6x6, f3 is an edge square and e2-e4 are inside.
            ("6/6/4w1/4wb/4w1/b5 w", (3, 1)),
        ];
        for (text, expected) in cases {
            let p = pos(text);
            let board = p.board();
            let got = walls(p.pieces(Color::Black).0, p.pieces(Color::White).0, board);
            assert_eq!(got, expected, "{text}");
        }
    }

    /// The features computed the plain way, square by square.
    fn plain_features(pos: &Position, color: Color) -> [i32; TERM_COUNT] {
        let pieces = pos.pieces(color);
        let n = pieces.count() as i32;
        let squares: Vec<(i32, i32)> = pieces
            .map(|sq| (i32::from(sq.file()), i32::from(sq.rank())))
            .collect();
        let fsum: i32 = squares.iter().map(|s| s.0).sum();
        let rsum: i32 = squares.iter().map(|s| s.1).sum();
        let (cf, cr) = ((2 * fsum + n) / (2 * n), (2 * rsum + n) / (2 * n));
        let spread: i32 = squares
            .iter()
            .map(|&(f, r)| (f - cf).abs().max((r - cr).abs()))
            .sum();
        let centre: i32 = pieces.map(|sq| CENTRE[sq.index()]).sum();
        let middle = i32::from(pos.size().side()) - 1;
        let width = squares.iter().map(|s| s.0).max().unwrap()
            - squares.iter().map(|s| s.0).min().unwrap()
            + 1;
        let height = squares.iter().map(|s| s.1).max().unwrap()
            - squares.iter().map(|s| s.1).min().unwrap()
            + 1;
        let pairs: i32 = squares
            .iter()
            .map(|&(f, r)| {
                squares
                    .iter()
                    .filter(|&&(g, s)| (g, s) != (f, r) && (g - f).abs() <= 1 && (s - r).abs() <= 1)
                    .count() as i32
            })
            .sum::<i32>()
            / 2;
        let mut mobility = 0;
        let mut mover = *pos;
        if mover.side_to_move() != color {
            mover.play(loa_core::Move::PASS);
        }
        if !mover.must_pass() {
            for mv in mover.legal_moves().iter() {
                let edge = EDGE & mv.to().bit() != 0;
                mobility += 2 + 2 * i32::from(mv.is_capture()) - i32::from(edge);
            }
        }
        let side = i32::from(pos.size().side());
        let on_edge = |f: i32, r: i32| f == 0 || r == 0 || f == side - 1 || r == side - 1;
        let (mut blocked, mut walled) = (0, 0);
        for &(f, r) in squares.iter().filter(|&&(f, r)| on_edge(f, r)) {
            let mut inward = Vec::new();
            for (df, dr) in (-1..=1).flat_map(|df| (-1..=1).map(move |dr| (df, dr))) {
                let (g, s) = (f + df, r + dr);
                if (0..side).contains(&g) && (0..side).contains(&s) && !on_edge(g, s) {
                    inward.push(loa_core::Square::from_coords(g as u8, s as u8));
                }
            }
            let taken = inward
                .iter()
                .filter(|&&sq| pos.piece_at(sq) == Some(!color))
                .count() as i32;
            blocked += taken;
            walled += i32::from(taken == inward.len() as i32);
        }
        let Quads { solid, euler4 } = quads(pieces);
        [
            (spread - min_distance_sum(n as u32)) * 16 / n,
            centre * 16 / n,
            (2 * fsum / n - middle)
                .abs()
                .max((2 * rsum / n - middle).abs()),
            solid,
            euler4,
            mobility,
            pairs * 16 / n,
            width * height,
            blocked,
            walled,
            n,
        ]
    }

    #[test]
    fn features_match_a_plain_computation() {
        for text in crate::bench::POSITIONS {
            let mut pos: Position = text.parse().unwrap();
            for ply in 0..12 {
                for color in Color::ALL {
                    assert_eq!(
                        features(&pos, color),
                        plain_features(&pos, color),
                        "{pos} {color}"
                    );
                }
                let moves = pos.legal_moves();
                pos.play(moves[(ply * 7) % moves.len()]);
            }
        }
    }

    #[test]
    fn start_is_balanced_apart_from_tempo() {
        let start = Position::startpos();
        let [(_, b), (_, w)] = terms(&start);
        assert_eq!(b, w);
        assert_eq!(evaluate(&start), weights::TEMPO.crowded);
    }

    #[test]
    fn phase_counts_the_pieces_against_the_start_of_each_size() {
        let start = Position::startpos();
        assert_eq!(phase_of(&start), PHASES);
        assert_eq!(phase(12, BoardSize::Eight), 12);
        assert_eq!(phase(2, BoardSize::Eight), 2);
        // 6x6 starts with 16 pieces, 7x7 with 20.
        assert_eq!(phase(16, BoardSize::Six), PHASES);
        assert_eq!(phase(8, BoardSize::Six), 12);
        assert_eq!(phase(10, BoardSize::Seven), 12);
        // More pieces than the start (AmbiLOA's teams) count as a full board.
        assert_eq!(phase(30, BoardSize::Eight), PHASES);
        assert_eq!(phase(0, BoardSize::Eight), 0);
    }

    #[test]
    fn weights_move_from_crowded_to_sparse_with_the_phase() {
        let taper = Taper::new(100, -20);
        assert_eq!(taper.at(PHASES), 100);
        assert_eq!(taper.at(0), -20);
        assert_eq!(taper.at(PHASES / 2), 40);
        assert_eq!(taper.at(6), 10);
        // One term apart by 16 (one unit after the /16 scale), the rest equal: the score
        // is that term's weight at the phase, plus the tempo there.
        let ours = [0; TERM_COUNT];
        let mut theirs = ours;
        theirs[0] = -16;
        for phase in [0, 7, 12, PHASES] {
            let expected = TERMS[0].weight.at(phase) + weights::TEMPO.at(phase);
            assert_eq!(weigh(&ours, &theirs, phase), expected, "phase {phase}");
        }
    }

    #[test]
    fn gathered_pieces_score_higher() {
        // Black in one clump, White scattered: Black is better whoever moves.
        assert!(evaluate(&pos("w6w/8/8/3bb3/3bb3/8/8/w6w b")) > 100);
        assert!(evaluate(&pos("w6w/8/8/3bb3/3bb3/8/8/w6w w")) < -100);
    }
}
