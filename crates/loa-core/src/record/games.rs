//! Reading the games of a text one at a time, each played through: a good game, or an
//! error that names the game and says what is wrong, while the other games still count.

use super::split::{GameSplitter, GameText};
use super::{pgn, reflected_array, sgf, Format, GameRecord, RecordError, Replay, ReplayError};
use crate::{GameState, Variant};
use std::fmt;

/// The players and the event of a game, as far as its record could be read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    pub event: Option<String>,
    pub black: Option<String>,
    pub white: Option<String>,
}

impl Names {
    pub fn of(record: &GameRecord) -> Names {
        Names {
            event: record.event.clone(),
            black: record.black.clone(),
            white: record.white.clone(),
        }
    }

    /// ` (Kok - Heppell, MSO)`, or nothing when no name is known.
    fn label(&self) -> String {
        let players = match (&self.black, &self.white) {
            (None, None) => None,
            (black, white) => Some(format!(
                "{} - {}",
                black.as_deref().unwrap_or("?"),
                white.as_deref().unwrap_or("?")
            )),
        };
        let parts: Vec<&str> = players
            .iter()
            .map(String::as_str)
            .chain(self.event.as_deref())
            .collect();
        if parts.is_empty() {
            String::new()
        } else {
            format!(" ({})", parts.join(", "))
        }
    }
}

/// A game read and played through.
#[derive(Clone, Debug)]
pub struct CheckedGame {
    /// Its number in the text, from 1.
    pub number: usize,
    pub record: GameRecord,
    /// The game after its moves, and its recorded result against the board.
    pub replay: Replay,
}

/// Why a game of a text cannot be read or played through, naming the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game's text cannot be read: the error says where.
    #[error("{} game {number}{}, line {}, column {}: {}",
        .error.format, .names.label(), .error.line, .error.column, .error.message)]
    Text {
        number: usize,
        names: Box<Names>,
        error: RecordError,
    },
    /// The game was read, but a move cannot be played (or comes after the end): the
    /// record as read, whose moves before that one can be shown, and which move.
    #[error("game {number}{}: {error}", Names::of(record).label())]
    Moves {
        number: usize,
        record: Box<GameRecord>,
        error: Box<ReplayError>,
    },
    /// The rest of the text cannot be cut into games (a comment, variation, value or game
    /// tree never closed), or it holds no game at all. Nothing follows this error.
    #[error("{0}")]
    Split(RecordError),
}

impl GameError {
    /// The game's number in the text, from 1 (none when the text could not be cut).
    pub fn number(&self) -> Option<usize> {
        match self {
            GameError::Text { number, .. } | GameError::Moves { number, .. } => Some(*number),
            GameError::Split(_) => None,
        }
    }

    /// The game's players and event, as far as they were read.
    pub fn names(&self) -> Names {
        match self {
            GameError::Text { names, .. } => (**names).clone(),
            GameError::Moves { record, .. } => Names::of(record),
            GameError::Split(_) => Names::default(),
        }
    }
}

impl GameText {
    /// Reads the game's record and plays it through. A game of a variant named without a
    /// position (Scrambled Eggs) is set up from the variant's array, or from that array
    /// reflected top to bottom as some sites set it up, whichever its moves fit further;
    /// see [`GameRecord::reflected_start`].
    pub fn read(&self, default: Variant) -> Result<CheckedGame, GameError> {
        let number = self.number;
        let record = self
            .parse(default)
            .map_err(|(error, names)| GameError::Text {
                number,
                names,
                error,
            })?;
        match record.check() {
            Ok(replay) => Ok(CheckedGame {
                number,
                record,
                replay,
            }),
            Err(error) => Err(GameError::Moves {
                number,
                record: Box::new(record),
                error: Box::new(error),
            }),
        }
    }

