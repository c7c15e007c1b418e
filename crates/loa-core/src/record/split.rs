//! Cutting record text into games one at a time. The text comes in blocks, as it is read,
//! and only the game being cut is held, so a file of any number of games is read in the
//! memory of one game. Reading a game's text is [`GameText::read`].

use super::encoding::{latin1, NotUtf8};
use super::{pgn, sgf, Format, RecordError};
use std::borrow::Cow;

/// A place in a text: the byte offset from 0, the line and the column (in characters)
/// from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    pub offset: usize,
    pub line: usize,
    pub column: usize,
}

impl Location {
    pub const START: Location = Location {
        offset: 0,
        line: 1,
        column: 1,
    };

    /// The place just after `bytes`, which start here.
    pub fn after(self, bytes: &[u8]) -> Location {
        // A character is a byte that does not continue a UTF-8 sequence.
        let chars = |b: &[u8]| b.iter().filter(|&&c| !(0x80..0xc0).contains(&c)).count();
        let offset = self.offset + bytes.len();
        match bytes.iter().rposition(|&c| c == b'\n') {
            Some(last) => Location {
                offset,
                line: self.line + bytes.iter().filter(|&&c| c == b'\n').count(),
                column: 1 + chars(&bytes[last + 1..]),
            },
            None => Location {
                offset,
                line: self.line,
                column: self.column + chars(bytes),
            },
        }
    }
}

/// One game's text, as [`GameSplitter`] cuts it: what came after the game before (white
/// space, comments, text between SGF game trees) and the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameText {
    /// The game's number in the input, from 1.
    pub number: usize,
    pub format: Format,
    /// Where the text starts in the input.
    pub location: Location,
    bytes: Vec<u8>,
}

impl GameText {
    /// The text: UTF-8, or else Latin-1, the encoding of many old records (see
    /// [`GameText::not_utf8`]).
    pub fn text(&self) -> Cow<'_, str> {
        match std::str::from_utf8(&self.bytes) {
            Ok(text) => Cow::Borrowed(text),
            Err(_) => Cow::Owned(latin1(&self.bytes)),
        }
    }

    /// The first byte that is not UTF-8 and where it stands in the input, when the text
    /// is read as Latin-1.
    pub fn not_utf8(&self) -> Option<NotUtf8> {
        NotUtf8::find(&self.bytes, self.location)
    }
}

/// How far the lexing got.
enum Step {
    /// A game ends at this offset of the held text.
    Game(usize),
    /// The held text stops inside a token or a game.
    More,
    /// The input has ended, and no game is left.
    End,
    /// The rest cannot be cut into games: where (in the held text) and why.
    Fatal(usize, String),
}

/// Cuts text into games: [`GameSplitter::push`] the input's bytes as they come,
/// [`GameSplitter::finish`] at its end, and take the games with
/// [`GameSplitter::next_game`].
///
/// The format is SGF when the first character other than white space (and a byte-order
/// mark) is `(`, PGN otherwise, unless it is given. A game ends where it ends in its
/// format: the `)` that closes an SGF game tree; in PGN the result token after the moves,
/// or a tag after moves. Only a comment, variation, value or game tree that is never
/// closed (the rest of the input is inside it), or an input without a game, stops the
/// cutting: every other error belongs to its game and is found when that game is read.
#[derive(Clone, Debug)]
pub struct GameSplitter {
    format: Option<Format>,
    /// The input from the start of the game being cut (at `held`) on.
    buf: Vec<u8>,
    held: usize,
    /// How far the held text is lexed, at the start of a token.
    pos: usize,
    /// Where `buf[held]` stands in the input.
    location: Location,
    /// When the lexer asked for more: how long `buf` must grow before it is asked again,
    /// by half the token it stopped in, so that a long token is lexed only a few times.
    waiting: Option<usize>,
    /// Whether a byte-order mark has been looked for.
    started: bool,
    finished: bool,
    done: bool,
    games: usize,
    /// PGN: moves have been read in the game being cut; anything of a game has.
    in_moves: bool,
    has_game: bool,
    /// SGF: how deep in the game tree, and where the tree opens (in the held text).
    depth: usize,
    tree_at: usize,
}

impl Default for GameSplitter {
    fn default() -> Self {
        GameSplitter::new()
    }
}

impl GameSplitter {
    /// A splitter that finds the format from the text.
    pub fn new() -> GameSplitter {
        GameSplitter {
            format: None,
            buf: Vec::new(),
            held: 0,
            pos: 0,
            location: Location::START,
            waiting: None,
            started: false,
            finished: false,
            done: false,
            games: 0,
            in_moves: false,
            has_game: false,
            depth: 0,
            tree_at: 0,
        }
    }

