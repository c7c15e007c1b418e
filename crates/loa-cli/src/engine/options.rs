//! The options the engine declares, and `setoption`.

use loa_core::RuleSet;
use std::time::Duration;

/// The `option` lines of the handshake.
pub(super) const DECLARATIONS: [&str; 4] = [
    "option name Hash type spin default 64 min 1 max 65536",
    "option name Threads type spin default 1 min 1 max 256",
    "option name MoveOverhead type spin default 50 min 0 max 10000",
    "option name SimultaneousConnection type combo default draw var draw var mover-wins",
];

const HASH: (u64, u64) = (1, 65_536);
const THREADS: (u64, u64) = (1, 256);
const MOVE_OVERHEAD: (u64, u64) = (0, 10_000);

/// The option values now.
#[derive(Clone, Debug)]
pub(super) struct Options {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Kept for a later multi-threaded search; the search uses one thread.
    pub threads: usize,
    /// Milliseconds kept in hand on every move for the time the move takes to arrive.
    pub move_overhead_ms: u64,
    pub rules: RuleSet,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 64,
            threads: 1,
            move_overhead_ms: 50,
            rules: RuleSet::Draw,
        }
    }
}

impl Options {
    pub fn move_overhead(&self) -> Duration {
        Duration::from_millis(self.move_overhead_ms)
    }
}

/// A checked `setoption`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Change {
    Hash(usize),
    Threads(usize),
    MoveOverhead(u64),
    Rules(RuleSet),
}

/// Reads `name <Name> value <value>` (option names in any case).
pub(super) fn parse_setoption(args: &[&str]) -> Result<Change, String> {
    let usage = "expected 'setoption name <name> value <value>'";
    match args.first() {
        Some(word) if word.eq_ignore_ascii_case("name") => {}
        Some(word) => return Err(format!("setoption: found '{word}': {usage}")),
        None => return Err(format!("setoption: {usage}")),
    }
    let value_at = args
        .iter()
        .position(|t| t.eq_ignore_ascii_case("value"))
        .unwrap_or(args.len());
    let name = args[1..value_at].join(" ");
    if name.is_empty() {
        return Err(format!("setoption: the option name is missing: {usage}"));
    }
    let value = args.get(value_at + 1..).unwrap_or_default().join(" ");
    let known = "Hash, Threads, MoveOverhead, SimultaneousConnection";
    let canonical = match name.to_ascii_lowercase().as_str() {
        "hash" => "Hash",
        "threads" => "Threads",
        "moveoverhead" => "MoveOverhead",
        "simultaneousconnection" => "SimultaneousConnection",
        _ => {
            return Err(format!(
                "setoption: unknown option '{name}' (options: {known})"
            ))
        }
    };
    if value.is_empty() {
        return Err(format!(
            "setoption: option {canonical} needs a value ('value <v>')"
        ));
    }
    Ok(match canonical {
        "Hash" => Change::Hash(spin(canonical, &value, HASH)? as usize),
        "Threads" => Change::Threads(spin(canonical, &value, THREADS)? as usize),
        "MoveOverhead" => Change::MoveOverhead(spin(canonical, &value, MOVE_OVERHEAD)?),
        _ => Change::Rules(
            value
                .parse::<RuleSet>()
                .map_err(|e| format!("setoption: SimultaneousConnection: {e}"))?,
        ),
    })
}

/// A spin value in its range.
fn spin(name: &str, value: &str, (min, max): (u64, u64)) -> Result<u64, String> {
    let n: u64 = value.parse().map_err(|_| {
        format!("setoption: {name} value '{value}' is not a whole number from {min} to {max}")
    })?;
    if !(min..=max).contains(&n) {
        return Err(format!(
            "setoption: {name} value {n} is out of range: it must be from {min} to {max}"
        ));
    }
    Ok(n)
}

/// Refuses a table larger than the memory there is (the table is filled when made, and
/// a failed allocation would end the program). `current_mb` is freed first.
pub(super) fn check_memory(megabytes: usize, current_mb: usize) -> Result<(), String> {
    match available_memory_mb() {
        Some(free) if megabytes as u64 > free + current_mb as u64 => Err(format!(
            "setoption: Hash {megabytes} MB is more than the memory available ({} MB)",
            free + current_mb as u64
        )),
        _ => Ok(()),
    }
}

/// Memory the process may still use, in MiB: the smaller of the system's available
/// memory and the room left under a cgroup limit. `None` when neither can be read.
fn available_memory_mb() -> Option<u64> {
    let system = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map(|kb| kb / 1024);
    let read = |path: &str| {
        std::fs::read_to_string(path)
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
    };
    let cgroup = read("/sys/fs/cgroup/memory.max").map(|limit| {
        let used = read("/sys/fs/cgroup/memory.current").unwrap_or(0);
        limit.saturating_sub(used) / (1024 * 1024)
    });
    match (system, cgroup) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive() {
        assert_eq!(
            parse_setoption(&["name", "hash", "value", "16"]),
            Ok(Change::Hash(16))
        );
        assert_eq!(
            parse_setoption(&["NAME", "SimultaneousConnection", "VALUE", "Mover-Wins"]),
            Ok(Change::Rules(RuleSet::MoverWins))
        );
    }

    #[test]
    fn bad_settings_say_why() {
        let err = |args: &[&str]| parse_setoption(args).unwrap_err();
        assert!(err(&["name", "Foo", "value", "1"]).contains("unknown option 'Foo'"));
        assert!(err(&["name", "Hash", "value", "0"]).contains("out of range"));
        assert!(err(&["name", "Hash", "value", "x"]).contains("not a whole number"));
        assert!(err(&["name", "Hash"]).contains("needs a value"));
        assert!(err(&["name", "Threads", "value", "257"]).contains("from 1 to 256"));
        assert!(err(&["name", "SimultaneousConnection", "value", "x"]).contains("unknown rule set"));
        assert!(err(&[]).contains("expected 'setoption name"));
    }
}
