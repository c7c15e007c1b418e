use crate::Square;
use arrayvec::ArrayVec;
use std::fmt;

/// A move: a piece going from one square to another, possibly capturing, or a pass; in
/// Parachute, either followed by the placement of a reserve piece (a drop).
///
/// Packed in 32 bits: `from` in bits 0-5, `to` in bits 6-11, the capture flag in bit 12,
/// the pass flag in bit 13, and a drop in bits 14-20 (bit 20 set, the square in 14-19).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u32);

const CAPTURE: u32 = 1 << 12;
const PASS: u32 = 1 << 13;
const DROP_SHIFT: u32 = 14;
const HAS_DROP: u32 = 1 << 20;
/// Every bit a move may use.
const USED: u32 = (1 << 21) - 1;

impl Move {
    /// The forced pass of a player without a legal move.
    pub const PASS: Move = Move(PASS);

    #[inline]
    pub const fn new(from: Square, to: Square, capture: bool) -> Move {
        Move(from.index() as u32 | (to.index() as u32) << 6 | if capture { CAPTURE } else { 0 })
    }

    /// The same move followed by the placement of a reserve piece on `square`.
    #[inline]
    pub const fn with_drop(self, square: Square) -> Move {
        Move(
            self.0 & !(HAS_DROP | 63 << DROP_SHIFT)
                | HAS_DROP
                | (square.index() as u32) << DROP_SHIFT,
        )
    }

    #[inline]
    pub const fn is_pass(self) -> bool {
        self.0 & PASS != 0
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
        self.0 & CAPTURE != 0
    }

    /// Where a reserve piece is placed after the move, if one is.
    #[inline]
    pub const fn drop(self) -> Option<Square> {
        if self.0 & HAS_DROP != 0 {
            Some(Square::new(((self.0 >> DROP_SHIFT) & 63) as u8))
        } else {
            None
        }
    }

    /// The squares the move touches: where the piece left and landed, and where a piece
    /// was placed (to mark the last move on a board).
    pub fn squares(self) -> crate::Bitboard {
        let mut squares = crate::Bitboard::EMPTY;
        if !self.is_pass() {
            squares = squares.with(self.from()).with(self.to());
        }
        if let Some(square) = self.drop() {
            squares = squares.with(square);
        }
        squares
    }

    /// The move without its drop.
    #[inline]
    pub const fn without_drop(self) -> Move {
        Move(self.0 & !(HAS_DROP | 63 << DROP_SHIFT))
    }

    /// The raw encoding, for tables that store moves (21 bits are used).
    #[inline]
    pub const fn to_bits(self) -> u32 {
        self.0
    }

    /// The move from its raw encoding, if the bits are a valid move.
    pub const fn from_bits(bits: u32) -> Option<Move> {
        let drop_ok = bits & HAS_DROP != 0 || (bits >> DROP_SHIFT) & 63 == 0;
        let step_ok = if bits & PASS != 0 {
            bits & (CAPTURE | 0xFFF) == 0
        } else {
            bits & 63 != (bits >> 6) & 63
        };
        if bits & !USED == 0 && drop_ok && step_ok {
            Some(Move(bits))
        } else {
            None
        }
    }

    /// The move in coordinate form as engine protocols write it: `b1d3`, a pass `0000`;
    /// a drop follows as `@e5`.
    pub fn coordinate(self) -> String {
        let step = if self.is_pass() {
            "0000".to_string()
        } else {
            format!("{}{}", self.from(), self.to())
        };
        match self.drop() {
            Some(square) => format!("{step}@{square}"),
            None => step,
        }
    }
}

/// Move notation as the rules write it: `c8-c6`, a capture `d1xa4`, a pass `pass`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            f.write_str("pass")?;
        } else {
            let sep = if self.is_capture() { 'x' } else { '-' };
            write!(f, "{}{}{}", self.from(), sep, self.to())?;
        }
        match self.drop() {
            Some(square) => write!(f, "@{square}"),
            None => Ok(()),
        }
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
    #[error("'{text}': a placement is due after the move: write it as {example}")]
    DropMissing { text: String, example: String },
    #[error("'{text}': no placement now: {side} has no piece in reserve")]
    DropNotAllowed { text: String, side: crate::Color },
    #[error("'{text}': {square} is not empty after the move, so no piece can be placed there")]
    DropOccupied { text: String, square: Square },
    #[error("'{text}': the piece on {square} is {found}, but {due} moves now")]
    WrongKind {
        text: String,
        square: Square,
        found: String,
        due: String,
    },
}

