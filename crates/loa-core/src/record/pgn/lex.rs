//! The tokens of PGN text. The same lexer cuts a stream into games (where the text may
//! stop in the middle of a token, because the rest has not been read yet) and reads one
//! game's text.

use std::ops::Range;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Lexeme {
    /// White space, a comment, a variation, a NAG, a `%` line.
    Skip,
    /// `[Name "value"]`: the name, and the value as written (escapes not yet undone).
    Tag {
        name: Range<usize>,
        value: Range<usize>,
    },
    /// A tag that cannot be read: where and why. The rest of its line goes with it.
    BadTag { at: usize, message: String },
    /// A move, a move number, a result...
    Word,
    /// A closing bracket without its opening one.
    Stray,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Lexed {
    /// A token and the offset just after it.
    Token(Lexeme, usize),
    /// The text stops inside a token: the rest of the input is needed to finish it.
    More,
    /// A comment or variation that is never closed.
    Unclosed { at: usize, message: String },
}

/// The token at `i`. `line_start` says whether offset 0 is at the start of a line (`%`
/// escapes a line only there); `at_end` says the text is the whole input, otherwise a
/// token that reaches the end of the text may go on in what follows.
pub(crate) fn lex(b: &[u8], i: usize, line_start: bool, at_end: bool) -> Lexed {
    let token = |lexeme, end| Lexed::Token(lexeme, end);
    // The end of the line from `from` on, or `None` while the line may go on.
    let line_end = |from: usize| match b[from..].iter().position(|&c| c == b'\n') {
        Some(n) => Some(from + n),
        None => at_end.then_some(b.len()),
    };
    let skip_to_line_end =
        |from: usize| line_end(from).map_or(Lexed::More, |end| token(Lexeme::Skip, end));
    let at_line_start = if i == 0 {
        line_start
    } else {
        b[i - 1] == b'\n'
    };
    match b[i] {
        c if c.is_ascii_whitespace() => token(Lexeme::Skip, i + 1),
        b'%' if at_line_start => skip_to_line_end(i),
        b';' => skip_to_line_end(i),
        b'{' => match b[i..].iter().position(|&c| c == b'}') {
            Some(n) => token(Lexeme::Skip, i + n + 1),
            None => unclosed(i, at_end, "comment '{' is never closed: missing '}'"),
        },
        b'(' => variation(b, i, at_end),
        b')' | b'}' | b']' => token(Lexeme::Stray, i + 1),
        b'$' => {
            let end = i + 1 + b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if end == b.len() && !at_end {
                Lexed::More
            } else {
                token(Lexeme::Skip, end)
            }
        }
        b'[' => match tag(b, i, at_end) {
            Ok(Some(lexed)) => lexed,
            Ok(None) => Lexed::More,
            Err((at, message)) => match line_end(at) {
                Some(end) => token(Lexeme::BadTag { at, message }, end),
                None => Lexed::More,
            },
        },
        _ => {
            let end = i + b[i..].iter().take_while(|&&c| !ends_word(c)).count();
            if end == b.len() && !at_end {
                Lexed::More
            } else {
                token(Lexeme::Word, end)
            }
        }
    }
}

fn ends_word(c: u8) -> bool {
    c.is_ascii_whitespace() || matches!(c, b'[' | b']' | b'{' | b'}' | b'(' | b')' | b';' | b'$')
}

fn unclosed(at: usize, at_end: bool, message: &str) -> Lexed {
    if at_end {
        Lexed::Unclosed {
            at,
            message: message.to_string(),
        }
    } else {
        Lexed::More
    }
}

/// A variation, skipped whole: nested ones, comments and `;` lines included.
fn variation(b: &[u8], open: usize, at_end: bool) -> Lexed {
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Lexed::Token(Lexeme::Skip, i + 1);
                }
            }
            b'{' => match b[i..].iter().position(|&c| c == b'}') {
                Some(n) => i += n,
                None => break,
            },
            b';' => match b[i..].iter().position(|&c| c == b'\n') {
                Some(n) => i += n,
                None => break,
            },
            _ => {}
        }
        i += 1;
    }
    unclosed(open, at_end, "variation '(' is never closed: missing ')'")
}

