//! What an engine answers.

use crate::{OptionDecl, ProtocolError};
use loa_engine::{Info, Score};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// One line from an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// `id name <name>`.
    IdName(String),
    /// `id author <author>`.
    IdAuthor(String),
    Option(OptionDecl),
    UgiOk,
    UciOk,
    ReadyOk,
    /// `bestmove <move>`; `None` for `bestmove (none)` (the game is over) or a bare
    /// `bestmove`.
    BestMove(Option<String>),
    Info(InfoLine),
    /// `info string <text>`.
    InfoString(String),
    /// `response <answer>`, to `query`.
    Answer(String),
    /// Any other line: the output of `validmoves`, `perft`, `d`, `eval`, or a line the
    /// protocol does not know.
    Text(String),
}

/// An `info` line: what a search reports. Fields an engine leaves out are `None`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InfoLine {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    /// Which of the best lines this is, from 1.
    pub multipv: Option<u32>,
    pub score: Option<Score>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub time: Option<Duration>,
    pub hashfull: Option<u32>,
    /// The principal variation, moves as written.
    pub pv: Vec<String>,
}

impl From<&Info> for InfoLine {
    /// The line the engine prints for a finished iteration. `multipv` is left out for a
    /// single-line search, as UCI engines do.
    fn from(info: &Info) -> InfoLine {
        let micros = info.time.as_micros().max(1);
        InfoLine {
            depth: Some(info.depth),
            seldepth: Some(info.seldepth),
            multipv: (info.multipv > 1).then_some(info.multipv as u32),
            score: Some(info.score),
            nodes: Some(info.nodes),
            nps: Some((u128::from(info.nodes) * 1_000_000 / micros) as u64),
            time: Some(info.time),
            hashfull: Some(info.hashfull),
            pv: info.pv.iter().map(|mv| mv.coordinate()).collect(),
        }
    }
}

impl InfoLine {
    /// Reads the words after `info`, leniently: words it does not know (`currmove`,
    /// `lowerbound`, ...) are passed over, as are numbers it cannot read.
    fn parse(words: &[&str]) -> InfoLine {
        let mut info = InfoLine::default();
        let mut i = 0;
        let number = |at: usize| words.get(at).and_then(|w| w.parse::<u64>().ok());
        while i < words.len() {
            match words[i] {
                "depth" => info.depth = number(i + 1).and_then(|n| u32::try_from(n).ok()),
                "seldepth" => info.seldepth = number(i + 1).and_then(|n| u32::try_from(n).ok()),
                "multipv" => info.multipv = number(i + 1).and_then(|n| u32::try_from(n).ok()),
                "nodes" => info.nodes = number(i + 1),
                "nps" => info.nps = number(i + 1),
                "time" => info.time = number(i + 1).map(Duration::from_millis),
                "hashfull" => info.hashfull = number(i + 1).and_then(|n| u32::try_from(n).ok()),
                "score" => {
                    let value = words.get(i + 2).and_then(|w| w.parse::<i32>().ok());
                    info.score = match (words.get(i + 1).copied(), value) {
                        (Some("cp"), Some(cp)) => Some(Score::Cp(cp)),
                        (Some("mate"), Some(n)) => Some(Score::Mate(n)),
                        _ => info.score,
                    };
                    i += 3;
                    continue;
                }
                "pv" => {
                    info.pv = words[i + 1..].iter().map(|w| w.to_string()).collect();
                    break;
                }
                _ => {
                    i += 1;
                    continue;
                }
            }
            i += 2;
        }
        info
    }
}

impl fmt::Display for InfoLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        if let Some(n) = self.depth {
            write!(f, " depth {n}")?;
        }
        if let Some(n) = self.seldepth {
            write!(f, " seldepth {n}")?;
        }
        if let Some(n) = self.multipv {
            write!(f, " multipv {n}")?;
        }
        if let Some(score) = self.score {
            write!(f, " score {score}")?;
        }
        if let Some(n) = self.nodes {
            write!(f, " nodes {n}")?;
        }
        if let Some(n) = self.nps {
            write!(f, " nps {n}")?;
        }
        if let Some(t) = self.time {
            write!(f, " time {}", t.as_millis())?;
        }
        if let Some(n) = self.hashfull {
            write!(f, " hashfull {n}")?;
        }
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        Ok(())
    }
}

impl FromStr for Response {
    type Err = ProtocolError;

    /// Reads an engine's line. Only a malformed `option` declaration is an error; any
    /// other line is some response.
    fn from_str(line: &str) -> Result<Response, ProtocolError> {
        let line = line.trim();
        let words: Vec<&str> = line.split_whitespace().collect();
        let rest = |n: usize| words.get(n..).unwrap_or_default().join(" ");
        Ok(match words.as_slice() {
            ["id", "name", ..] => Response::IdName(rest(2)),
            ["id", "author", ..] => Response::IdAuthor(rest(2)),
            ["option", ..] => Response::Option(line.parse()?),
            ["ugiok"] => Response::UgiOk,
            ["uciok"] => Response::UciOk,
            ["readyok"] => Response::ReadyOk,
            ["bestmove", mv, ..] if *mv != "(none)" => Response::BestMove(Some(mv.to_string())),
            ["bestmove", ..] => Response::BestMove(None),
            ["info", "string", ..] => Response::InfoString(rest(2)),
            ["info", ..] => Response::Info(InfoLine::parse(&words[1..])),
            ["response", ..] => Response::Answer(rest(1)),
            _ => Response::Text(line.to_string()),
        })
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::IdName(name) => write!(f, "id name {name}"),
            Response::IdAuthor(author) => write!(f, "id author {author}"),
            Response::Option(decl) => write!(f, "{decl}"),
            Response::UgiOk => f.write_str("ugiok"),
            Response::UciOk => f.write_str("uciok"),
            Response::ReadyOk => f.write_str("readyok"),
            Response::BestMove(Some(mv)) => write!(f, "bestmove {mv}"),
            Response::BestMove(None) => f.write_str("bestmove (none)"),
            Response::Info(info) => write!(f, "{info}"),
            Response::InfoString(text) => write!(f, "info string {text}"),
            Response::Answer(answer) => write!(f, "response {answer}"),
            Response::Text(text) => f.write_str(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Response {
        line.parse().unwrap()
    }

    #[test]
    fn reads_other_engines_lines() {
        let Response::Info(info) = parse(
            "info depth 3 seldepth 3 score cp -12 lowerbound nodes 3537 currmove a7c7 pv a7c7 b1d3",
        ) else {
            panic!("an info line");
        };
        assert_eq!(info.depth, Some(3));
        assert_eq!(info.score, Some(Score::Cp(-12)));
        assert_eq!(info.nodes, Some(3537));
        assert_eq!(info.pv, ["a7c7", "b1d3"]);
        let Response::Info(info) = parse("info depth 9 score mate -3") else {
            panic!("an info line");
        };
        assert_eq!(info.score, Some(Score::Mate(-3)));
        assert_eq!(
            parse("info string hello"),
            Response::InfoString("hello".into())
        );
        assert_eq!(
            parse("bestmove xyzzy"),
            Response::BestMove(Some("xyzzy".into()))
        );
        assert_eq!(parse("bestmove (none)"), Response::BestMove(None));
        assert_eq!(parse("bestmove"), Response::BestMove(None));
        assert_eq!(parse("id name loa 0.1"), Response::IdName("loa 0.1".into()));
        assert_eq!(parse("b1d3: 34"), Response::Text("b1d3: 34".into()));
    }
}
