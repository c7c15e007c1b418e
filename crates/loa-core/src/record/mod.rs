//! Game records: SGF (`FF[4]`, `GM[9]`) and a PGN-style text format, read and written.
//!
//! [`read_games`] (or [`read_games_as`]) is how records are read: it takes every game of
//! a text, SGF or PGN (see [`Format::detect`]), one game at a time. Each item is a game
//! read and played through under its rules ([`CheckedGame`]: the [`GameRecord`] and the
//! [`Replay`], which says whether the recorded result agrees with the board), or an error
//! that names the game, its players and what is wrong ([`GameError`]): text it cannot read
//! (syntax, a move that is not move text, an unknown result, a bad start position), with
//! the line and column, or a move that cannot be played ([`ReplayError`]), with the record
//! as read. A bad game does not stop the others. Moves are matched against the position
//! as they are read, so that a capture written `d1-a4` is stored as a capture.
//!
//! A [`GameSplitter`] cuts text that comes in blocks (a file as it is read) into games, so
//! that only one game is held at a time; [`GameText::read`] reads each as `read_games`
//! does. Text that is not UTF-8 is read as Latin-1 ([`decode_text`], [`NotUtf8`]).
//!
//! ```
//! use loa_core::record::{read_games, RecordResult};
//!
//! let text = "[Black \"Kok\"]\n[White \"Heppell\"]\n[Result \"*\"]\n\n1. b1-b3 h4-f2 2. d1:a4 h2-e2 *\n";
//! let game = read_games(text).next().unwrap().unwrap();
//! assert_eq!(game.replay.game.ply(), 4);
//! assert_eq!(game.record.result, RecordResult::Unknown);
//! assert!(game.record.to_sgf().contains(";B[d1:a4]"));
//! ```

use crate::{
    BoardSize, Color, Game, GameState, Move, Outcome, Position, RuleSet, Variant, VariantPosition,
};
use std::collections::BTreeMap;
use std::fmt;

mod encoding;
mod games;
mod moves;
pub mod pgn;
mod replay;
pub mod sgf;
mod split;

pub use encoding::{decode_text, NotUtf8};
pub use games::{read_games, read_games_as, CheckedGame, GameError, Games, Names};
pub use replay::{Replay, ReplayError, ResultCheck};
pub use split::{GameSplitter, GameText, Location};

pub(crate) use moves::number as move_number;

/// The result written in a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordResult {
    BlackWins,
    WhiteWins,
    Draw,
    /// Unfinished or unknown (`*`).
    Unknown,
}

impl RecordResult {
    /// The result of a finished game won by `winner` (`None`: a draw).
    pub fn from_winner(winner: Option<Color>) -> RecordResult {
        match winner {
            Some(Color::Black) => RecordResult::BlackWins,
            Some(Color::White) => RecordResult::WhiteWins,
            None => RecordResult::Draw,
        }
    }

    /// The result of a game with this outcome (`Unknown` while it goes on).
    pub fn from_outcome(outcome: Option<Outcome>) -> RecordResult {
        outcome.map_or(RecordResult::Unknown, |o| {
            RecordResult::from_winner(o.winner)
        })
    }

    /// The PGN token: `1-0` (Black wins), `0-1` (White wins), `1/2-1/2`, `*`.
    pub const fn pgn(self) -> &'static str {
        match self {
            RecordResult::BlackWins => "1-0",
            RecordResult::WhiteWins => "0-1",
            RecordResult::Draw => "1/2-1/2",
            RecordResult::Unknown => "*",
        }
    }

    /// The SGF `RE` value without a reason: `B+`, `W+`, `0` (draw), `?`.
    pub const fn sgf(self) -> &'static str {
        match self {
            RecordResult::BlackWins => "B+",
            RecordResult::WhiteWins => "W+",
            RecordResult::Draw => "0",
            RecordResult::Unknown => "?",
        }
    }

    /// Whether the result is known, and then the winner (`None` for a draw).
    pub const fn winner(self) -> Option<Option<Color>> {
        match self {
            RecordResult::BlackWins => Some(Some(Color::Black)),
            RecordResult::WhiteWins => Some(Some(Color::White)),
            RecordResult::Draw => Some(None),
            RecordResult::Unknown => None,
        }
    }

    /// Whether this is what a game with `outcome` scores.
    pub fn matches(self, outcome: Outcome) -> bool {
        self.winner() == Some(outcome.winner)
    }

    /// In words: `Black wins`, `White wins`, `draw`, `unknown`.
    pub const fn describe(self) -> &'static str {
        match self {
            RecordResult::BlackWins => "Black wins",
            RecordResult::WhiteWins => "White wins",
            RecordResult::Draw => "draw",
            RecordResult::Unknown => "unknown",
        }
    }
}

