//! What a GUI or a match runner sends an engine.

use crate::{Go, ProtocolError};
use loa_core::excerpt;
use std::fmt;
use std::str::FromStr;

/// The deepest `perft` accepted: far beyond any count that could finish.
pub const MAX_PERFT_DEPTH: u32 = 64;

const COMMANDS: &str = "ugi, uci, isready, setoption, uginewgame, ucinewgame, position, go, \
stop, quit, query, validmoves, perft, d, eval";

/// One command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Ugi,
    Uci,
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// `uginewgame`, or `ucinewgame` when `uci`.
    NewGame {
        uci: bool,
    },
    /// `position startpos|fen <text> [moves <m1> ...]`; the moves as written.
    Position {
        start: Start,
        moves: Vec<String>,
    },
    Go(Go),
    Stop,
    Quit,
    Query(Query),
    ValidMoves,
    Perft(u32),
    /// `d`: the board and the state.
    Display,
    Eval,
}

/// Where `position` starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The start of the variant being played.
    StartPos,
    /// A position text, its fields joined by single spaces.
    Fen(String),
}

/// `query gameover|p1turn|result`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    GameOver,
    P1Turn,
    Result,
}

impl FromStr for Command {
    type Err = ProtocolError;

    /// Reads a line (white space around and between words is free; command names and
    /// keywords in any case). A blank line is an error: callers skip them.
    fn from_str(line: &str) -> Result<Command, ProtocolError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&first, args)) = words.split_first() else {
            return Err(ProtocolError::new("empty command"));
        };
        let name = first.to_ascii_lowercase();
        let bare = |command: Command| no_args(&name, args).map(|()| command);
        match name.as_str() {
            "ugi" => bare(Command::Ugi),
            "uci" => bare(Command::Uci),
            "isready" => bare(Command::IsReady),
            "uginewgame" => bare(Command::NewGame { uci: false }),
            "ucinewgame" => bare(Command::NewGame { uci: true }),
            "stop" => bare(Command::Stop),
            "quit" => bare(Command::Quit),
            "validmoves" => bare(Command::ValidMoves),
            "d" => bare(Command::Display),
            "eval" => bare(Command::Eval),
            "setoption" => parse_setoption(args),
            "position" => parse_position(args),
            "go" => Go::parse(args).map(Command::Go),
            "query" => parse_query(args),
            "perft" => parse_perft(args),
            _ => Err(ProtocolError::new(format!(
                "unknown command '{}' (commands: {COMMANDS})",
                excerpt(first)
            ))),
        }
    }
}

/// Checks that a command that takes no arguments got none.
fn no_args(command: &str, args: &[&str]) -> Result<(), ProtocolError> {
    match args.first() {
        None => Ok(()),
        Some(extra) => Err(ProtocolError::new(format!(
            "'{command}' takes no arguments, found '{}'",
            excerpt(extra)
        ))),
    }
}

/// `name <Name> value <value>`; names and values may hold spaces.
fn parse_setoption(args: &[&str]) -> Result<Command, ProtocolError> {
    let usage = "expected 'setoption name <name> value <value>'";
    match args.first() {
        Some(word) if word.eq_ignore_ascii_case("name") => {}
        Some(word) => {
            return Err(ProtocolError::new(format!(
                "setoption: found '{}': {usage}",
                excerpt(word)
            )))
        }
        None => return Err(ProtocolError::new(format!("setoption: {usage}"))),
    }
    let value_at = args
        .iter()
        .position(|t| t.eq_ignore_ascii_case("value"))
        .unwrap_or(args.len());
    let name = args[1..value_at].join(" ");
    if name.is_empty() {
        return Err(ProtocolError::new(format!(
            "setoption: the option name is missing: {usage}"
        )));
    }
    let value = args.get(value_at + 1..).map(|words| words.join(" "));
    Ok(Command::SetOption {
        name,
        value: value.filter(|v| !v.is_empty()),
    })
}

