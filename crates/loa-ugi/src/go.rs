//! `go` and its limits: the clocks (by colour, Black being p1), the move time, depth and
//! nodes, or `infinite`.

use crate::ProtocolError;
use loa_core::{excerpt, Color};
use loa_engine::{Clock, SearchLimits, TimeLimit, MAX_DEPTH};
use std::fmt;
use std::num::IntErrorKind;
use std::time::Duration;

/// Times beyond this (2^40 ms, about 35 years) are read as this.
pub const MAX_CLOCK: Duration = Duration::from_millis(1 << 40);

const KEYS: &str = "p1time, p2time, p1inc, p2inc, btime, wtime, binc, winc, movestogo, \
movetime, depth, nodes or infinite";

/// The arguments of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// Time left on each side's clock, Black's (p1) first.
    pub time: [Option<Duration>; 2],
    /// The increment of each side's clock.
    pub increment: [Option<Duration>; 2],
    pub moves_to_go: Option<u32>,
    pub move_time: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
}

/// How the clock arguments are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `p1time`/`p2time`/`p1inc`/`p2inc`, and the UCI names beside them.
    Ugi,
    /// `btime`/`wtime`/`binc`/`winc` only.
    Uci,
}

impl Go {
    /// Reads the words after `go`.
    pub(crate) fn parse(words: &[&str]) -> Result<Go, ProtocolError> {
        let mut go = Go::default();
        let mut i = 0;
        while i < words.len() {
            let key = words[i].to_ascii_lowercase();
            if key == "infinite" {
                go.infinite = true;
                i += 1;
                continue;
            }
            let known = matches!(
                key.as_str(),
                "p1time"
                    | "btime"
                    | "p2time"
                    | "wtime"
                    | "p1inc"
                    | "binc"
                    | "p2inc"
                    | "winc"
                    | "movestogo"
                    | "movetime"
                    | "depth"
                    | "nodes"
            );
            if !known {
                return Err(ProtocolError::new(format!(
                    "go: unknown argument '{}' (expected {KEYS})",
                    excerpt(words[i])
                )));
            }
            let Some(&value) = words.get(i + 1) else {
                return Err(ProtocolError::new(format!("go: '{key}' needs a value")));
            };
            match key.as_str() {
                "p1time" | "btime" => go.time[0] = Some(clock(&key, value)?),
                "p2time" | "wtime" => go.time[1] = Some(clock(&key, value)?),
                "p1inc" | "binc" => go.increment[0] = Some(clock(&key, value)?),
                "p2inc" | "winc" => go.increment[1] = Some(clock(&key, value)?),
                "movestogo" => go.moves_to_go = Some(count(&key, value, 0, u32::MAX)?),
                "movetime" => {
                    let ms = count::<u64>(&key, value, 0, u64::MAX)?;
                    go.move_time = Some(Duration::from_millis(ms).min(MAX_CLOCK));
                }
                "depth" => go.depth = Some(count(&key, value, 1, MAX_DEPTH)?),
                _ => go.nodes = Some(count(&key, value, 1, u64::MAX)?),
            }
            i += 2;
        }
        Ok(go)
    }

    /// The line in a dialect.
    pub fn line(&self, dialect: Dialect) -> String {
        let mut line = String::from("go");
        let ms = |d: Duration| d.as_millis();
        if dialect == Dialect::Ugi {
            for (i, p) in ["p1", "p2"].into_iter().enumerate() {
                if let Some(t) = self.time[i] {
                    line.push_str(&format!(" {p}time {}", ms(t)));
                }
                if let Some(t) = self.increment[i] {
                    line.push_str(&format!(" {p}inc {}", ms(t)));
                }
            }
        }
        for (i, c) in ["b", "w"].into_iter().enumerate() {
            if let Some(t) = self.time[i] {
                line.push_str(&format!(" {c}time {}", ms(t)));
            }
            if let Some(t) = self.increment[i] {
                line.push_str(&format!(" {c}inc {}", ms(t)));
            }
        }
        if let Some(n) = self.moves_to_go {
            line.push_str(&format!(" movestogo {n}"));
        }
        if let Some(t) = self.move_time {
            line.push_str(&format!(" movetime {}", ms(t)));
        }
        if let Some(depth) = self.depth {
            line.push_str(&format!(" depth {depth}"));
        }
        if let Some(nodes) = self.nodes {
            line.push_str(&format!(" nodes {nodes}"));
        }
        if self.infinite {
            line.push_str(" infinite");
        }
        line
    }

    /// The search's limits for a position with `side` to move, keeping `overhead` in
    /// hand; and whether the search runs until `stop` (`infinite`, or no limit at all).
    pub fn limits(
        &self,
        side: Color,
        overhead: Duration,
    ) -> Result<(SearchLimits, bool), ProtocolError> {
        let mover = side.index();
        let clock_given = self.time.iter().chain(&self.increment).any(Option::is_some)
            || self.moves_to_go.is_some();
        let move_time = (self.move_time).map(|time| TimeLimit::move_time(time, overhead));
        let clock = match self.time[mover] {
            Some(remaining) => Some(Clock {
                remaining,
                increment: self.increment[mover].unwrap_or_default(),
                moves_to_go: self.moves_to_go,
            }),
            // A move time is enough without the mover's clock.
            None if clock_given && move_time.is_none() => {
                let (p, c) = if side == Color::Black {
                    ("p1time", "btime")
                } else {
                    ("p2time", "wtime")
                };
                return Err(ProtocolError::new(format!(
                    "go: a clock was given but not the time of the side to move \
                     ({side}: {p} or {c})"
                )));
            }
            None => None,
        };
        // With no limit at all the search runs until `stop`, as with `infinite`.
        let unlimited =
            move_time.is_none() && clock.is_none() && self.depth.is_none() && self.nodes.is_none();
        if self.infinite || unlimited {
            return Ok((SearchLimits::default(), true));
        }
        let limits = SearchLimits {
            depth: self.depth,
            nodes: self.nodes,
            time: move_time,
            ..SearchLimits::default()
        };
        // A move time given with a clock is kept inside the clock's share.
        let limits = match clock {
            Some(clock) => limits.on_clock(&clock, overhead),
            None => limits,
        };
        Ok((limits, false))
    }
}

