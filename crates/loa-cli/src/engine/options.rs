//! The options the engine declares, and `setoption`.

use loa_core::RuleSet;
use std::time::Duration;

/// The `option` lines of the handshake.
pub(super) const DECLARATIONS: [&str; 4] = [
    "option name Hash type spin default 64 min 1 max 65536",
    "option name Threads type spin default 1 min 1 max 256",
    "option name MoveOverhead type spin default 10 min 0 max 10000",
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
            move_overhead_ms: 10,
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
        Some(word) => {
            return Err(format!(
                "setoption: found '{}': {usage}",
                loa_core::excerpt(word)
            ))
        }
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
                "setoption: unknown option '{}' (options: {known})",
                loa_core::excerpt(&name)
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
        format!(
            "setoption: {name} value '{}' is not a whole number from {min} to {max}",
            loa_core::excerpt(value)
        )
    })?;
    if !(min..=max).contains(&n) {
        return Err(format!(
            "setoption: {name} value {n} is out of range: it must be from {min} to {max}"
        ));
    }
    Ok(n)
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
