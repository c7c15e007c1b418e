//! The evaluation's terms, in one table: each term's name, its weight (from the fitted
//! weights file) and how it is measured on the shape of one side's pieces. A term added
//! here gets its weight from `loa-tune fit`, which reads this table and writes
//! `weights.rs`.

use super::weights;

/// What the terms are measured on: one side's pieces, counted once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The number of pieces (at least one).
    pub pieces: i32,
    /// The sum of distances to the centre of mass beyond the least possible.
    pub excess_spread: i32,
    /// The sum of the pieces' centralisation values (0-3).
    pub centre: i32,
    /// How far the centre of mass lies from the board's middle, in half squares.
    pub com_offcentre: i32,
    /// 2x2 windows holding three or four pieces.
    pub solid: i32,
    /// Four times the Euler number (groups minus holes).
    pub euler4: i32,
    /// Moves, captures counting double and landings on the edge less.
    pub mobility: i32,
    /// Pairs of neighbouring pieces.
    pub pairs: i32,
    /// The area of the rectangle the pieces span.
    pub area: i32,
    /// Enemy pieces on the line inside next to the side's edge pieces.
    pub edge_blocked: i32,
    /// Edge pieces whose every inside neighbour is an enemy piece.
    pub walled: i32,
}

/// The weight of a term, moving with how crowded the board is: `crowded` with every piece
/// of the start on the board, towards `sparse` as pieces are captured: what counts with
/// every piece on the board is not what counts in the ending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Taper {
    pub crowded: i32,
    pub sparse: i32,
}

/// The phases of [`Taper`]: 0 for an empty board, `PHASES` for a full one.
pub const PHASES: i32 = 24;

impl Taper {
    pub const fn new(crowded: i32, sparse: i32) -> Taper {
        Taper { crowded, sparse }
    }

    /// The weight at `phase` (0 ..= `PHASES`).
    pub const fn at(self, phase: i32) -> i32 {
        (self.crowded * phase + self.sparse * (PHASES - phase)) / PHASES
    }
}

/// One term: score = sum of weight x (ours - theirs) / 16.
#[derive(Clone, Copy, Debug)]
pub struct Term {
    pub name: &'static str,
    pub weight: Taper,
    pub measure: fn(&Shape) -> i32,
}

/// Declares the table once and expands it twice: as data (`TERMS`, for the tuner and for
/// display) and as straight-line code (`measure_all`, for the search, with no call
/// through a pointer).
macro_rules! terms {
    ($($name:literal => $weight:ident, |$s:ident| $measure:expr;)*) => {
        /// Every term of the evaluation, after MIA's (Winands et al.).
        pub const TERMS: [Term; [$($name),*].len()] = [
            $(Term { name: $name, weight: weights::$weight, measure: |$s| $measure }),*
        ];

        /// Every term measured on `shape`, in the order of `TERMS`.
        #[inline]
        pub fn measure_all(shape: &Shape) -> [i32; TERMS.len()] {
            [$({ let $s = shape; $measure }),*]
        }
    };
}

terms! {
    "concentration" => CONCENTRATION, |s| s.excess_spread * 16 / s.pieces;
    "centralisation" => CENTRALISATION, |s| s.centre * 16 / s.pieces;
    "centre-of-mass" => CENTRE_OF_MASS, |s| s.com_offcentre;
    "solid-quads" => SOLID_QUADS, |s| s.solid;
    "euler" => EULER, |s| s.euler4;
    "mobility" => MOBILITY, |s| s.mobility;
    "connections" => CONNECTIONS, |s| s.pairs * 16 / s.pieces;
    "area" => AREA, |s| s.area;
    "edge-blocked" => EDGE_BLOCKED, |s| s.edge_blocked;
    "walled" => WALLED, |s| s.walled;
    "pieces" => PIECES, |s| s.pieces;
}

/// The name of a term's weight in the weights file: `centre-of-mass` is `CENTRE_OF_MASS`.
pub fn weight_name(term: &str) -> String {
    term.to_ascii_uppercase().replace('-', "_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_and_the_code_agree() {
        let shape = Shape {
            pieces: 7,
            excess_spread: 5,
            centre: 9,
            com_offcentre: 2,
            solid: 3,
            euler4: 8,
            mobility: 40,
            pairs: 11,
            area: 20,
            edge_blocked: 1,
            walled: 4,
        };
        let from_table = TERMS.map(|term| (term.measure)(&shape));
        assert_eq!(measure_all(&shape), from_table);
    }

    #[test]
    fn every_term_has_its_own_name() {
        let mut names: Vec<&str> = TERMS.iter().map(|t| t.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TERMS.len());
        assert_eq!(weight_name("centre-of-mass"), "CENTRE_OF_MASS");
    }
}
