//! Matching a record's moves against the position while reading.

use super::RecordResult;
use crate::{Color, GameState, Move, MoveError, MoveText, Square, TurnText, VariantPosition};

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
/// `pass`, a placement after `@`, and two squares with white space between (`c1 a3`, as
/// some programs write SGF moves).
pub(crate) fn parse_text(raw: &str) -> Result<TurnText, MoveError> {
    let cleaned = raw.trim().trim_end_matches(['+', '!', '?', '#']).trim_end();
    let mut words = cleaned.split_whitespace();
    if let (Some(from), Some(to), None) = (words.next(), words.next(), words.next()) {
        if Square::parse(from).is_some() && Square::parse(to).is_some() {
            return TurnText::parse(&format!("{from}{to}"));
        }
    }
    TurnText::parse(cleaned)
}

/// A game given up in a move's place: `B[Resign]`, `W[Forfeit]` in SGF, `resigns` in
/// PGN movetext.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    Resignation,
    Forfeit,
}

/// A game given up in a move's place, as read: by whom, how, where in the text, and in
/// words (`W[resign] at move 2 (White)`).
pub(crate) struct Ended {
    pub by: Color,
    pub how: Ending,
    pub at: usize,
    pub what: String,
}

impl Ended {
    /// The game's result, given the result the record states elsewhere; see
    /// [`Ending::result`].
    pub fn result(&self, stated: RecordResult) -> Result<RecordResult, String> {
        self.how
            .result(self.by, stated)
            .map_err(|e| format!("{}: {e}", self.what))
    }
}

impl Ending {
    /// `resign`, `resigns`, `forfeit`, `forfeits`, in any case.
    pub fn parse(text: &str) -> Option<Ending> {
        match text.trim().to_ascii_lowercase().as_str() {
            "resign" | "resigns" => Some(Ending::Resignation),
            "forfeit" | "forfeits" => Some(Ending::Forfeit),
            _ => None,
        }
    }

    /// The termination in words.
    pub fn termination(self) -> &'static str {
        match self {
            Ending::Resignation => "resignation",
            Ending::Forfeit => "forfeit",
        }
    }

    /// The result of a game `loser` gave up this way, given the result the record states
    /// elsewhere (`Unknown` if none): the other side wins, and a stated result that says
    /// otherwise is an error.
    pub fn result(self, loser: Color, stated: RecordResult) -> Result<RecordResult, String> {
        let result = match loser {
            Color::Black => RecordResult::WhiteWins,
            Color::White => RecordResult::BlackWins,
        };
        if stated == result || stated == RecordResult::Unknown {
            return Ok(result);
        }
        let verb = match self {
            Ending::Resignation => "resigned",
            Ending::Forfeit => "forfeited",
        };
        Err(format!(
            "{loser} {verb}, so {} wins, but the record gives the result {stated} ({})",
            !loser,
            stated.describe()
        ))
    }
}

/// The move a turn's text names, taken as written (for a record that can no longer be
/// checked against the board).
fn as_written(turn: TurnText) -> Move {
    let step = match turn.step {
        MoveText::Pass => Move::PASS,
        MoveText::Step { from, to, capture } => Move::new(from, to, capture.unwrap_or(false)),
    };
    match turn.drop {
        Some(square) => step.with_drop(square),
        None => step,
    }
}

/// The turn's text in the rules' notation, for reading against a position.
fn notation(turn: TurnText) -> String {
    let step = match turn.step {
        MoveText::Pass => "pass".to_string(),
        MoveText::Step { from, to, capture } => {
            let sep = if capture == Some(true) { 'x' } else { '-' };
            format!("{from}{sep}{to}")
        }
    };
    match turn.drop {
        Some(square) => format!("{step}@{square}"),
        None => step,
    }
}

/// Builds the move list of a record. While every move so far could be played, the moves
/// are checked against the position (a capture written with `-` becomes a capture); from
/// the first move that cannot be played on, moves are taken as written and
/// [`crate::record::GameRecord::replay`] reports the bad one.
pub(crate) struct MoveReader {
    position: VariantPosition,
    /// The side to move, kept even once the position is no longer known.
    side: Color,
    first: Color,
    known: bool,
    pub moves: Vec<Move>,
}

impl MoveReader {
    pub fn new(start: VariantPosition) -> MoveReader {
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

    /// Plays a pass if the side to move has no move but a pass (and no placement is
    /// due); says whether it did.
    pub fn pass_if_forced(&mut self) -> bool {
        if self.known && self.position.moves() == [Move::PASS] {
            self.push(TurnText {
                step: MoveText::Pass,
                drop: None,
            });
            true
        } else {
            false
        }
    }

    pub fn push(&mut self, turn: TurnText) {
        let checked = if self.known {
            self.position.parse_move(&notation(turn)).ok()
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
                as_written(turn)
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
        let mut reader = MoveReader::new(crate::Position::startpos().into());
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

    #[test]
    fn squares_apart_make_a_move() {
        let square = |s| Square::parse(s).unwrap();
        let step = |from, to| TurnText {
            step: MoveText::Step {
                from: square(from),
                to: square(to),
                capture: None,
            },
            drop: None,
        };
        assert_eq!(parse_text(" c1  a3 "), Ok(step("c1", "a3")));
        assert_eq!(parse_text("C1 A3+"), Ok(step("c1", "a3")));
        assert!(parse_text("c1 a3 b2").is_err());
        assert!(parse_text("c1 z3").is_err());
    }

    #[test]
    fn a_game_given_up_goes_to_the_other_side() {
        assert_eq!(Ending::parse("Resigns"), Some(Ending::Resignation));
        assert_eq!(Ending::parse("FORFEIT"), Some(Ending::Forfeit));
        assert_eq!(Ending::parse("resigned."), None);
        let resigned = Ending::Resignation;
        assert_eq!(
            resigned.result(Color::White, RecordResult::Unknown),
            Ok(RecordResult::BlackWins)
        );
        assert_eq!(
            resigned.result(Color::White, RecordResult::BlackWins),
            Ok(RecordResult::BlackWins)
        );
        assert_eq!(
            Ending::Forfeit.result(Color::Black, RecordResult::Draw),
            Err(
                "Black forfeited, so White wins, but the record gives the result 1/2-1/2 (draw)"
                    .to_string()
            )
        );
    }
}
