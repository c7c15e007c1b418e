//! Matching a record's moves against the position while reading.

use crate::{Color, Move, MoveError, MoveText, Position};

/// The number and side of the move at `ply` (0-based), one number per Black move.
pub(crate) fn number(first: Color, ply: usize) -> (usize, Color) {
    let offset = usize::from(first == Color::White);
    let side = if (ply + offset).is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    };
    ((ply + offset) / 2 + 1, side)
}

/// `move 7 (White)`.
pub(crate) fn label(first: Color, ply: usize) -> String {
    let (n, side) = number(first, ply);
    format!("move {n} ({side})")
}

/// Reads a move's text as records write it: surrounding white space and trailing
/// annotations (`+`, `!`, `?`, `#`) are dropped; `-`, `x`, `:` separators, any case,
/// `pass`.
pub(crate) fn parse_text(raw: &str) -> Result<MoveText, MoveError> {
    let cleaned = raw.trim().trim_end_matches(['+', '!', '?', '#']).trim_end();
    MoveText::parse(cleaned)
}

/// Builds the move list of a record. While every move so far could be played, the moves
/// are checked against the position (a capture written with `-` becomes a capture); from
/// the first move that cannot be played on, moves are taken as written and
/// [`crate::record::GameRecord::replay`] reports the bad one.
pub(crate) struct MoveReader {
    position: Position,
    /// The side to move, kept even once the position is no longer known.
    side: Color,
    first: Color,
    known: bool,
    pub moves: Vec<Move>,
}

impl MoveReader {
    pub fn new(start: Position) -> MoveReader {
        MoveReader {
            position: start,
            side: start.side_to_move(),
            first: start.side_to_move(),
            known: true,
            moves: Vec::new(),
        }
    }

    pub fn side(&self) -> Color {
        self.side
    }

    /// `move 7 (White)` for the next move.
    pub fn label(&self) -> String {
        label(self.first, self.moves.len())
    }

    /// Plays a forced pass if the side to move has no move; says whether it did.
    pub fn pass_if_forced(&mut self) -> bool {
        if self.known && self.position.must_pass() {
            self.push(MoveText::Pass);
            true
        } else {
            false
        }
    }

    pub fn push(&mut self, text: MoveText) {
        let checked = if self.known {
            match text {
                MoveText::Pass => self.position.must_pass().then_some(Move::PASS),
                MoveText::Step { from, to, capture } => {
                    let sep = if capture == Some(true) { 'x' } else { '-' };
                    self.position.parse_move(&format!("{from}{sep}{to}")).ok()
                }
            }
        } else {
            None
        };
        let mv = match checked {
            Some(mv) => {
                self.position.play(mv);
                mv
            }
            None => {
                self.known = false;
                match text {
                    MoveText::Pass => Move::PASS,
                    MoveText::Step { from, to, capture } => {
                        Move::new(from, to, capture.unwrap_or(false))
                    }
                }
            }
        };
        self.moves.push(mv);
        self.side = !self.side;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_follow_pgn() {
        assert_eq!(number(Color::Black, 0), (1, Color::Black));
        assert_eq!(number(Color::Black, 1), (1, Color::White));
        assert_eq!(number(Color::Black, 2), (2, Color::Black));
        assert_eq!(number(Color::White, 0), (1, Color::White));
        assert_eq!(number(Color::White, 1), (2, Color::Black));
        assert_eq!(number(Color::White, 2), (2, Color::White));
    }

    #[test]
    fn captures_written_with_a_dash_become_captures() {
        let mut reader = MoveReader::new(Position::startpos());
        for text in ["b1-b3", "h4-f2", "d1-a4"] {
            reader.push(parse_text(text).unwrap());
        }
        assert_eq!(reader.moves[2].to_string(), "d1xa4");
        assert!(reader.known);
        reader.push(parse_text("a2-a3").unwrap());
        assert!(!reader.known);
    }

    #[test]
    fn annotations_are_dropped() {
        assert!(parse_text("C2:C5++").is_ok());
        assert!(parse_text("e1-e3!?").is_ok());
        assert!(parse_text("e1-e3 x").is_err());
    }
}
