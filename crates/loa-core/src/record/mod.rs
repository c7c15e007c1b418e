//! Game records: SGF (FF[4], GM[9]) and a PGN-style text format, read and written.

use crate::{Game, Move, Position, RuleSet};

/// The result written in a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordResult {
    BlackWins,
    WhiteWins,
    Draw,
    /// Unfinished or unknown (`*`).
    Unknown,
}

/// One game as a record holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub event: Option<String>,
    /// `YYYY.MM.DD` in PGN, `YYYY-MM-DD` in SGF.
    pub date: Option<String>,
    pub black: Option<String>,
    pub white: Option<String>,
    /// The start; the standard start when the record names none.
    pub start: Position,
    pub rules: RuleSet,
    pub moves: Vec<Move>,
    pub result: RecordResult,
    /// Why the game ended, in words (`connection`, `time forfeit`, `illegal move d1-d4`...).
    pub termination: Option<String>,
    /// As fastchess writes it: `10+0.1` (seconds per game plus increment).
    pub time_control: Option<String>,
    /// Any other tags, kept in order.
    pub extra: Vec<(String, String)>,
}

impl GameRecord {
    /// A record of a game so far, with no names.
    pub fn from_game(game: &Game) -> GameRecord {
        GameRecord {
            event: None,
            date: None,
            black: None,
            white: None,
            start: *game.start(),
            rules: game.rules(),
            moves: game.moves().collect(),
            result: match game.outcome() {
                None => RecordResult::Unknown,
                Some(o) => match o.winner {
                    Some(crate::Color::Black) => RecordResult::BlackWins,
                    Some(crate::Color::White) => RecordResult::WhiteWins,
                    None => RecordResult::Draw,
                },
            },
            termination: game.outcome().map(|o| o.reason.to_string()),
            time_control: None,
            extra: Vec::new(),
        }
    }
}