/// Prints the PGN token (`1-0`, `0-1`, `1/2-1/2`, `*`).
impl fmt::Display for RecordResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pgn())
    }
}

/// One game as a record holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub event: Option<String>,
    /// `YYYY.MM.DD` in PGN, `YYYY-MM-DD` in SGF.
    pub date: Option<String>,
    pub black: Option<String>,
    pub white: Option<String>,
    /// The start, of the variant played; the standard start when the record names none.
    pub start: VariantPosition,
    pub rules: RuleSet,
    pub moves: Vec<Move>,
    pub result: RecordResult,
    /// Why the game ended, in words (`connection`, `time forfeit`, `illegal move d1-d4`...).
    pub termination: Option<String>,
    /// As fastchess writes it: `10+0.1` (seconds per game plus increment).
    pub time_control: Option<String>,
    /// Any other tags, kept in order.
    pub extra: Vec<(String, String)>,
    /// Comments written after moves, by the move's index (from 0): a game report's.
    /// Records are read without their comments.
    pub comments: BTreeMap<usize, String>,
}

impl GameRecord {
    /// An empty record: no names, no moves, result unknown.
    pub fn new(start: impl Into<VariantPosition>, rules: RuleSet) -> GameRecord {
        let start = start.into();
        GameRecord {
            event: None,
            date: None,
            black: None,
            white: None,
            start,
            rules,
            moves: Vec::new(),
            result: RecordResult::Unknown,
            termination: None,
            time_control: None,
            extra: Vec::new(),
            comments: BTreeMap::new(),
        }
    }

    /// A record of a game so far, with no names.
    pub fn from_game<P: GameState + Into<VariantPosition> + Copy>(game: &Game<P>) -> GameRecord {
        GameRecord {
            event: None,
            date: None,
            black: None,
            white: None,
            start: (*game.start()).into(),
            rules: game.rules(),
            moves: game.moves().collect(),
            result: RecordResult::from_outcome(game.outcome()),
            termination: game.outcome().map(|o| o.reason.to_string()),
            time_control: None,
            extra: Vec::new(),
            comments: BTreeMap::new(),
        }
    }

    /// The record as SGF (`FF[4]`, `GM[9]`); see [`sgf::write`].
    pub fn to_sgf(&self) -> String {
        sgf::write(self)
    }

    /// The record in the PGN-style format; see [`pgn::write`].
    pub fn to_pgn(&self) -> String {
        pgn::write(self)
    }

    /// The variant whose start the record starts from, if it is one.
    pub fn named_start(&self) -> Option<Variant> {
        Variant::of_start(&self.start)
    }

    /// The variant whose starting array, reflected top to bottom, the record starts from,
    /// when that is not the variant's own array: Scrambled Eggs as some sites set it up,
    /// with Black on e8.
    pub fn reflected_start(&self) -> Option<Variant> {
        let VariantPosition::Standard(start) = self.start else {
            return None;
        };
        Variant::ALL
            .into_iter()
            .find(|&v| reflected_array(v, start.size()) == Some(start))
    }

    /// The variant played: the one whose start (or its reflection, see
    /// [`GameRecord::reflected_start`]) the record starts from, else the one whose rules
    /// its start position follows.
    pub fn variant(&self) -> Variant {
        self.named_start()
            .or_else(|| self.reflected_start())
            .unwrap_or_else(|| self.start.variant())
    }

    /// Who played, where and when: `Kok (Black) - Heppell (White), MSO, 2026.11.22`, with
    /// `?` for a player not named.
    pub fn heading(&self) -> String {
        // Each as a short quote: a record may give a name of megabytes.
        fn quoted(text: &Option<String>) -> Option<String> {
            text.as_deref().map(|t| crate::excerpt(t).into_owned())
        }
        let players = format!(
            "{} (Black) - {} (White)",
            quoted(&self.black).unwrap_or("?".into()),
            quoted(&self.white).unwrap_or("?".into())
        );
        let parts: Vec<String> = [Some(players), quoted(&self.event), quoted(&self.date)]
            .into_iter()
            .flatten()
            .collect();
        parts.join(", ")
    }

