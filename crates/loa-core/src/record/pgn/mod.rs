//! A PGN-style game record for Lines of Action.
//!
//! Written:
//!
//! ```text
//! [Event "MSO"]
//! [Date "2026.11.22"]
//! [Black "Kok"]
//! [White "Heppell"]
//! [Result "1-0"]
//! [Variant "Standard"]
//! [Rules "draw"]
//! [TimeControl "10+0.1"]
//! [Termination "connection"]
//!
//! 1. b1-b3 h4-f2 2. d1xa4 h2-e2 1-0
//! ```
//!
//! A start other than the 8x8 standard or Scrambled Eggs array is given as
//! `[SetUp "1"]` and `[FEN "<position text>"]`; when White moves first the moves begin
//! `1... a7-c7`. Moves are in the rule book's notation, wrapped at 80 columns, and end
//! with the result. Reading also takes `:` for captures, upper-case squares, missing
//! move numbers, comments `{...}` and `;`, variations `(...)` (skipped), NAGs `$1`,
//! `!`/`?` suffixes, and `resigns` or `forfeits` in a move's place. See
//! `docs/records.md`.

use super::moves;
use super::{date_to_pgn, GameRecord};
use crate::GameState;

mod lex;
mod read;

pub(crate) use lex::{lex, Lexed, Lexeme};
pub(crate) use read::{read, result_token};

/// Writes one game, ending with a blank line so that games can be concatenated.
pub fn write(record: &GameRecord) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        // Tag names are letters, digits and '_'.
        let mut name: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        if name.is_empty() {
            name.push('_');
        }
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    };
    if let Some(v) = &record.event {
        tag("Event", v);
    }
    if let Some(v) = &record.date {
        tag("Date", &date_to_pgn(v));
    }
    if let Some(v) = &record.black {
        tag("Black", v);
    }
    if let Some(v) = &record.white {
        tag("White", v);
    }
    tag("Result", record.result.pgn());
    let named = record.named_start();
    if named.is_some() || !record.start.variant().has_standard_rules() {
        tag("Variant", record.variant().title());
    }
    tag("Rules", record.rules.name());
    if named.is_none() || record.start.size() != crate::BoardSize::Eight {
        tag("SetUp", "1");
        tag("FEN", &record.start.to_string());
    }
    if let Some(v) = &record.time_control {
        tag("TimeControl", v);
    }
    if let Some(v) = &record.termination {
        tag("Termination", v);
    }
    for (k, v) in &record.extra {
        tag(k, v);
    }
    out.push('\n');

    let first = record.start.side_to_move();
    let mut units: Vec<String> = Vec::with_capacity(record.moves.len() + 1);
    for (i, mv) in record.moves.iter().enumerate() {
        let (n, side) = moves::number(first, i);
        // After a comment, White's move says its number again.
        let after_comment = i > 0 && record.comments.contains_key(&(i - 1));
        units.push(match side {
            crate::Color::Black => format!("{n}. {mv}"),
            crate::Color::White if i == 0 || after_comment => format!("{n}... {mv}"),
            crate::Color::White => mv.to_string(),
        });
        if let Some(comment) = record.comments.get(&i) {
            units.push(format!("{{{}}}", comment_text(comment)));
        }
    }
    units.push(record.result.pgn().to_string());
    let mut line = String::new();
    for unit in units {
        if !line.is_empty() && line.len() + 1 + unit.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&unit);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// A comment's text: it ends at the first `}`, which it cannot hold; one line.
fn comment_text(comment: &str) -> String {
    comment
        .chars()
        .map(|c| match c {
            '}' => ')',
            '{' => '(',
            '\n' | '\r' => ' ',
            c => c,
        })
        .collect()
}

/// A tag value: `\` and `"` escaped, line breaks turned into spaces.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    #[test]
    fn comments_follow_their_moves() {
        let start = Position::startpos();
        let mut record = GameRecord::new(start, crate::RuleSet::Draw);
        let mut game = crate::Game::new(start, crate::RuleSet::Draw);
        for text in ["b1-d3", "a2-c2", "g1-g3"] {
            record.moves.push(game.play_text(text).unwrap());
        }
        record
            .comments
            .insert(0, "[%eval 0.12] A {brace}\nand a line".to_string());
        record.comments.insert(2, "last".to_string());
        let pgn = write(&record);
        assert!(
            pgn.contains(
                "1. b1-d3 {[%eval 0.12] A (brace) and a line} 1... a2-c2 2. g1-g3 {last} *"
            ),
            "{pgn}"
        );
        // Read back, the moves are the same; the comments are not read.
        let read = crate::record::read_games(&pgn)
            .next()
            .unwrap()
            .unwrap()
            .record;
        assert_eq!(read.moves, record.moves);
    }

    #[test]
    fn white_first_starts_with_an_ellipsis() {
        let start: Position = "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 w"
            .parse()
            .unwrap();
        let mut record = GameRecord::new(start, crate::RuleSet::Draw);
        record.moves.push(start.parse_move("a7-c7").unwrap());
        let pgn = write(&record);
        assert!(pgn.contains("\n1... a7-c7 *\n"), "{pgn}");
        let read: Vec<GameRecord> = crate::record::read_games(&pgn)
            .map(|game| game.unwrap().record)
            .collect();
        assert_eq!(read, vec![record]);
    }
}