/// The UGI line, with the UCI names beside the UGI ones.
impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line(Dialect::Ugi))
    }
}

/// A clock time in milliseconds. GUIs send a negative time when a clock has run out: it
/// reads as zero.
fn clock(key: &str, value: &str) -> Result<Duration, ProtocolError> {
    let ms: i64 = value
        .parse()
        .map_err(|e| number_error(key, value, &e, " of milliseconds"))?;
    Ok(Duration::from_millis(ms.max(0) as u64).min(MAX_CLOCK))
}

/// A whole number from `min` to `max`.
fn count<T>(key: &str, value: &str, min: T, max: T) -> Result<T, ProtocolError>
where
    T: std::str::FromStr<Err = std::num::ParseIntError> + PartialOrd + Copy + fmt::Display,
{
    let n: T = value
        .parse()
        .map_err(|e| number_error(key, value, &e, ""))?;
    if n < min {
        return Err(ProtocolError::new(format!(
            "go: {key} must be at least {min}, got {n}"
        )));
    }
    if n > max {
        return Err(ProtocolError::new(format!(
            "go: {key} must be at most {max}, got {n}"
        )));
    }
    Ok(n)
}

fn number_error(
    key: &str,
    value: &str,
    error: &std::num::ParseIntError,
    unit: &str,
) -> ProtocolError {
    let value = excerpt(value);
    ProtocolError::new(match error.kind() {
        IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
            format!("go: {key} value '{value}' is out of range")
        }
        _ => format!("go: {key} value '{value}' is not a whole number{unit}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const OVERHEAD: Duration = Duration::from_millis(10);

    fn go(args: &str) -> Result<Go, ProtocolError> {
        let words: Vec<&str> = args.split_whitespace().collect();
        Go::parse(&words)
    }

    fn limits(args: &str, side: Color) -> Result<(SearchLimits, bool), String> {
        go(args)
            .and_then(|g| g.limits(side, OVERHEAD))
            .map_err(|e| e.0)
    }

    #[test]
    fn the_mover_clock_gives_the_budget() {
        let (black, infinite) =
            limits("p1time 10000 p2time 500 p1inc 100 p2inc 0", Color::Black).unwrap();
        let expected = Clock {
            remaining: Duration::from_millis(10_000),
            increment: Duration::from_millis(100),
            moves_to_go: None,
        }
        .budget(OVERHEAD);
        assert_eq!(black.time, Some(expected));
        assert!(!infinite);
        let (white, _) = limits("btime 10000 wtime 500 binc 100 winc 0", Color::White).unwrap();
        let expected = Clock {
            remaining: Duration::from_millis(500),
            ..Clock::default()
        }
        .budget(OVERHEAD);
        assert_eq!(white.time, Some(expected));
    }

    #[test]
    fn limits_and_infinite() {
        let (l, _) = limits("depth 5 nodes 1000", Color::Black).unwrap();
        assert_eq!((l.depth, l.nodes), (Some(5), Some(1000)));
        assert!(limits("infinite", Color::Black).unwrap().1);
        assert!(limits("", Color::Black).unwrap().1);
        let (l, _) = limits("movetime 300 wtime 1", Color::Black).unwrap();
        assert_eq!(l.time, Some(TimeLimit::Fixed(Duration::from_millis(290))));
        // A move time given with the mover's clock stays inside the clock's share.
        let (l, _) = limits("movetime 5000 btime 18000", Color::Black).unwrap();
        let share = Clock {
            remaining: Duration::from_millis(18_000),
            ..Clock::default()
        };
        let fixed = TimeLimit::move_time(Duration::from_millis(5_000), OVERHEAD);
        assert_eq!(l.time, Some(fixed.tighter(share.budget(OVERHEAD))));
        assert!(l.time.unwrap().hard() < Duration::from_millis(4_000));
        assert!(limits("wtime -20 btime 100", Color::White).is_ok());
        assert_eq!(go("wtime -20").unwrap().time[1], Some(Duration::ZERO));
    }

    #[test]
    fn bad_arguments_say_why() {
        let err = |args| limits(args, Color::Black).unwrap_err();
        assert!(err("depth x").contains("not a whole number"));
        assert!(err("depth 0").contains("at least 1"));
        assert!(err("nodes").contains("needs a value"));
        assert!(err("ponder").contains("unknown argument 'ponder'"));
        assert!(err("wtime 1000").contains("Black: p1time or btime"));
        assert!(err("movetime -5").contains("not a whole number"));
        assert!(err("p1time 1s").contains("is not a whole number of milliseconds"));
        assert!(err("p1time 18446744073709551615").contains("out of range"));
        assert!(err("nodes 99999999999999999999").contains("out of range"));
        assert!(err("depth 1000").contains("at most 127"));
    }

    #[test]
    fn dialects() {
        let go = go("btime 1000 winc 20 depth 3").unwrap();
        assert_eq!(go.line(Dialect::Uci), "go btime 1000 winc 20 depth 3");
        assert_eq!(
            go.line(Dialect::Ugi),
            "go p1time 1000 p2inc 20 btime 1000 winc 20 depth 3"
        );
    }
}