    /// The start in words: a variant's array on its board (`standard 8x8`, saying when it
    /// is reflected, see [`GameRecord::reflected_start`]), or the variant and the position.
    pub fn start_text(&self) -> String {
        let size = self.start.size();
        match (self.named_start(), self.reflected_start()) {
            (Some(start), _) => format!("{start} {size}"),
            (None, Some(variant)) => format!(
                "{variant} {size}, its array reflected top to bottom (as some sites set it up): {}",
                self.start
            ),
            (None, None) => format!("{} position {}", self.variant(), self.start),
        }
    }

    /// The first value of an extra tag, by name (case-sensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.extra
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Which format a text is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    Sgf,
    Pgn,
}

impl Format {
    /// SGF when the first character other than white space (and a byte-order mark) is
    /// `(`; PGN otherwise.
    pub fn detect(text: &str) -> Format {
        let trimmed = text.trim_start_matches('\u{feff}').trim_start();
        if trimmed.starts_with('(') {
            Format::Sgf
        } else {
            Format::Pgn
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Sgf => "SGF",
            Format::Pgn => "PGN",
        })
    }
}

/// What is wrong in a record's text, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    pub format: Format,
    /// The game it belongs to, counting from 1, when the text was split into games.
    pub game: Option<usize>,
    /// Line and column (in characters), both from 1.
    pub line: usize,
    pub column: usize,
    /// Byte offset in the text.
    pub offset: usize,
    pub message: String,
}

impl RecordError {
    pub(crate) fn at(format: Format, text: &str, offset: usize, message: String) -> RecordError {
        let before = &text.as_bytes()[..offset.min(text.len())];
        RecordError::located(format, Location::START.after(before), message)
    }

    pub(crate) fn located(format: Format, location: Location, message: String) -> RecordError {
        RecordError {
            format,
            game: None,
            line: location.line,
            column: location.column,
            offset: location.offset,
            message,
        }
    }

    pub(crate) fn in_game(mut self, game: usize) -> RecordError {
        self.game = Some(game);
        self
    }