/// A tag `[Name "value"]` at `open`: the token, `None` when the text stops inside it, or
/// where and why it cannot be read.
fn tag(b: &[u8], open: usize, at_end: bool) -> Result<Option<Lexed>, (usize, String)> {
    let blanks = |from: usize| {
        from + b[from..]
            .iter()
            .take_while(|&&c| c == b' ' || c == b'\t')
            .count()
    };
    let cut = |at: usize| at == b.len() && !at_end;
    let name_start = blanks(open + 1);
    let name_end = name_start
        + b[name_start..]
            .iter()
            .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_')
            .count();
    if cut(name_end) {
        return Ok(None);
    }
    if name_end == name_start {
        return Err((
            open,
            "a tag without a name: expected [Name \"value\"]".to_string(),
        ));
    }
    let name = String::from_utf8_lossy(&b[name_start..name_end]);
    let quote = blanks(name_end);
    if cut(quote) {
        return Ok(None);
    }
    if quote == b.len() || b[quote] != b'"' {
        return Err((
            quote,
            format!("tag {name}: expected its value in quotes, [{name} \"...\"]"),
        ));
    }
    let mut i = quote + 1;
    loop {
        if cut(i) {
            return Ok(None);
        }
        if i == b.len() || b[i] == b'\n' {
            return Err((
                open,
                format!("tag {name}: the value's closing '\"' is missing"),
            ));
        }
        match b[i] {
            b'\\' if cut(i + 1) => return Ok(None),
            b'\\' if i + 1 < b.len() && matches!(b[i + 1], b'"' | b'\\') => i += 2,
            b'"' => break,
            _ => i += 1,
        }
    }
    let close = blanks(i + 1);
    if cut(close) {
        return Ok(None);
    }
    if close == b.len() || b[close] != b']' {
        return Err((close, format!("tag {name}: expected ']' after the value")));
    }
    Ok(Some(Lexed::Token(
        Lexeme::Tag {
            name: name_start..name_end,
            value: quote + 1..i,
        },
        close + 1,
    )))
}

/// A tag's value with its escapes (`\"`, `\\`) undone; any other `\` is a plain one.
pub(crate) fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match chars.next_if(|&next| c == '\\' && matches!(next, '"' | '\\')) {
            Some(escaped) => out.push(escaped),
            None => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_cut_by_the_end_of_the_text_asks_for_more() {
        for cut in [
            "b1-b3",
            "[Eve",
            "[Event \"x",
            "[Event \"x\\",
            "[Event \"x\"",
            "{a",
            "(a {b",
            "; a",
            "$1",
        ] {
            assert_eq!(lex(cut.as_bytes(), 0, true, false), Lexed::More, "{cut}");
        }
        assert_eq!(lex(b"b1-b3", 0, true, true), Lexed::Token(Lexeme::Word, 5));
        assert_eq!(
            lex(b"{a", 0, true, true),
            Lexed::Unclosed {
                at: 0,
                message: "comment '{' is never closed: missing '}'".to_string()
            }
        );
        assert_eq!(
            lex(b"[Event \"a\\\"b\"] *", 0, true, false),
            Lexed::Token(
                Lexeme::Tag {
                    name: 1..6,
                    value: 8..12
                },
                14
            )
        );
        assert_eq!(unescape("a\\\"b\\\\c\\d"), "a\"b\\c\\d");
    }

    #[test]
    fn a_bad_tag_takes_the_rest_of_its_line() {
        let text = b"[Event x] 1. b1-b3\n*";
        assert_eq!(
            lex(text, 0, true, false),
            Lexed::Token(
                Lexeme::BadTag {
                    at: 7,
                    message: "tag Event: expected its value in quotes, [Event \"...\"]".to_string()
                },
                18
            )
        );
        assert_eq!(lex(&text[..15], 0, true, false), Lexed::More);
    }

    #[test]
    fn percent_escapes_a_line_only_at_its_start() {
        assert_eq!(lex(b"%x\n", 0, true, false), Lexed::Token(Lexeme::Skip, 2));
        assert_eq!(lex(b"%x\n", 0, false, false), Lexed::Token(Lexeme::Word, 2));
        assert_eq!(
            lex(b"\n%x\n", 1, false, false),
            Lexed::Token(Lexeme::Skip, 3)
        );
    }
}
