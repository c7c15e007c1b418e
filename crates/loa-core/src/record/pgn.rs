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
//! move numbers, comments `{...}` and `;`, variations `(...)` (skipped), NAGs `$1` and
//! `!`/`?` suffixes. See `docs/records.md`.

use super::moves::{self, MoveReader};
use super::{date_to_pgn, Format, GameRecord, RecordError, RecordResult};
use crate::{GameState, MoveText, Position, Variant, VariantPosition};

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
        units.push(match (side, i) {
            (crate::Color::Black, _) => format!("{n}. {mv}"),
            (crate::Color::White, 0) => format!("{n}... {mv}"),
            (crate::Color::White, _) => mv.to_string(),
        });
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

/// Reads every game; the first error is returned.
pub fn parse(text: &str) -> Result<Vec<GameRecord>, RecordError> {
    parse_games(text)?.into_iter().collect()
}

/// Reads every game, each with its own result; the outer error is one that stops the
/// reading (an unclosed tag, comment or variation, or no game at all).
pub fn parse_games(text: &str) -> Result<Vec<Result<GameRecord, RecordError>>, RecordError> {
    parse_games_as(text, Variant::Standard)
}

/// [`parse_games`], with games that name no variant taken as games of `default`.
pub fn parse_games_as(
    text: &str,
    default: Variant,
) -> Result<Vec<Result<GameRecord, RecordError>>, RecordError> {
    let games = split(text)?;
    Ok(games
        .iter()
        .enumerate()
        .map(|(i, game)| read_game(text, game, default).map_err(|e| e.in_game(i + 1)))
        .collect())
}

enum Tok {
    Tag { name: String, value: String },
    Word(String),
    Result(RecordResult),
}

struct Token {
    tok: Tok,
    at: usize,
}

fn result_token(word: &str) -> Option<RecordResult> {
    match word {
        "1-0" => Some(RecordResult::BlackWins),
        "0-1" => Some(RecordResult::WhiteWins),
        "1/2-1/2" | "½-½" => Some(RecordResult::Draw),
        "*" => Some(RecordResult::Unknown),
        _ => None,
    }
}

/// Splits the text into games: a game is its tags, then its moves up to the result. A
/// tag after moves also starts a new game.
fn split(text: &str) -> Result<Vec<Vec<Token>>, RecordError> {
    let b = text.as_bytes();
    let err = |at: usize, message: String| RecordError::at(Format::Pgn, text, at, message);
    let mut games: Vec<Vec<Token>> = Vec::new();
    let mut game: Vec<Token> = Vec::new();
    let mut in_moves = false;
    // A byte-order mark is skipped.
    let mut i = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let skip_line = |mut i: usize| {
        while i < b.len() && b[i] != b'\n' {
            i += 1;
        }
        i
    };
    while i < b.len() {
        let c = b[i];
        match c {
            _ if c.is_ascii_whitespace() => i += 1,
            b'%' if i == 0 || b[i - 1] == b'\n' => i = skip_line(i),
            b';' => i = skip_line(i),
            b'{' => {
                let open = i;
                while i < b.len() && b[i] != b'}' {
                    i += 1;
                }
                if i >= b.len() {
                    return Err(err(
                        open,
                        "comment '{' is never closed: missing '}'".to_string(),
                    ));
                }
                i += 1;
            }
            b'(' => {
                // A variation: skipped, nested ones and comments included.
                let open = i;
                let mut depth = 0usize;
                while i < b.len() {
                    match b[i] {
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        b'{' => {
                            while i < b.len() && b[i] != b'}' {
                                i += 1;
                            }
                            if i >= b.len() {
                                break;
                            }
                        }
                        b';' => {
                            i = skip_line(i);
                            continue;
                        }
                        _ => {}
                    }
                    i += 1;
                }
                if i >= b.len() {
                    return Err(err(
                        open,
                        "variation '(' is never closed: missing ')'".to_string(),
                    ));
                }
                i += 1;
            }
            b')' | b'}' | b']' => {
                return Err(err(
                    i,
                    format!("'{}' without its opening bracket", c as char),
                ));
            }
            b'$' => {
                i += 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
            }
            b'[' => {
                let open = i;
                i += 1;
                while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                    i += 1;
                }
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let name = text[start..i].to_string();
                if name.is_empty() {
                    return Err(err(
                        open,
                        "a tag without a name: expected [Name \"value\"]".to_string(),
                    ));
                }
                while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                    i += 1;
                }
                if i >= b.len() || b[i] != b'"' {
                    return Err(err(
                        i,
                        format!("tag {name}: expected its value in quotes, [{name} \"...\"]"),
                    ));
                }
                i += 1;
                let mut value = String::new();
                let mut seg = i;
                loop {
                    if i >= b.len() || b[i] == b'\n' {
                        return Err(err(
                            open,
                            format!("tag {name}: the value's closing '\"' is missing"),
                        ));
                    }
                    match b[i] {
                        b'\\' if i + 1 < b.len() && (b[i + 1] == b'"' || b[i + 1] == b'\\') => {
                            value.push_str(&text[seg..i]);
                            value.push(b[i + 1] as char);
                            i += 2;
                            seg = i;
                        }
                        b'"' => {
                            value.push_str(&text[seg..i]);
                            i += 1;
                            break;
                        }
                        _ => i += 1,
                    }
                }
                while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                    i += 1;
                }
                if i >= b.len() || b[i] != b']' {
                    return Err(err(i, format!("tag {name}: expected ']' after the value")));
                }
                i += 1;
                if in_moves {
                    games.push(std::mem::take(&mut game));
                    in_moves = false;
                }
                game.push(Token {
                    tok: Tok::Tag { name, value },
                    at: open,
                });
            }
            _ => {
                let start = i;
                while i < b.len()
                    && !b[i].is_ascii_whitespace()
                    && !matches!(b[i], b'[' | b']' | b'{' | b'}' | b'(' | b')' | b';' | b'$')
                {
                    i += 1;
                }
                let word = &text[start..i];
                match result_token(word) {
                    Some(result) => {
                        game.push(Token {
                            tok: Tok::Result(result),
                            at: start,
                        });
                        games.push(std::mem::take(&mut game));
                        in_moves = false;
                    }
                    None => {
                        game.push(Token {
                            tok: Tok::Word(word.to_string()),
                            at: start,
                        });
                        in_moves = true;
                    }
                }
            }
        }
    }
    if !game.is_empty() {
        games.push(game);
    }
    if games.is_empty() {
        return Err(err(
            0,
            "no game found: expected tags [Name \"value\"] or moves".to_string(),
        ));
    }
    Ok(games)
}