/// `startpos [moves ...]` or `fen <text> [moves ...]`.
fn parse_position(args: &[&str]) -> Result<Command, ProtocolError> {
    let usage = "expected 'position startpos [moves ...]' or 'position fen <position text> \
                 [moves ...]'";
    let Some((kind, rest)) = args.split_first() else {
        return Err(ProtocolError::new(format!("position: {usage}")));
    };
    let (start, rest) = match kind.to_ascii_lowercase().as_str() {
        "startpos" => (Start::StartPos, rest),
        "fen" => {
            let end = rest
                .iter()
                .position(|t| t.eq_ignore_ascii_case("moves"))
                .unwrap_or(rest.len());
            (Start::Fen(rest[..end].join(" ")), &rest[end..])
        }
        _ => {
            return Err(ProtocolError::new(format!(
                "position: unknown kind '{}': {usage}",
                excerpt(kind)
            )))
        }
    };
    let moves = match rest.split_first() {
        None => &[][..],
        Some((word, moves)) if word.eq_ignore_ascii_case("moves") => moves,
        Some((word, _)) => {
            return Err(ProtocolError::new(format!(
                "position: expected 'moves' after the position, found '{}'",
                excerpt(word)
            )))
        }
    };
    Ok(Command::Position {
        start,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

fn parse_query(args: &[&str]) -> Result<Command, ProtocolError> {
    let usage = "expected 'query gameover', 'query p1turn' or 'query result'";
    let [what] = args else {
        return Err(ProtocolError::new(format!("query: {usage}")));
    };
    let query = match what.to_ascii_lowercase().as_str() {
        "gameover" => Query::GameOver,
        "p1turn" => Query::P1Turn,
        "result" => Query::Result,
        _ => {
            return Err(ProtocolError::new(format!(
                "query: unknown query '{}': {usage}",
                excerpt(what)
            )))
        }
    };
    Ok(Command::Query(query))
}

fn parse_perft(args: &[&str]) -> Result<Command, ProtocolError> {
    let [depth] = args else {
        return Err(ProtocolError::new("perft: expected 'perft <depth>'"));
    };
    match depth.parse::<u32>() {
        Ok(depth) if depth <= MAX_PERFT_DEPTH => Ok(Command::Perft(depth)),
        _ if depth.bytes().all(|b| b.is_ascii_digit()) => Err(ProtocolError::new(format!(
            "perft: depth {} is out of range: at most {MAX_PERFT_DEPTH}",
            excerpt(depth)
        ))),
        _ => Err(ProtocolError::new(format!(
            "perft: depth '{}' is not a whole number",
            excerpt(depth)
        ))),
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Ugi => f.write_str("ugi"),
            Command::Uci => f.write_str("uci"),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(value) => write!(f, " value {value}"),
                    None => Ok(()),
                }
            }
            Command::NewGame { uci: false } => f.write_str("uginewgame"),
            Command::NewGame { uci: true } => f.write_str("ucinewgame"),
            Command::Position { start, moves } => {
                match start {
                    Start::StartPos => f.write_str("position startpos")?,
                    Start::Fen(text) => write!(f, "position fen {text}")?,
                }
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            Command::Go(go) => write!(f, "{go}"),
            Command::Stop => f.write_str("stop"),
            Command::Quit => f.write_str("quit"),
            Command::Query(query) => f.write_str(match query {
                Query::GameOver => "query gameover",
                Query::P1Turn => "query p1turn",
                Query::Result => "query result",
            }),
            Command::ValidMoves => f.write_str("validmoves"),
            Command::Perft(depth) => write!(f, "perft {depth}"),
            Command::Display => f.write_str("d"),
            Command::Eval => f.write_str("eval"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Command, String> {
        line.parse::<Command>().map_err(|e| e.0)
    }

    #[test]
    fn reads_every_command() {
        assert_eq!(parse(" ISREADY "), Ok(Command::IsReady));
        assert_eq!(
            parse("setoption name Move Overhead value 30"),
            Ok(Command::SetOption {
                name: "Move Overhead".to_string(),
                value: Some("30".to_string())
            })
        );
        assert_eq!(
            parse("position fen 1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b MOVES b1d3"),
            Ok(Command::Position {
                start: Start::Fen("1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b".to_string()),
                moves: vec!["b1d3".to_string()]
            })
        );
        assert_eq!(parse("query P1TURN"), Ok(Command::Query(Query::P1Turn)));
        assert_eq!(parse("perft 3"), Ok(Command::Perft(3)));
    }

    #[test]
    fn bad_lines_say_why() {
        let err = |line| parse(line).unwrap_err();
        assert!(err("foo").contains("unknown command 'foo'"));
        assert!(err("isready now").contains("'isready' takes no arguments"));
        assert!(err("position").contains("expected 'position startpos"));
        assert!(err("position middle").contains("unknown kind 'middle'"));
        assert!(err("position startpos b1d3").contains("found 'b1d3'"));
        assert!(err("setoption Hash value 1").contains("expected 'setoption name"));
        assert!(err("setoption name").contains("the option name is missing"));
        assert!(err("query score").contains("unknown query 'score'"));
        assert!(err("perft").contains("expected 'perft <depth>'"));
        assert!(err("perft -1").contains("not a whole number"));
        assert!(err("perft 65").contains("depth 65 is out of range"));
        assert!(err("").contains("empty"));
    }
}
