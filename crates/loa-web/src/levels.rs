//! How strong the engine plays: levels 1-8, from a one-ply search to full strength, or a
//! fixed time a move. Every search is bounded in time, so a deep level on a slow machine
//! still answers.

use loa_engine::{SearchLimits, TimeLimit};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The strongest level.
pub const MAX_LEVEL: u8 = 8;
/// The longest time a move the API takes.
pub const MAX_MOVETIME_MS: u64 = 60_000;
/// The shortest.
pub const MIN_MOVETIME_MS: u64 = 10;

/// An engine seat's strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Strength {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movetime_ms: Option<u64>,
}

impl Strength {
    #[cfg(test)]
    pub fn level(level: u8) -> Strength {
        Strength {
            level: Some(level),
            movetime_ms: None,
        }
    }

    /// Checks that exactly one of the two is given, within its bounds.
    pub fn validate(self) -> Result<Strength, String> {
        match (self.level, self.movetime_ms) {
            (Some(level), None) if (1..=MAX_LEVEL).contains(&level) => Ok(self),
            (Some(_), None) => Err(format!("an engine's level is from 1 to {MAX_LEVEL}")),
            (None, Some(ms)) if (MIN_MOVETIME_MS..=MAX_MOVETIME_MS).contains(&ms) => Ok(self),
            (None, Some(_)) => Err(format!(
                "an engine's movetime_ms is from {MIN_MOVETIME_MS} to {MAX_MOVETIME_MS}"
            )),
            _ => Err("an engine has either a level or a movetime_ms".into()),
        }
    }

    /// The search's limits: a depth (1, 2, 3, 4, 5, 7, 9) with a time cap for levels 1-7,
    /// a second for level 8, or the chosen time a move. docs/web.md gives each level's
    /// Elo against the next.
    pub fn limits(self) -> SearchLimits {
        let (depth, time_ms) = match (self.level, self.movetime_ms) {
            (_, Some(ms)) => (None, ms),
            (Some(level @ 1..=5), None) => (Some(u32::from(level)), 2_000),
            (Some(6), None) => (Some(7), 2_000),
            (Some(7), None) => (Some(9), 2_000),
            _ => (None, 1_000),
        };
        SearchLimits {
            depth,
            time: Some(TimeLimit::Fixed(Duration::from_millis(time_ms))),
            ..SearchLimits::default()
        }
    }

    /// How it searches, in words: `depth 3`, `1 s a move (full strength)`.
    pub fn search_in_words(self) -> String {
        let limits = self.limits();
        match (limits.depth, limits.time) {
            (Some(depth), _) => format!("depth {depth}"),
            (None, Some(TimeLimit::Fixed(time))) if self.level.is_some() => {
                format!("{} s a move (full strength)", time.as_secs_f64())
            }
            _ => self.describe(),
        }
    }

    /// In words, for the page and records: `level 3`, `2 s a move`.
    pub fn describe(self) -> String {
        match (self.level, self.movetime_ms) {
            (Some(level), _) => format!("level {level}"),
            (None, Some(ms)) => format!("{} s a move", ms as f64 / 1000.0),
            (None, None) => "engine".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_strength_is_a_level_or_a_time() {
        assert!(Strength::level(1).validate().is_ok());
        assert!(Strength::level(8).validate().is_ok());
        for bad in [
            Strength::level(0),
            Strength::level(9),
            Strength {
                level: None,
                movetime_ms: Some(u64::MAX),
            },
            Strength {
                level: Some(3),
                movetime_ms: Some(100),
            },
            Strength {
                level: None,
                movetime_ms: None,
            },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn low_levels_are_depths_and_every_level_is_bounded_in_time() {
        assert_eq!(Strength::level(2).limits().depth, Some(2));
        assert_eq!(Strength::level(7).limits().depth, Some(9));
        for level in 1..=MAX_LEVEL {
            assert!(Strength::level(level).limits().time.is_some());
        }
        assert_eq!(Strength::level(8).limits().depth, None);
    }
}