    /// A splitter for text in this format.
    pub fn of_format(format: Format) -> GameSplitter {
        GameSplitter {
            format: Some(format),
            ..GameSplitter::new()
        }
    }

    /// Adds the next bytes of the input.
    pub fn push(&mut self, bytes: &[u8]) {
        if self.held > 0 {
            self.buf.drain(..self.held);
            self.pos -= self.held;
            if self.depth > 0 {
                self.tree_at -= self.held;
            }
            self.waiting = self.waiting.map(|len| len - self.held);
            self.held = 0;
        }
        self.buf.extend_from_slice(bytes);
    }

    /// Says that the input has ended.
    pub fn finish(&mut self) {
        self.finished = true;
        self.waiting = None;
    }

    /// Whether [`GameSplitter::finish`] has been called.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// How many bytes are held: the game being cut, and what has been pushed after it.
    pub fn held(&self) -> usize {
        self.buf.len() - self.held
    }

    /// The next game's text, or its error when the rest of the input cannot be cut into
    /// games (nothing follows it). `None` means that more input is needed (a game may be
    /// given only once some input after it has been pushed), or after
    /// [`GameSplitter::finish`], that every game has been given.
    pub fn next_game(&mut self) -> Option<Result<GameText, RecordError>> {
        if self.done || self.waiting.is_some_and(|len| self.buf.len() < len) {
            return None;
        }
        self.waiting = None;
        if !self.started {
            const BOM: &[u8] = b"\xef\xbb\xbf";
            if !self.finished && self.buf.len() < BOM.len() && BOM.starts_with(&self.buf) {
                return None;
            }
            if self.buf.starts_with(BOM) {
                // It takes no column.
                self.held = BOM.len();
                self.pos = BOM.len();
                self.location.offset = BOM.len();
            }
            self.started = true;
        }
        let format = match self.format {
            Some(format) => format,
            None => match self.buf[self.held..]
                .iter()
                .find(|c| !c.is_ascii_whitespace())
            {
                Some(b'(') => Format::Sgf,
                Some(_) => Format::Pgn,
                None if self.finished => Format::Pgn,
                None => return None,
            },
        };
        self.format = Some(format);
        let step = match format {
            Format::Sgf => self.sgf_step(),
            Format::Pgn => self.pgn_step(),
        };
        match step {
            Step::Game(end) => Some(Ok(self.cut(end))),
            Step::More => {
                self.waiting = Some(self.buf.len() + (self.buf.len() - self.pos) / 2);
                None
            }
            Step::End if self.games > 0 => {
                self.done = true;
                None
            }
            Step::End => {
                let message = match format {
                    Format::Sgf => {
                        "no game found: an SGF collection is one or more game trees '(;...)'"
                    }
                    Format::Pgn => "no game found: expected tags [Name \"value\"] or moves",
                };
                self.fail(self.held, message.to_string())
            }
            Step::Fatal(at, message) => self.fail(at, message),
        }
    }

    /// The held text up to `end` as the next game.
    fn cut(&mut self, end: usize) -> GameText {
        let bytes = self.buf[self.held..end].to_vec();
        self.games += 1;
        let text = GameText {
            number: self.games,
            format: self.format.expect("known before cutting"),
            location: self.location,
            bytes,
        };
        self.location = self.location.after(&text.bytes);
        self.held = end;
        self.has_game = false;
        self.in_moves = false;
        text
    }

    fn fail(&mut self, at: usize, message: String) -> Option<Result<GameText, RecordError>> {
        self.done = true;
        let location = self.location.after(&self.buf[self.held..at]);
        Some(Err(RecordError::located(
            self.format.expect("known before cutting"),
            location,
            message,
        )))
    }

    fn sgf_step(&mut self) -> Step {
        let b = &self.buf;
        loop {
            if self.depth == 0 {
                match b[self.pos..].iter().position(|&c| c == b'(') {
                    Some(n) => {
                        self.tree_at = self.pos + n;
                        self.pos = self.tree_at + 1;
                        self.depth = 1;
                    }
                    None => {
                        self.pos = b.len();
                        return if self.finished { Step::End } else { Step::More };
                    }
                }
                continue;
            }
            if self.pos == b.len() {
                return if self.finished {
                    Step::Fatal(
                        self.tree_at,
                        "the game tree opened here is never closed: missing ')'".to_string(),
                    )
                } else {
                    Step::More
                };
            }
            match sgf::lex(b, self.pos, self.finished) {
                sgf::Lexed::Token(lexeme, end) => {
                    self.pos = end;
                    match lexeme {
                        sgf::Lexeme::Open => self.depth += 1,
                        sgf::Lexeme::Close => {
                            self.depth -= 1;
                            if self.depth == 0 {
                                return Step::Game(end);
                            }
                        }
                        _ => {}
                    }
                }
                sgf::Lexed::More => return Step::More,
                sgf::Lexed::Unclosed { open, name } => {
                    let ident = sgf::ident(&String::from_utf8_lossy(&b[name..open]));
                    return Step::Fatal(
                        open,
                        format!("the value of property {ident} is never closed: missing ']'"),
                    );
                }
            }
        }
    }

