//! Reading one game of PGN: its tokens, then its tags and moves.

use super::lex::{self, Lexed, Lexeme};
use crate::record::moves::{self, Ended, Ending, MoveReader};
use crate::record::{reflected_array, Format, GameRecord, Names, RecordError, RecordResult};
use crate::{BoardSize, MoveText, Position, Variant, VariantPosition};

enum Tok {
    Tag { name: String, value: String },
    Word(String),
    Result(RecordResult),
}

struct Token {
    tok: Tok,
    at: usize,
}

pub(crate) fn result_token(word: &str) -> Option<RecordResult> {
    match word {
        "1-0" => Some(RecordResult::BlackWins),
        "0-1" => Some(RecordResult::WhiteWins),
        "1/2-1/2" | "½-½" => Some(RecordResult::Draw),
        "*" => Some(RecordResult::Unknown),
        _ => None,
    }
}

/// Reads one game from its text (as [`crate::record::GameSplitter`] cuts it), which
/// starts at the start of a line or not (`line_start`). `reflect` sets up a game named by
/// its variant alone from the variant's array reflected top to bottom. The error comes
/// with the names read from the tags.
pub(crate) fn read(
    text: &str,
    line_start: bool,
    default: Variant,
    reflect: bool,
) -> Result<GameRecord, (RecordError, Box<Names>)> {
    let (tokens, error) = tokens(text, line_start);
    let failed = |error| (error, Box::new(names(&tokens)));
    match error {
        Some(error) => Err(failed(error)),
        None => read_game(text, &tokens, default, reflect).map_err(failed),
    }
}

/// The tokens of the text, and the first error among them.
fn tokens(text: &str, line_start: bool) -> (Vec<Token>, Option<RecordError>) {
    let b = text.as_bytes();
    let err = |at: usize, message: String| RecordError::at(Format::Pgn, text, at, message);
    let mut tokens = Vec::new();
    let mut error = None;
    let mut i = 0;
    while i < b.len() {
        let (lexeme, end) = match lex::lex(b, i, line_start, true) {
            Lexed::Token(lexeme, end) => (lexeme, end),
            Lexed::Unclosed { at, message } => {
                error.get_or_insert(err(at, message));
                break;
            }
            // Not at the end of the whole text.
            Lexed::More => break,
        };
        match lexeme {
            Lexeme::Skip => {}
            Lexeme::Tag { name, value } => tokens.push(Token {
                tok: Tok::Tag {
                    name: text[name].to_string(),
                    value: lex::unescape(&text[value]),
                },
                at: i,
            }),
            Lexeme::BadTag { at, message } => {
                error.get_or_insert(err(at, message));
            }
            Lexeme::Word => {
                let word = &text[i..end];
                tokens.push(Token {
                    tok: match result_token(word) {
                        Some(result) => Tok::Result(result),
                        None => Tok::Word(word.to_string()),
                    },
                    at: i,
                });
            }
            Lexeme::Stray => {
                let c = char::from(b[i]);
                error.get_or_insert(err(i, format!("'{c}' without its opening bracket")));
            }
        }
        i = end;
    }
    (tokens, error)
}

/// The players and the event the tags name.
fn names(tokens: &[Token]) -> Names {
    let mut names = Names::default();
    for token in tokens {
        if let Tok::Tag { name, value } = &token.tok {
            let field = match name.to_ascii_lowercase().as_str() {
                "black" => &mut names.black,
                "white" => &mut names.white,
                "event" => &mut names.event,
                _ => continue,
            };
            *field = non_empty(value);
        }
    }
    names
}

/// A tag's value as a record field: an empty value says nothing.
fn non_empty(value: &str) -> Option<String> {
    let v = value.trim();
    (!v.is_empty()).then(|| v.to_string())
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

fn read_game(
    text: &str,
    tokens: &[Token],
    default: Variant,
    reflect: bool,
) -> Result<GameRecord, RecordError> {
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
            record.event = non_empty(value);
        } else if known("Date") {
            record.date = non_empty(value);
        } else if known("Black") {
            record.black = non_empty(value);
        } else if known("White") {
            record.white = non_empty(value);
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
        None => match reflect
            .then(|| reflected_array(variant, BoardSize::Eight))
            .flatten()
        {
            Some(array) => array.into(),
            None => variant
                .start(BoardSize::Eight)
                .expect("every variant is played on 8x8"),
        },
    };

    let mut reader = MoveReader::new(record.start);
    let mut result_token: Option<(RecordResult, usize)> = None;
    // Who gave the game up in a move's place, how, and where.
    let mut ended: Option<Ended> = None;
    for token in tokens {
        match &token.tok {
            Tok::Tag { .. } => {}
            Tok::Result(r) => result_token = Some((*r, token.at)),
            Tok::Word(word) => {
                let (rest, skipped) = strip_number(word);
                if rest.bytes().all(|b| b == b'.') {
                    continue;
                }
                let at = token.at + skipped;
                if let Some(ended) = &ended {
                    return Err(err(
                        at,
                        format!(
                            "'{}': a move after {}, which ended the game",
                            crate::excerpt(rest),
                            ended.what
                        ),
                    ));
                }
                if let Some(how) = Ending::parse(rest) {
                    ended = Some(Ended {
                        by: reader.side(),
                        how,
                        at,
                        what: format!("{rest} at {}", reader.label()),
                    });
                    continue;
                }
                let text_move = moves::parse_text(rest)
                    .map_err(|e| err(at, format!("{}: {e}", reader.label())))?;
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
    let stated = result_tag
        .or(result_token.map(|(r, _)| r))
        .unwrap_or(RecordResult::Unknown);
    record.result = match &ended {
        Some(ended) => ended.result(stated).map_err(|e| err(ended.at, e))?,
        None => stated,
    };
    if record.termination.is_none() {
        record.termination = ended.map(|ended| ended.how.termination().to_string());
    }
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
}
