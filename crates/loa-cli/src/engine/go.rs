//! `go`: reading its limits.

use loa_core::{excerpt, Color};
use loa_engine::{Clock, SearchLimits, TimeLimit, MAX_DEPTH};
use std::num::IntErrorKind;
use std::time::Duration;

/// Times beyond this many milliseconds (about 35 years) are read as this.
const MAX_MS: u64 = 1 << 40;

/// What a `go` asks for.
#[derive(Clone, Debug)]
pub(super) struct Request {
    pub limits: SearchLimits,
    /// Hold `bestmove` until `stop` (or `quit`), even if the search ends sooner.
    pub infinite: bool,
}

/// Reads the arguments of `go` for a position with `side` to move.
pub(super) fn parse(args: &[&str], side: Color, overhead: Duration) -> Result<Request, String> {
    // Per colour (Black = p1 = index 0): time left, increment.
    let mut time: [Option<u64>; 2] = [None; 2];
    let mut inc: [Option<u64>; 2] = [None; 2];
    let mut moves_to_go = None;
    let mut movetime = None;
    let mut depth = None;
    let mut nodes = None;
    let mut infinite = false;
    let mut i = 0;
    while i < args.len() {
        let key = args[i].to_ascii_lowercase();
        if key == "infinite" {
            infinite = true;
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
            return Err(format!(
                "go: unknown argument '{}' (expected p1time, p2time, p1inc, p2inc, btime, \
                 wtime, binc, winc, movestogo, movetime, depth, nodes or infinite)",
                excerpt(args[i])
            ));
        }
        let Some(&value) = args.get(i + 1) else {
            return Err(format!("go: '{key}' needs a value"));
        };
        match key.as_str() {
            "p1time" | "btime" => time[0] = Some(clock_ms(&key, value)?),
            "p2time" | "wtime" => time[1] = Some(clock_ms(&key, value)?),
            "p1inc" | "binc" => inc[0] = Some(clock_ms(&key, value)?),
            "p2inc" | "winc" => inc[1] = Some(clock_ms(&key, value)?),
            "movestogo" => moves_to_go = Some(count::<u32>(&key, value, 0, u32::MAX)?),
            "movetime" => movetime = Some(count::<u64>(&key, value, 0, u64::MAX)?.min(MAX_MS)),
            "depth" => depth = Some(count::<u32>(&key, value, 1, MAX_DEPTH)?),
            _ => nodes = Some(count::<u64>(&key, value, 1, u64::MAX)?),
        }
        i += 2;
    }
    let mover = side.index();
    let clock_given = time.iter().chain(&inc).any(Option::is_some) || moves_to_go.is_some();
    let budget = match (movetime, clock_given) {
        (Some(ms), _) => Some(TimeLimit::move_time(Duration::from_millis(ms), overhead)),
        (None, true) => {
            let remaining = time[mover].ok_or_else(|| {
                let (p, c) = if side == Color::Black {
                    ("p1time", "btime")
                } else {
                    ("p2time", "wtime")
                };
                format!("go: a clock was given but not the time of the side to move ({side}: {p} or {c})")
            })?;
            let clock = Clock {
                remaining: Duration::from_millis(remaining),
                increment: Duration::from_millis(inc[mover].unwrap_or(0)),
                moves_to_go,
            };
            Some(clock.budget(overhead))
        }
        (None, false) => None,
    };
    // With no limit at all the search runs until `stop`, as with `infinite`.
    let unlimited = budget.is_none() && depth.is_none() && nodes.is_none();
    if infinite || unlimited {
        return Ok(Request {
            limits: SearchLimits::default(),
            infinite: true,
        });
    }
    Ok(Request {
        limits: SearchLimits {
            depth,
            nodes,
            time: budget,
            ..SearchLimits::default()
        },
        infinite: false,
    })
}

/// A clock time in milliseconds. GUIs send a negative time when a clock has run out:
/// it reads as zero.
fn clock_ms(key: &str, value: &str) -> Result<u64, String> {
    let ms: i64 = value
        .parse()
        .map_err(|e| number_error(key, value, &e, " of milliseconds"))?;
    Ok((ms.max(0) as u64).min(MAX_MS))
}

/// A whole number from `min` to `max`.
fn count<T>(key: &str, value: &str, min: T, max: T) -> Result<T, String>
where
    T: std::str::FromStr<Err = std::num::ParseIntError> + PartialOrd + Copy + std::fmt::Display,
{
    let n: T = value
        .parse()
        .map_err(|e| number_error(key, value, &e, ""))?;
    if n < min {
        return Err(format!("go: {key} must be at least {min}, got {n}"));
    }
    if n > max {
        return Err(format!("go: {key} must be at most {max}, got {n}"));
    }
    Ok(n)
}

fn number_error(key: &str, value: &str, error: &std::num::ParseIntError, unit: &str) -> String {
    let value = excerpt(value);
    match error.kind() {
        IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
            format!("go: {key} value '{value}' is out of range")
        }
        _ => format!("go: {key} value '{value}' is not a whole number{unit}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OVERHEAD: Duration = Duration::from_millis(10);

    fn go(args: &str, side: Color) -> Result<Request, String> {
        let args: Vec<&str> = args.split_whitespace().collect();
        parse(&args, side, OVERHEAD)
    }

    #[test]
    fn the_mover_clock_gives_the_budget() {
        let black = go("p1time 10000 p2time 500 p1inc 100 p2inc 0", Color::Black).unwrap();
        let expected = Clock {
            remaining: Duration::from_millis(10_000),
            increment: Duration::from_millis(100),
            moves_to_go: None,
        }
        .budget(OVERHEAD);
        assert_eq!(black.limits.time, Some(expected));
        let white = go("btime 10000 wtime 500 binc 100 winc 0", Color::White).unwrap();
        let expected = Clock {
            remaining: Duration::from_millis(500),
            ..Clock::default()
        }
        .budget(OVERHEAD);
        assert_eq!(white.limits.time, Some(expected));
        assert!(!white.infinite);
    }

    #[test]
    fn limits_and_infinite() {
        let r = go("depth 5 nodes 1000", Color::Black).unwrap();
        assert_eq!((r.limits.depth, r.limits.nodes), (Some(5), Some(1000)));
        assert!(go("infinite", Color::Black).unwrap().infinite);
        assert!(go("", Color::Black).unwrap().infinite);
        let r = go("movetime 300 wtime 1", Color::Black).unwrap();
        assert_eq!(
            r.limits.time,
            Some(TimeLimit::Fixed(Duration::from_millis(290)))
        );
        assert!(go("wtime -20 btime 100", Color::White).is_ok());
    }

    #[test]
    fn bad_arguments_say_why() {
        let err = |args| go(args, Color::Black).unwrap_err();
        assert!(err("depth x").contains("not a whole number"));
        assert!(err("depth 0").contains("at least 1"));
        assert!(err("nodes").contains("needs a value"));
        assert!(err("ponder").contains("unknown argument 'ponder'"));
        assert!(err("wtime 1000").contains("Black: p1time or btime"));
        assert!(err("movetime -5").contains("not a whole number"));
        assert!(err("p1time 18446744073709551615").contains("out of range"));
        assert!(err("nodes 99999999999999999999").contains("out of range"));
        assert!(err("depth 1000").contains("at most 127"));
    }
}