    fn pgn_step(&mut self) -> Step {
        let held = &self.buf[self.held..];
        let line_start = self.location.column == 1;
        loop {
            let i = self.pos - self.held;
            if i == held.len() {
                return match (self.finished, self.has_game) {
                    (false, _) => Step::More,
                    (true, true) => Step::Game(self.buf.len()),
                    (true, false) => Step::End,
                };
            }
            match pgn::lex(held, i, line_start, self.finished) {
                pgn::Lexed::Token(lexeme, end) => {
                    match lexeme {
                        pgn::Lexeme::Skip => {}
                        pgn::Lexeme::Tag { .. } | pgn::Lexeme::BadTag { .. } if self.in_moves => {
                            // A tag after moves starts the next game.
                            return Step::Game(self.pos);
                        }
                        pgn::Lexeme::Word => {
                            self.has_game = true;
                            let word = std::str::from_utf8(&held[i..end]).ok();
                            if word.and_then(pgn::result_token).is_some() {
                                self.pos = self.held + end;
                                return Step::Game(self.pos);
                            }
                            self.in_moves = true;
                        }
                        _ => self.has_game = true,
                    }
                    self.pos = self.held + end;
                }
                pgn::Lexed::More => return Step::More,
                pgn::Lexed::Unclosed { at, message } => {
                    return Step::Fatal(self.held + at, message)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut_all(splitter: &mut GameSplitter) -> Vec<Result<GameText, RecordError>> {
        std::iter::from_fn(|| splitter.next_game()).collect()
    }

    fn texts(games: &[Result<GameText, RecordError>]) -> Vec<String> {
        games
            .iter()
            .map(|g| match g {
                Ok(text) => text.text().into_owned(),
                Err(e) => format!("error: {e}"),
            })
            .collect()
    }

    #[test]
    fn a_game_is_given_as_soon_as_it_is_whole() {
        let mut splitter = GameSplitter::new();
        splitter.push(b"[Event \"a\"]\n1. b1-b3 *\n[Event \"b\"]\n1. c1");
        let first = splitter.next_game().unwrap().unwrap();
        assert_eq!(first.text(), "[Event \"a\"]\n1. b1-b3 *");
        assert_eq!((first.number, first.format), (1, Format::Pgn));
        assert!(
            splitter.next_game().is_none(),
            "the second game is not whole"
        );
        splitter.push(b"-c3 1-0\n\n");
        let second = splitter.next_game().unwrap().unwrap();
        assert_eq!(second.text(), "\n[Event \"b\"]\n1. c1-c3 1-0");
        assert_eq!(
            second.location,
            Location {
                offset: 22,
                line: 2,
                column: 11
            }
        );
        assert_eq!(
            splitter.held(),
            2,
            "only what follows the second game is held"
        );
        assert!(splitter.next_game().is_none());
        splitter.finish();
        assert!(splitter.next_game().is_none(), "white space is no game");
    }

    #[test]
    fn memory_follows_one_game_not_the_input() {
        let game = |i: usize| {
            format!(
                "[Event \"Game {i}\"]\n[Black \"A\"]\n[White \"B\"]\n\n\
                 1. b1-b3 h4-f2 2. d1xa4 h2-e2 {{a comment}} 3. c1-c3 *\n\n"
            )
        };
        let longest = game(99_999).len();
        let block = 4096;
        let mut splitter = GameSplitter::new();
        let (mut pushed, mut cut, mut most_held) = (0, 0, 0);
        let mut pending = String::new();
        for i in 0..100_000 {
            pending.push_str(&game(i));
            while pending.len() >= block {
                let rest = pending.split_off(block);
                splitter.push(pending.as_bytes());
                pushed += pending.len();
                pending = rest;
                while let Some(text) = splitter.next_game() {
                    let text = text.unwrap();
                    cut += 1;
                    assert_eq!(text.number, cut);
                    assert!(text
                        .text()
                        .contains(&format!("[Event \"Game {}\"]", cut - 1)));
                }
                most_held = most_held.max(splitter.held());
            }
        }
        splitter.push(pending.as_bytes());
        pushed += pending.len();
        splitter.finish();
        cut += std::iter::from_fn(|| splitter.next_game()).count();
        assert_eq!(cut, 100_000);
        assert!(pushed > 7_000_000, "{pushed} bytes");
        assert!(
            most_held < block + longest,
            "{most_held} bytes held at most, more than a block and a game"
        );
    }

    #[test]
    fn blocks_of_any_size_cut_the_same_games() {
        let text =
            "\u{feff}[Event \"a ]\\\" (\"]\n1. b1-b3 {c}\n(2. x) h4-f2 $1 %no\n% line\n; c\n\
            2. d1xa4 [Event \"b\"] 1. b1-b3 ½-½ } 1-0 [Event x]\n1. a2-a3\n";
        let sgf = "junk (;GM[9]C[a (\\] b]\n(;B[b1-b3])(;B[c1-c3]))é(;PB[x];B[d1-d3])\n";
        let splitter = |format| match format {
            Format::Pgn => GameSplitter::new(),
            Format::Sgf => GameSplitter::of_format(Format::Sgf),
        };
        for (text, format) in [(text, Format::Pgn), (sgf, Format::Sgf)] {
            let mut whole = splitter(format);
            whole.push(text.as_bytes());
            whole.finish();
            let expected = cut_all(&mut whole);
            assert_eq!(expected.len(), 4 - 2 * usize::from(format == Format::Sgf));
            for block in 1..8 {
                let mut splitter = splitter(format);
                let mut got = Vec::new();
                for chunk in text.as_bytes().chunks(block) {
                    splitter.push(chunk);
                    got.extend(std::iter::from_fn(|| splitter.next_game()));
                }
                splitter.finish();
                got.extend(cut_all(&mut splitter));
                assert_eq!(got, expected, "blocks of {block}");
            }
        }
        let mut splitter = GameSplitter::new();
        splitter.push(text.as_bytes());
        splitter.finish();
        assert_eq!(
            texts(&cut_all(&mut splitter)),
            [
                "[Event \"a ]\\\" (\"]\n1. b1-b3 {c}\n(2. x) h4-f2 $1 %no\n% line\n; c\n2. d1xa4 ",
                "[Event \"b\"] 1. b1-b3 ½-½",
                " } 1-0",
                " [Event x]\n1. a2-a3\n",
            ]
        );
        let mut splitter = GameSplitter::of_format(Format::Sgf);
        splitter.push(sgf.as_bytes());
        splitter.finish();
        assert_eq!(
            texts(&cut_all(&mut splitter)),
            [
                "junk (;GM[9]C[a (\\] b]\n(;B[b1-b3])(;B[c1-c3]))",
                "é(;PB[x];B[d1-d3])",
            ]
        );
    }

    #[test]
    fn only_what_is_never_closed_stops_the_cutting() {
        for (text, expected) in [
            ("", "error: PGN line 1, column 1: no game found"),
            (
                "(;B[b1-b3])\n(;C[x",
                "error: SGF line 2, column 4: the value of property C is never closed",
            ),
            (
                "(;B[b1-b3])\n (;C[x]",
                "error: SGF line 2, column 2: the game tree opened here is never closed",
            ),
            (
                "1. b1-b3 *\n{x",
                "error: PGN line 2, column 1: comment '{' is never closed",
            ),
            (
                "1. b1-b3 *\n (x",
                "error: PGN line 2, column 2: variation '(' is never closed",
            ),
        ] {
            let mut splitter = GameSplitter::new();
            splitter.push(text.as_bytes());
            splitter.finish();
            let got = texts(&cut_all(&mut splitter));
            let last = got.last().unwrap();
            assert!(last.starts_with(expected), "{text:?}: {last}");
        }
        let mut splitter = GameSplitter::of_format(Format::Sgf);
        splitter.push(b"  ");
        splitter.finish();
        let err = splitter.next_game().unwrap().unwrap_err();
        assert!(
            err.to_string()
                .starts_with("SGF line 1, column 1: no game found"),
            "{err}"
        );
        assert!(splitter.next_game().is_none(), "nothing follows");
    }

    #[test]
    fn latin1_is_located() {
        let mut splitter = GameSplitter::new();
        splitter.push(b"1. b1-b3 *\n[Black \"Bj\xf6rn\"] *");
        splitter.finish();
        let games = cut_all(&mut splitter);
        let second = games[1].as_ref().unwrap();
        assert_eq!(second.text(), "\n[Black \"Björn\"] *");
        assert_eq!(
            second.not_utf8(),
            Some(NotUtf8 {
                at: Location {
                    offset: 21,
                    line: 2,
                    column: 11
                },
                byte: 0xf6
            })
        );
        assert_eq!(games[0].as_ref().unwrap().not_utf8(), None);
    }
}
