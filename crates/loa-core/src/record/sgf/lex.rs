//! The tokens of SGF text. The same lexer cuts a stream into games (where the text may
//! stop in the middle of a token, because the rest has not been read yet) and reads one
//! game's text.

/// A token inside a game tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lexeme {
    Open,
    Close,
    Node,
    /// A property: its name runs up to `name_end`, its values `[...]` follow.
    Prop {
        name_end: usize,
    },
    Space,
    /// Any other character: an error inside a game tree.
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lexed {
    /// A token and the offset just after it.
    Token(Lexeme, usize),
    /// The text stops inside a token: the rest of the input is needed to finish it.
    More,
    /// A value that is never closed: the offset of its `[`, and of its property's name.
    Unclosed { open: usize, name: usize },
}

/// The token at `i`. `at_end` says the text is the whole input; otherwise a token that
/// reaches the end of the text may go on in what follows.
pub(crate) fn lex(b: &[u8], i: usize, at_end: bool) -> Lexed {
    let token = |lexeme, end| Lexed::Token(lexeme, end);
    match b[i] {
        b'(' => token(Lexeme::Open, i + 1),
        b')' => token(Lexeme::Close, i + 1),
        b';' => token(Lexeme::Node, i + 1),
        c if c.is_ascii_whitespace() => token(Lexeme::Space, i + 1),
        c if c.is_ascii_alphabetic() => {
            let name_end = i + b[i..]
                .iter()
                .take_while(|c| c.is_ascii_alphabetic())
                .count();
            let mut end = name_end;
            loop {
                let open = end
                    + b[end..]
                        .iter()
                        .take_while(|c| c.is_ascii_whitespace())
                        .count();
                if open == b.len() && !at_end {
                    // A name, or white space before a further value, at the end of the text.
                    return Lexed::More;
                }
                if open == b.len() || b[open] != b'[' {
                    return token(Lexeme::Prop { name_end }, end);
                }
                match value_end(b, open) {
                    Some(close) => end = close + 1,
                    None if at_end => return Lexed::Unclosed { open, name: i },
                    None => return Lexed::More,
                }
            }
        }
        _ => token(Lexeme::Other, char_end(b, i)),
    }
}

/// The offset of the `]` that closes the value opened at `open`, skipping escaped
/// characters.
pub(crate) fn value_end(b: &[u8], open: usize) -> Option<usize> {
    let mut i = open + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b']' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// The values of the property whose name ends at `name_end` and which ends at `end`:
/// each value's `[` and its text, unescaped.
pub(crate) fn values(text: &str, name_end: usize, end: usize) -> Vec<(usize, String)> {
    let b = text.as_bytes();
    let mut values = Vec::new();
    let mut i = name_end;
    while i < end {
        if b[i] == b'[' {
            let close = value_end(b, i).unwrap_or(end);
            values.push((i, unescape(&text[i + 1..close])));
            i = close;
        }
        i += 1;
    }
    values
}

/// A property name as SGF means it: FF[3] allowed lower-case letters, which do not count
/// (`AddBlack` is `AB`, `GaMe` is `GM`).
pub(crate) fn ident(raw: &str) -> String {
    raw.chars().filter(char::is_ascii_uppercase).collect()
}

/// A value's text: `\` makes the next character plain, and before a line break removes
/// it (a soft line break).
fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(first @ ('\n' | '\r')) => {
                // A break is "\n", "\r", "\r\n" or "\n\r".
                let _ = chars.next_if(|&c| matches!(c, '\n' | '\r') && c != first);
            }
            Some(c) => out.push(c),
            None => {}
        }
    }
    out
}

/// The end of the character at `i`: one byte, or a UTF-8 sequence's continuation bytes
/// too.
fn char_end(b: &[u8], i: usize) -> usize {
    i + 1
        + b[i + 1..]
            .iter()
            .take(3)
            .take_while(|&&c| (0x80..0xc0).contains(&c))
            .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_cut_by_the_end_of_the_text_asks_for_more() {
        let text = b"PB[Kok]  ";
        assert_eq!(
            lex(text, 0, false),
            Lexed::More,
            "a further value may follow"
        );
        assert_eq!(
            lex(text, 0, true),
            Lexed::Token(Lexeme::Prop { name_end: 2 }, 7)
        );
        assert_eq!(lex(b"PB[Ko", 0, false), Lexed::More);
        assert_eq!(lex(b"PB[Ko", 0, true), Lexed::Unclosed { open: 2, name: 0 });
        assert_eq!(
            lex(b"PB[Ko\\", 0, false),
            Lexed::More,
            "an escape at the end"
        );
        assert_eq!(
            lex(b"AB[a1] [b2];", 0, false),
            Lexed::Token(Lexeme::Prop { name_end: 2 }, 11)
        );
        assert_eq!(
            lex("é;".as_bytes(), 0, false),
            Lexed::Token(Lexeme::Other, 2)
        );
    }

    #[test]
    fn values_are_unescaped() {
        let text = "C[a \\] b \\\\ c\\\r\nd][e]";
        let end = text.len();
        assert_eq!(
            values(text, 1, end),
            vec![(1, "a ] b \\ cd".to_string()), (18, "e".to_string())]
        );
        assert_eq!(ident("GaMe"), "GM");
        assert_eq!(ident("SetUp"), "SU");
    }
}