    /// The error in a text that starts at `origin` of the whole input.
    pub(crate) fn shifted(mut self, origin: Location) -> RecordError {
        if self.line == 1 {
            self.column += origin.column - 1;
        }
        self.line += origin.line - 1;
        self.offset += origin.offset;
        self
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.format)?;
        if let Some(game) = self.game {
            write!(f, " game {game},")?;
        }
        write!(
            f,
            " line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for RecordError {}

/// A variant's starting array reflected top to bottom (rank 1 and rank 8 exchanged),
/// when that is not the variant's own array: Scrambled Eggs as some sites set it up.
pub(crate) fn reflected_array(variant: Variant, size: BoardSize) -> Option<Position> {
    let own = variant.standard_start(size)?;
    let [black, white] = [Color::Black, Color::White]
        .map(|color| crate::symmetry::images(own.pieces(color), size)[1]);
    let reflected = Position::from_parts(black, white, Color::Black, size)
        .expect("a reflected array has the pieces of the array");
    (reflected != own).then_some(reflected)
}

/// Dates: `YYYY.MM.DD` (PGN, `??` for unknown parts) and `YYYY-MM-DD` (SGF, unknown parts
/// left off). Anything else is kept as it is.
pub(crate) fn date_to_pgn(date: &str) -> String {
    let parts: Vec<&str> = date.split('-').collect();
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    let ok = !parts.is_empty()
        && parts.len() <= 3
        && digits(parts[0], 4)
        && parts[1..].iter().all(|p| digits(p, 2));
    if !ok {
        return date.to_string();
    }
    let mut out: Vec<&str> = parts;
    while out.len() < 3 {
        out.push("??");
    }
    out.join(".")
}

pub(crate) fn date_to_sgf(date: &str) -> String {
    let parts: Vec<&str> = date.split('.').collect();
    let ok = parts.len() == 3
        && parts[0].len() == 4
        && parts[0].bytes().all(|b| b.is_ascii_digit())
        && parts[1..]
            .iter()
            .all(|p| p.len() == 2 && (p.bytes().all(|b| b.is_ascii_digit()) || *p == "??"));
    if !ok {
        return date.to_string();
    }
    let known: Vec<&str> = parts.into_iter().take_while(|p| *p != "??").collect();
    known.join("-")
}

/// Tags that both formats know, as (SGF property, PGN tag).
pub(crate) const SHARED_TAGS: [(&str, &str); 5] = [
    ("PC", "Site"),
    ("RO", "Round"),
    ("AN", "Annotator"),
    ("SO", "Source"),
    ("CP", "Copyright"),
];

/// What a termination text maps to in an SGF result (`B+R`, `B+T`, `B+F`).
pub(crate) fn termination_code(termination: &str) -> Option<&'static str> {
    let t = termination.to_ascii_lowercase();
    if t.contains("resign") {
        Some("R")
    } else if t.contains("time") {
        Some("T")
    } else if t.contains("forfeit") || t.contains("illegal") {
        Some("F")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_convert_both_ways() {
        assert_eq!(date_to_pgn("2026-11-22"), "2026.11.22");
        assert_eq!(date_to_pgn("2026-11"), "2026.11.??");
        assert_eq!(date_to_pgn("2026"), "2026.??.??");
        assert_eq!(date_to_pgn("1996-05,06"), "1996-05,06");
        assert_eq!(date_to_sgf("2026.11.22"), "2026-11-22");
        assert_eq!(date_to_sgf("2026.??.??"), "2026");
        assert_eq!(date_to_sgf("whenever"), "whenever");
    }

    #[test]
    fn scrambled_eggs_reflected_has_black_on_e8() {
        let reflected = reflected_array(Variant::ScrambledEggs, BoardSize::Eight).unwrap();
        assert_eq!(
            reflected.to_string(),
            "1wbwbwb1/b6w/w6b/b6w/w6b/b6w/w6b/1bwbwbw1 b"
        );
        assert_eq!(
            Variant::ScrambledEggs
                .start(BoardSize::Eight)
                .unwrap()
                .to_string(),
            "1bwbwbw1/w6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 b"
        );
        for size in [BoardSize::Six, BoardSize::Seven, BoardSize::Eight] {
            assert_eq!(reflected_array(Variant::Standard, size), None, "symmetric");
        }
        assert_eq!(reflected_array(Variant::Parachute, BoardSize::Eight), None);
        let mut record = GameRecord::new(reflected, RuleSet::Draw);
        assert_eq!(record.reflected_start(), Some(Variant::ScrambledEggs));
        assert_eq!(record.variant(), Variant::ScrambledEggs);
        assert_eq!(record.named_start(), None);
        assert!(record
            .start_text()
            .starts_with("scrambled-eggs 8x8, its array reflected top to bottom"));
        record.start = Position::startpos().into();
        assert_eq!(record.reflected_start(), None);
        assert_eq!(record.start_text(), "standard 8x8");
    }

    #[test]
    fn a_heading_names_the_players_event_and_date_known() {
        let mut record = GameRecord::new(Position::startpos(), RuleSet::Draw);
        assert_eq!(record.heading(), "? (Black) - ? (White)");
        record.black = Some("Kok".to_string());
        record.event = Some("MSO".to_string());
        record.date = Some("2026.11.22".to_string());
        assert_eq!(record.heading(), "Kok (Black) - ? (White), MSO, 2026.11.22");
        record.event = Some("x".repeat(50_000_000));
        assert!(record.heading().len() < 200, "a long name is quoted short");
    }

    #[test]
    fn errors_name_line_and_column() {
        let text = "ab\ncdé\nfgh";
        let e = RecordError::at(Format::Pgn, text, 7, "x".to_string());
        assert_eq!((e.line, e.column), (2, 4));
        assert_eq!(e.to_string(), "PGN line 2, column 4: x");
        assert_eq!(
            e.clone().in_game(3).to_string(),
            "PGN game 3, line 2, column 4: x"
        );
        let origin = Location {
            offset: 100,
            line: 10,
            column: 5,
        };
        assert_eq!(
            (e.clone().shifted(origin).line, e.shifted(origin).column),
            (11, 4)
        );
        let first_line = RecordError::at(Format::Pgn, text, 1, "x".to_string());
        let shifted = first_line.shifted(origin);
        assert_eq!((shifted.line, shifted.column, shifted.offset), (10, 6, 101));
    }
}
