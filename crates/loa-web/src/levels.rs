//! How strong the engine plays: one of the engine's levels 1-8 (`loa_engine::level`),
//! from a beginner's opponent to full strength, or a fixed time a move.

pub use loa_engine::MAX_LEVEL;
use loa_engine::{level_in_words, level_limits, SearchLimits, TimeLimit};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The bot account an engine level plays rated games as.
pub fn bot_name(level: u8) -> String {
    format!("loa-level-{level}")
}

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

    /// The search's limits: the level's (docs/web.md gives each level's Elo against
    /// the next), or the chosen time a move. A strength is validated before it is played;
    /// an unchecked one plays full strength.
    pub fn limits(self) -> SearchLimits {
        match (self.level, self.movetime_ms) {
            (_, Some(ms)) => SearchLimits {
                time: Some(TimeLimit::Fixed(Duration::from_millis(ms))),
                ..SearchLimits::default()
            },
            (level, None) => level_limits(level.unwrap_or(MAX_LEVEL))
                .or_else(|| level_limits(MAX_LEVEL))
                .expect("the strongest level exists"),
        }
    }

    /// How it searches, in words: `depth 3`, `1 s a move (full strength)`.
    pub fn search_in_words(self) -> String {
        self.level
            .and_then(level_in_words)
            .unwrap_or_else(|| self.describe())
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
    fn a_level_plays_the_engines_level_and_a_time_its_time() {
        assert_eq!(Strength::level(2).limits().depth, Some(2));
        assert_eq!(Strength::level(7).limits().depth, Some(7));
        assert!(Strength::level(1).limits().spread.is_some());
        assert_eq!(Strength::level(8).limits().depth, None);
        let timed = Strength {
            level: None,
            movetime_ms: Some(300),
        };
        assert_eq!(
            timed.limits().time,
            Some(TimeLimit::Fixed(Duration::from_millis(300)))
        );
        assert_eq!(timed.limits().depth, None);
        assert_eq!(Strength::level(5).search_in_words(), "depth 3");
        assert_eq!(timed.search_in_words(), "0.3 s a move");
    }
}