    fn parse(&self, default: Variant) -> Result<GameRecord, (RecordError, Box<Names>)> {
        let text = self.text();
        let read = |reflect| {
            match self.format {
                Format::Sgf => sgf::read(&text, default, reflect),
                Format::Pgn => pgn::read(&text, self.location.column == 1, default, reflect),
            }
            .map_err(|(error, names)| (error.shifted(self.location).in_game(self.number), names))
        };
        let ours = read(false)?;
        let reflectable = ours
            .named_start()
            .and_then(|variant| reflected_array(variant, ours.start.size()))
            .is_some();
        if !reflectable {
            return Ok(ours);
        }
        let Err(ours_stop) = ours.replay() else {
            return Ok(ours);
        };
        let Ok(theirs) = read(true) else {
            return Ok(ours);
        };
        // The same start: the record gave its position.
        if theirs.start == ours.start {
            return Ok(ours);
        }
        match theirs.replay() {
            Err(stop) if stop.ply() <= ours_stop.ply() => Ok(ours),
            _ => Ok(theirs),
        }
    }
}

/// The games of a text, SGF or PGN (see [`GameSplitter`]), one at a time, each read and
/// played through: a game that cannot be read, or holds a move that cannot be played, is
/// an error that names it ([`GameError`]), and the games after it are still read. Only
/// when the rest of the text cannot be cut into games does the last item say so
/// ([`GameError::Split`]). Games that name no variant are games of the standard rules.
pub fn read_games(text: &str) -> Games<'_> {
    read_games_as(text, Variant::Standard)
}

/// [`read_games`], with games that name no variant taken as games of `default`.
pub fn read_games_as(text: &str, default: Variant) -> Games<'_> {
    Games {
        texts: GameTexts::new(text),
        default,
    }
}

/// The iterator of [`read_games`].
pub struct Games<'a> {
    texts: GameTexts<'a>,
    default: Variant,
}

impl Iterator for Games<'_> {
    type Item = Result<CheckedGame, GameError>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(match self.texts.next()? {
            Ok(text) => text.read(self.default),
            Err(error) => Err(GameError::Split(error)),
        })
    }
}

impl fmt::Debug for Games<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Games").finish_non_exhaustive()
    }
}

/// The texts of the games of a text in memory, cut one at a time.
struct GameTexts<'a> {
    text: &'a [u8],
    given: usize,
    splitter: GameSplitter,
}

impl<'a> GameTexts<'a> {
    /// Blocks of this size are given to the splitter.
    const BLOCK: usize = 1 << 16;

    fn new(text: &'a str) -> GameTexts<'a> {
        GameTexts {
            text: text.as_bytes(),
            given: 0,
            splitter: GameSplitter::new(),
        }
    }
}

impl Iterator for GameTexts<'_> {
    type Item = Result<GameText, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(game) = self.splitter.next_game() {
                return Some(game);
            }
            if self.given == self.text.len() {
                if self.splitter.is_finished() {
                    return None;
                }
                self.splitter.finish();
                continue;
            }
            let end = (self.given + Self::BLOCK).min(self.text.len());
            self.splitter.push(&self.text[self.given..end]);
            self.given = end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_read_before_the_rest_of_the_text_is_looked_at() {
        // The text ends in a comment never closed, which nothing can be read past: the
        // games before it are given first, one at a time.
        let mut text = String::new();
        for i in 0..20_000 {
            text.push_str(&format!("[Round \"{i}\"]\n1. b1-b3 h4-f2 *\n"));
        }
        text.push_str("{never closed");
        let mut games = read_games(&text);
        let first = games.next().unwrap().unwrap();
        assert_eq!(first.record.tag("Round"), Some("0"));
        assert_eq!(
            games.texts.given,
            GameTexts::BLOCK,
            "one block of {} bytes looked at for the first game",
            text.len()
        );
        assert_eq!(games.by_ref().filter(Result::is_ok).count(), 19_999);
        assert!(games.next().is_none());
    }

    #[test]
    fn names_label_what_is_known() {
        let mut names = Names::default();
        assert_eq!(names.label(), "");
        names.event = Some("MSO".to_string());
        assert_eq!(names.label(), " (MSO)");
        names.white = Some("Heppell".to_string());
        assert_eq!(names.label(), " (? - Heppell, MSO)");
    }
}
