use crate::Square;
use std::fmt;

/// A move: a piece going from one square to another, possibly capturing, or a pass.
///
/// Packed in 16 bits: `from` in bits 0-5, `to` in bits 6-11, the capture flag in bit 12.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

const CAPTURE: u16 = 1 << 12;

impl Move {
    /// The forced pass of a player without a legal move.
    pub const PASS: Move = Move(u16::MAX);

    #[inline]
    pub const fn new(from: Square, to: Square, capture: bool) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | if capture { CAPTURE } else { 0 })
    }

    #[inline]
    pub const fn is_pass(self) -> bool {
        self.0 == u16::MAX
    }

    /// The square the piece leaves. Meaningless for a pass.
    #[inline]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    /// The square the piece lands on. Meaningless for a pass.
    #[inline]
    pub const fn to(self) -> Square {
        Square::new(((self.0 >> 6) & 63) as u8)
    }

    #[inline]
    pub const fn is_capture(self) -> bool {
        !self.is_pass() && self.0 & CAPTURE != 0
    }

    /// The raw 16-bit encoding, for tables that store moves.
    #[inline]
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// The move from its raw encoding, if the bits are a valid move.
    pub const fn from_bits(bits: u16) -> Option<Move> {
        if bits == u16::MAX || (bits < 1 << 13 && bits & 63 != (bits >> 6) & 63) {
            Some(Move(bits))
        } else {
            None
        }
    }

    /// The move in coordinate form as engine protocols write it: `b1d3`, a pass `0000`.
    pub fn coordinate(self) -> String {
        if self.is_pass() {
            "0000".to_string()
        } else {
            format!("{}{}", self.from(), self.to())
        }
    }
}

/// Move notation as the rules write it: `c8-c6`, a capture `d1xa4`, a pass `pass`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            return f.write_str("pass");
        }
        let sep = if self.is_capture() { 'x' } else { '-' };
        write!(f, "{}{}{}", self.from(), sep, self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// What a move's text says, before it is checked against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveText {
    Pass,
    Step {
        from: Square,
        to: Square,
        /// `Some(true)` for `x`/`:`, `Some(false)` for `-`, `None` for the bare
        /// coordinate form `b1d3`.
        capture: Option<bool>,
    },
}

/// Why a move's text could not be read or played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("empty move")]
    Empty,
    #[error("'{0}' is not a move: expected from-to (c8-c6), a capture (d1xa4 or d1:a4), or pass")]
    Syntax(String),
    #[error("'{text}': {square} is not a square")]
    BadSquare { text: String, square: String },
    #[error("'{text}': {square} is off the {size}x{size} board")]
    OffBoard {
        text: String,
        square: Square,
        size: u8,
    },
    #[error("'{text}': there is no piece of the side to move ({side}) on {square}")]
    NoPiece {
        text: String,
        square: Square,
        side: crate::Color,
    },
    #[error("'{text}' is illegal: {reason}")]
    Illegal { text: String, reason: String },
    #[error("'{text}' is written as a capture but {square} is empty")]
    NotACapture { text: String, square: Square },
    #[error("pass is only legal when the side to move has no move (legal moves: {legal})")]
    PassNotAllowed { legal: String },
    #[error("{side} has no legal move and must pass")]
    MustPass { side: crate::Color },
}

impl MoveText {
    /// Reads move text: `c8-c6`, `d1xa4`, `d1:a4`, `b1d3`, `pass`, `0000`, any case.
    pub fn parse(text: &str) -> Result<MoveText, MoveError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(MoveError::Empty);
        }
        if trimmed.eq_ignore_ascii_case("pass") || trimmed == "0000" {
            return Ok(MoveText::Pass);
        }
        let syntax = || MoveError::Syntax(crate::excerpt(trimmed).into_owned());
        if !trimmed.is_ascii() {
            return Err(syntax());
        }
        let (from, to, capture) = match trimmed.len() {
            4 => (&trimmed[..2], &trimmed[2..], None),
            5 => {
                let capture = match trimmed.as_bytes()[2] {
                    b'-' => false,
                    b'x' | b'X' | b':' => true,
                    _ => return Err(syntax()),
                };
                (&trimmed[..2], &trimmed[3..], Some(capture))
            }
            _ => return Err(syntax()),
        };
        let square = |name: &str| {
            Square::parse(name).ok_or_else(|| MoveError::BadSquare {
                text: trimmed.to_string(),
                square: name.to_string(),
            })
        };
        Ok(MoveText::Step {
            from: square(from)?,
            to: square(to)?,
            capture,
        })
    }
}

/// A fixed-capacity list of moves: at most 8 directions for each of at most 64 pieces,
/// but a side never has more than 12 pieces, so 96 covers every legal position.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MoveList::CAPACITY],
    len: usize,
}

impl MoveList {
    /// Every piece has at most 8 moves; positions from text may hold up to 64 pieces
    /// of one side, so the list is sized for the worst case.
    pub const CAPACITY: usize = 8 * 64;

    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::PASS; MoveList::CAPACITY],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];

    #[inline]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn notation_prints_as_the_rules_write_it() {
        assert_eq!(Move::new(sq("c8"), sq("c6"), false).to_string(), "c8-c6");
        assert_eq!(Move::new(sq("d1"), sq("a4"), true).to_string(), "d1xa4");
        assert_eq!(Move::PASS.to_string(), "pass");
        assert_eq!(Move::new(sq("b1"), sq("d3"), false).coordinate(), "b1d3");
        assert_eq!(Move::PASS.coordinate(), "0000");
    }

    #[test]
    fn parses_every_accepted_form() {
        let step = |from, to, capture| MoveText::Step {
            from: sq(from),
            to: sq(to),
            capture,
        };
        assert_eq!(MoveText::parse("c8-c6"), Ok(step("c8", "c6", Some(false))));
        assert_eq!(MoveText::parse("D1XA4"), Ok(step("d1", "a4", Some(true))));
        assert_eq!(MoveText::parse("d1:a4"), Ok(step("d1", "a4", Some(true))));
        assert_eq!(MoveText::parse(" b1d3 "), Ok(step("b1", "d3", None)));
        assert_eq!(MoveText::parse("PASS"), Ok(MoveText::Pass));
        assert_eq!(MoveText::parse("0000"), Ok(MoveText::Pass));
    }

    #[test]
    fn bad_text_names_the_bad_part() {
        assert_eq!(MoveText::parse(""), Err(MoveError::Empty));
        let err = MoveText::parse("c9-c6").unwrap_err().to_string();
        assert!(err.contains("c9 is not a square"), "{err}");
        let err = MoveText::parse("c8+c6").unwrap_err().to_string();
        assert!(err.contains("'c8+c6' is not a move"), "{err}");
        assert!(MoveText::parse("é8-c6").is_err());
    }

    #[test]
    fn bits_round_trip() {
        for mv in [Move::PASS, Move::new(sq("h8"), sq("a1"), true)] {
            assert_eq!(Move::from_bits(mv.to_bits()), Some(mv));
        }
        assert_eq!(Move::from_bits(0), None, "from == to is no move");
    }
}