/// What a whole turn's text says: a move or a pass, then perhaps the placement of a
/// reserve piece (Parachute's `a6-c6@e5`, `pass@d4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnText {
    pub step: MoveText,
    pub drop: Option<Square>,
}

impl TurnText {
    /// Reads `<move>` or `<move>@<square>`, the move in any form [`MoveText`] reads.
    pub fn parse(text: &str) -> Result<TurnText, MoveError> {
        let trimmed = text.trim();
        match trimmed.split_once('@') {
            None => Ok(TurnText {
                step: MoveText::parse(trimmed)?,
                drop: None,
            }),
            Some((step, square)) => {
                let drop = Square::parse(square.trim()).ok_or_else(|| MoveError::BadSquare {
                    text: crate::excerpt(trimmed).into_owned(),
                    square: crate::excerpt(square).into_owned(),
                })?;
                Ok(TurnText {
                    step: MoveText::parse(step)?,
                    drop: Some(drop),
                })
            }
        }
    }
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

/// A list of moves that lives on the stack: at most 8 moves for each of at most 64 pieces.
/// Nothing is written until a move is pushed. A whole Parachute turn (a move with each
/// placement) can be more: [`GameState::moves`](crate::GameState::moves) holds any.
#[derive(Clone, Default)]
pub struct MoveList(ArrayVec<Move, { MoveList::CAPACITY }>);

impl MoveList {
    /// Every piece has at most 8 moves; positions from text may hold up to 64 pieces of
    /// one side, so the list is sized for the worst case.
    pub const CAPACITY: usize = 8 * 64;

    #[inline]
    pub fn new() -> MoveList {
        MoveList(ArrayVec::new())
    }

    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.0.push(mv);
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.0
    }

    #[inline]
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Keeps the moves for which `keep` holds.
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        self.0.retain(|mv| keep(mv));
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];

    #[inline]
    fn deref(&self) -> &[Move] {
        &self.0
    }
}

impl std::ops::DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.0
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
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
    fn turns_carry_their_drop() {
        let turn = TurnText::parse("a6-c6@E5").unwrap();
        assert_eq!(turn.drop, Some(sq("e5")));
        assert_eq!(
            turn.step,
            MoveText::Step {
                from: sq("a6"),
                to: sq("c6"),
                capture: Some(false)
            }
        );
        assert_eq!(TurnText::parse("pass@d4").unwrap().step, MoveText::Pass);
        assert_eq!(TurnText::parse("b1d3").unwrap().drop, None);
        assert!(TurnText::parse("a6-c6@z9").is_err());
        assert!(TurnText::parse("@e5").is_err());
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
        let step = Move::new(sq("h8"), sq("a1"), true);
        for mv in [
            Move::PASS,
            step,
            step.with_drop(sq("e5")),
            Move::PASS.with_drop(sq("a1")),
        ] {
            assert_eq!(Move::from_bits(mv.to_bits()), Some(mv));
        }
        assert_eq!(Move::from_bits(0), None, "from == to is no move");
        assert_eq!(Move::from_bits(1 << 21), None, "unused bits");
        assert_eq!(Move::from_bits(PASS | 5), None, "a pass has no squares");
    }

    #[test]
    fn drops_are_written_after_the_move() {
        let mv = Move::new(sq("a6"), sq("c6"), false).with_drop(sq("e5"));
        assert_eq!(mv.to_string(), "a6-c6@e5");
        assert_eq!(mv.coordinate(), "a6c6@e5");
        assert_eq!(mv.drop(), Some(sq("e5")));
        assert_eq!(mv.without_drop().to_string(), "a6-c6");
        assert_eq!(Move::PASS.with_drop(sq("d4")).to_string(), "pass@d4");
        assert!(Move::PASS.with_drop(sq("d4")).is_pass());
    }
}
