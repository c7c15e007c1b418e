//! `go`: reading its limits, and the search thread that answers it.

use super::{write_line, Out};
use loa_core::{Color, Position};
use loa_engine::{Budget, Clock, Engine, Info, Limits};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// Times beyond this many milliseconds (about 35 years) are read as this.
const MAX_MS: u64 = 1 << 40;

/// What a `go` asks for.
#[derive(Clone, Debug)]
pub(super) struct Request {
    pub limits: Limits,
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
                args[i]
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
            "movestogo" => moves_to_go = Some(count::<u32>(&key, value, 0)?),
            "movetime" => movetime = Some(count::<u64>(&key, value, 0)?.min(MAX_MS)),
            "depth" => depth = Some(count::<u32>(&key, value, 1)?),
            _ => nodes = Some(count::<u64>(&key, value, 1)?),
        }
        i += 2;
    }
    let mover = side.index();
    let clock_given = time.iter().chain(&inc).any(Option::is_some) || moves_to_go.is_some();
    let budget = match (movetime, clock_given) {
        (Some(ms), _) => Some(Budget::fixed(Duration::from_millis(ms), overhead)),
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
            limits: Limits::default(),
            infinite: true,
        });
    }
    Ok(Request {
        limits: Limits {
            depth,
            nodes,
            time: budget,
            ..Limits::default()
        },
        infinite: false,
    })
}

/// A clock time in milliseconds. GUIs send a negative time when a clock has run out:
/// it reads as zero.
fn clock_ms(key: &str, value: &str) -> Result<u64, String> {
    let ms: i64 = value
        .parse()
        .map_err(|_| format!("go: {key} value '{value}' is not a whole number of milliseconds"))?;
    Ok((ms.max(0) as u64).min(MAX_MS))
}

fn count<T: std::str::FromStr + PartialOrd + Copy + std::fmt::Display + From<u8>>(
    key: &str,
    value: &str,
    min: u8,
) -> Result<T, String> {
    let n: T = value
        .parse()
        .map_err(|_| format!("go: {key} value '{value}' is not a whole number"))?;
    if n < T::from(min) {
        return Err(format!("go: {key} must be at least {min}, got {n}"));
    }
    Ok(n)
}

/// A search running on its own thread. The thread prints `info` lines and then
/// `bestmove`, and returns the engine.
pub(super) struct Search {
    handle: JoinHandle<Engine>,
    stop: Arc<AtomicBool>,
    /// Set (under the output lock) just before `bestmove` is written.
    done: Arc<AtomicBool>,
}

impl Search {
    /// Starts searching `root`. On failure the engine is lost with the thread that could
    /// not start, and the caller makes a new one.
    pub fn start(
        mut engine: Engine,
        root: Position,
        history: Vec<u64>,
        request: Request,
        out: Out,
    ) -> Result<Search, String> {
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let (thread_stop, thread_done) = (Arc::clone(&stop), Arc::clone(&done));
        let handle = std::thread::Builder::new()
            .name("search".to_string())
            .stack_size(64 << 20)
            .spawn(move || {
                let result =
                    engine.search(&root, &history, &request.limits, &thread_stop, |info| {
                        out.line(&info_line(info))
                    });
                if request.infinite {
                    while !thread_stop.load(Ordering::Acquire) {
                        std::thread::park_timeout(Duration::from_millis(20));
                    }
                }
                let best = match result.best {
                    Some(mv) if root.is_legal(mv) => mv.coordinate(),
                    Some(mv) => {
                        // Never send an illegal move: fall back on the first legal one.
                        out.line(&format!(
                            "info string the search returned {} which is not legal here",
                            mv.coordinate()
                        ));
                        root.legal_moves()[0].coordinate()
                    }
                    None => "(none)".to_string(),
                };
                let mut writer = out.lock();
                thread_done.store(true, Ordering::Release);
                write_line(&mut **writer, &format!("bestmove {best}"));
                drop(writer);
                engine
            })
            .map_err(|e| format!("go: cannot start the search thread: {e}"))?;
        Ok(Search { handle, stop, done })
    }

    /// Whether `bestmove` has been written (or the thread is gone).
    pub fn is_finished(&self) -> bool {
        self.done.load(Ordering::Acquire) || self.handle.is_finished()
    }

    /// Asks the search to end now; it still prints `bestmove`.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
        self.handle.thread().unpark();
    }

    /// Waits for the thread and takes the engine back (`None` if the thread died).
    pub fn join(self) -> Option<Engine> {
        self.handle.join().ok()
    }
}

/// `info depth .. seldepth .. score .. nodes .. nps .. time .. hashfull .. pv ..`
fn info_line(info: &Info) -> String {
    let micros = info.time.as_micros().max(1);
    let nps = u128::from(info.nodes) * 1_000_000 / micros;
    let mut line = format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth,
        info.score,
        info.nodes,
        nps,
        info.time.as_millis(),
        info.hashfull
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for mv in &info.pv {
            line.push(' ');
            line.push_str(&mv.coordinate());
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    const OVERHEAD: Duration = Duration::from_millis(50);

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
            Some(Budget::fixed(Duration::from_millis(300), OVERHEAD))
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
    }
}
