//! Scores: evaluations in centipawn-like units, and connections found some plies ahead.

use std::fmt;

/// The score of a connection on the board now; a win found `n` plies ahead scores
/// `MATE - n`.
pub const MATE: i32 = 30_000;
/// Above every score: the bounds of a full window.
pub(super) const INFINITY: i32 = MATE + 1;
/// Scores beyond this are wins or losses by connection.
pub const MATE_BOUND: i32 = MATE - 1_000;

/// A score as protocols report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// An evaluation in hundredths of a piece-like unit.
    Cp(i32),
    /// A forced win (positive) or loss (negative) in this many moves of the side to move.
    Mate(i32),
}

impl Score {
    /// The score of the search's internal value.
    pub fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-(MATE + score) / 2)
        } else {
            Score::Cp(score)
        }
    }

    /// One scale for comparing scores: a connection beyond any evaluation, nearer ones
    /// higher.
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => 100_000 - n,
            Score::Mate(n) => -100_000 - n,
        }
    }
}

/// As the protocol writes it: `cp 12`, `mate -3`.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Connection scores are stored in the table relative to the node, not the root.
pub(super) fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

pub(super) fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_count_in_moves_of_the_side_to_move() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(57), Score::Cp(57));
        assert!(Score::Mate(2).as_cp() > Score::Mate(5).as_cp());
        assert!(Score::Mate(-2).as_cp() < -90_000);
        for ply in [0, 7] {
            for score in [MATE - 9, -(MATE - 9), 120] {
                assert_eq!(from_tt(to_tt(score, ply), ply), score);
            }
        }
    }
}