/// Drops a leading move number (`12.`, `12...`, or a bare `12`); returns what follows and
/// its offset in the word.
fn strip_number(word: &str) -> (&str, usize) {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return (word, 0);
    }
    let rest = &word[digits..];
    let dots = rest.bytes().take_while(|&b| b == b'.').count();
    if dots == 0 && !rest.is_empty() {
        return (word, 0);
    }
    (&rest[dots..], digits + dots)
}

fn parse_result_tag(value: &str) -> Option<RecordResult> {
    match value.trim() {
        "?" => Some(RecordResult::Unknown),
        other => result_token(other),
    }
}

fn read_game(text: &str, tokens: &[Token], default: Variant) -> Result<GameRecord, RecordError> {
    let err = |at: usize, message: String| RecordError::at(Format::Pgn, text, at, message);
    let mut record = GameRecord::new(Position::startpos(), crate::RuleSet::Draw);
    let mut fen: Option<(&str, usize)> = None;
    let mut variant: Option<(&str, usize)> = None;
    let mut result_tag: Option<RecordResult> = None;
    for token in tokens {
        let Tok::Tag { name, value } = &token.tok else {
            continue;
        };
        let at = token.at;
        let known = |s: &str| name.eq_ignore_ascii_case(s);
        if known("Event") {
            record.event = Some(value.clone());
        } else if known("Date") {
            record.date = Some(value.clone());
        } else if known("Black") {
            record.black = Some(value.clone());
        } else if known("White") {
            record.white = Some(value.clone());
        } else if known("Result") {
            result_tag = Some(parse_result_tag(value).ok_or_else(|| {
                err(
                    at,
                    format!(
                        "tag Result: unknown result '{value}' (expected 1-0, 0-1, 1/2-1/2 or *)"
                    ),
                )
            })?);
        } else if known("Variant") {
            variant = Some((value, at));
        } else if known("Rules") {
            record.rules = value
                .trim()
                .parse()
                .map_err(|e| err(at, format!("tag Rules: {e}")))?;
        } else if known("FEN") {
            fen = Some((value, at));
        } else if known("SetUp") {
            // Implied by FEN.
        } else if known("TimeControl") {
            record.time_control = Some(value.clone());
        } else if known("Termination") {
            record.termination = Some(value.clone());
        } else {
            record.extra.push((name.clone(), value.clone()));
        }
    }
    let variant = match variant {
        None => default,
        Some((v, at)) => match v.trim().to_ascii_lowercase().as_str() {
            "loa" | "lines of action" | "lines-of-action" | "" => Variant::Standard,
            _ => v
                .trim()
                .parse::<Variant>()
                .map_err(|e| err(at, format!("tag Variant: {e}; other starts need a FEN tag")))?,
        },
    };
    record.start = match fen {
        Some((fen, at)) => VariantPosition::parse(variant, fen.trim()).map_err(|e| {
            err(
                at,
                format!(
                    "tag FEN: bad position text '{}' for {}: {e}",
                    crate::excerpt(fen),
                    variant.title()
                ),
            )
        })?,
        None => variant
            .start(crate::BoardSize::Eight)
            .expect("every variant is played on 8x8"),
    };

    let mut reader = MoveReader::new(record.start);
    let mut result_token: Option<(RecordResult, usize)> = None;
    for token in tokens {
        match &token.tok {
            Tok::Tag { .. } => {}
            Tok::Result(r) => result_token = Some((*r, token.at)),
            Tok::Word(word) => {
                let (rest, skipped) = strip_number(word);
                if rest.bytes().all(|b| b == b'.') {
                    continue;
                }
                let text_move = moves::parse_text(rest)
                    .map_err(|e| err(token.at + skipped, format!("{}: {e}", reader.label())))?;
                if matches!(text_move.step, MoveText::Step { .. }) {
                    // A forced pass left out of the record.
                    reader.pass_if_forced();
                }
                reader.push(text_move);
            }
        }
    }
    record.moves = reader.moves;
    if let (Some(tag), Some((token, at))) = (result_tag, result_token) {
        // `*` after the moves does not contradict a known result in the tag.
        if tag != token && token != RecordResult::Unknown {
            return Err(err(
                at,
                format!("the result {token} after the moves differs from the Result tag \"{tag}\""),
            ));
        }
    }
    record.result = result_tag
        .or(result_token.map(|(r, _)| r))
        .unwrap_or(RecordResult::Unknown);
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_stripped() {
        assert_eq!(strip_number("12."), ("", 3));
        assert_eq!(strip_number("1...a7-c7"), ("a7-c7", 4));
        assert_eq!(strip_number("3"), ("", 1));
        assert_eq!(strip_number("b1-b3"), ("b1-b3", 0));
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
        assert_eq!(parse(&pgn).unwrap(), vec![record]);
    }
}
