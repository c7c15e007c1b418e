//! The clocks of a game, kept by the server: a live game's Fischer clock (time for the
//! game plus an increment a move) or a correspondence game's days a move. Times are
//! milliseconds since the Unix epoch, so a clock read back from the database after a
//! restart runs on from where it was.

use loa_core::Color;
use serde::{Deserialize, Serialize};

/// The longest a live game's main time may be: a day.
pub const MAX_INITIAL_S: u64 = 24 * 3600;
/// The largest increment: an hour.
pub const MAX_INCREMENT_S: u64 = 3600;
/// The most days a correspondence move may take.
pub const MAX_DAYS: u64 = 60;
/// A minute, an hour and a day on the server's clock (`now_ms`), for the windows limits
/// count in.
pub const MINUTE: i64 = 60_000;
pub const HOUR: i64 = 60 * MINUTE;
pub const DAY: i64 = 24 * HOUR;
/// A day as the clocks' unsigned milliseconds count it.
const DAY_MS: u64 = DAY.unsigned_abs();

/// How a game is timed, as the API takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum TimeControl {
    /// Seconds for the game, plus an increment after each move (Fischer).
    Live { initial_s: u64, increment_s: u64 },
    /// Days for each move; or, with `bank_days`, a time bank as on Little Golem: each
    /// side starts with `bank_days`, and each move adds `days`, the bank never above
    /// `bank_days`.
    Correspondence {
        days: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bank_days: Option<u64>,
    },
}

impl TimeControl {
    /// Checks the bounds: a clock that cannot be played is refused.
    pub fn validate(self) -> Result<TimeControl, String> {
        match self {
            TimeControl::Live {
                initial_s,
                increment_s,
            } => {
                if initial_s > MAX_INITIAL_S {
                    return Err(format!("initial_s is at most {MAX_INITIAL_S} (a day)"));
                }
                if increment_s > MAX_INCREMENT_S {
                    return Err(format!("increment_s is at most {MAX_INCREMENT_S}"));
                }
                if initial_s == 0 && increment_s == 0 {
                    return Err("a live clock needs initial_s or increment_s above 0".into());
                }
            }
            TimeControl::Correspondence { days, bank_days } => {
                if !(1..=MAX_DAYS).contains(&days) {
                    return Err(format!("days is from 1 to {MAX_DAYS}"));
                }
                if bank_days.is_some_and(|bank| !(days..=MAX_DAYS).contains(&bank)) {
                    return Err(format!("bank_days is from days ({days}) to {MAX_DAYS}"));
                }
            }
        }
        Ok(self)
    }

    /// The time each side has at the start, in milliseconds.
    pub fn initial_ms(self) -> u64 {
        match self {
            TimeControl::Live { initial_s, .. } => initial_s * 1000,
            TimeControl::Correspondence { days, bank_days } => bank_days.unwrap_or(days) * DAY_MS,
        }
    }

    /// A correspondence game's clock (days a move or a time bank).
    pub fn is_correspondence(self) -> bool {
        matches!(self, TimeControl::Correspondence { .. })
    }

    /// The `10+0.1`-style label records use; `3 days/move` for correspondence.
    pub fn label(self) -> String {
        match self {
            TimeControl::Live {
                initial_s,
                increment_s,
            } => format!("{initial_s}+{increment_s}"),
            TimeControl::Correspondence {
                days,
                bank_days: None,
            } => format!("{days} days/move"),
            TimeControl::Correspondence {
                days,
                bank_days: Some(bank),
            } => format!("{bank} days bank, {days} days/move"),
        }
    }
}

/// The clock of a game in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub control: TimeControl,
    /// Black's and White's time left when their turn last began (or now, for the side
    /// not to move).
    pub remaining_ms: [u64; 2],
    /// When the side to move's time began to run; `None` before the game starts.
    pub running_since: Option<i64>,
}

impl Clock {
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            remaining_ms: [control.initial_ms(); 2],
            running_since: None,
        }
    }

    /// Starts the side to move's time.
    pub fn start(&mut self, now: i64) {
        self.running_since.get_or_insert(now);
    }

    /// The time `color` has left at `now`, the running side's time counted down.
    pub fn left_at(&self, color: Color, to_move: Color, now: i64) -> u64 {
        let left = self.remaining_ms[color.index()];
        match self.running_since {
            Some(since) if color == to_move => left.saturating_sub(elapsed(since, now)),
            _ => left,
        }
    }

    /// `side`'s clock at `now` as the engine budgets it: the time left and the
    /// increment, or for a correspondence move all the time this move has.
    pub fn engine_clock(&self, side: Color, now: i64) -> loa_engine::Clock {
        let remaining = std::time::Duration::from_millis(self.left_at(side, side, now));
        match self.control {
            TimeControl::Live { increment_s, .. } => loa_engine::Clock {
                remaining,
                increment: std::time::Duration::from_secs(increment_s),
                moves_to_go: None,
            },
            TimeControl::Correspondence { .. } => loa_engine::Clock {
                remaining,
                increment: std::time::Duration::ZERO,
                moves_to_go: Some(1),
            },
        }
    }

    /// When the side to move runs out of time, if its time runs.
    pub fn flag_at(&self, to_move: Color) -> Option<i64> {
        let since = self.running_since?;
        let left = i64::try_from(self.remaining_ms[to_move.index()]).unwrap_or(i64::MAX);
        Some(since.saturating_add(left))
    }

    /// Stops `mover`'s time after a move at `now` and starts the opponent's; `false`, and
    /// nothing changed, when the mover's flag had already fallen.
    pub fn press(&mut self, mover: Color, now: i64) -> bool {
        let left = self.left_at(mover, mover, now);
        if self.running_since.is_some() && left == 0 {
            return false;
        }
        self.remaining_ms[mover.index()] = match self.control {
            TimeControl::Live { increment_s, .. } => left.saturating_add(increment_s * 1000),
            // Each correspondence move has the full time again...
            TimeControl::Correspondence {
                bank_days: None, ..
            } => self.control.initial_ms(),
            // ... or adds its days to the bank, up to the bank's size.
            TimeControl::Correspondence {
                days,
                bank_days: Some(bank),
            } => left.saturating_add(days * DAY_MS).min(bank * DAY_MS),
        };
        self.running_since = Some(now);
        true
    }
}

fn elapsed(since: i64, now: i64) -> u64 {
    u64::try_from(now.saturating_sub(since)).unwrap_or(0)
}

/// Now, in milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    let since_epoch = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    i64::try_from(since_epoch.as_millis()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    const BLITZ: TimeControl = TimeControl::Live {
        initial_s: 60,
        increment_s: 2,
    };

    #[test]
    fn time_runs_only_for_the_side_to_move_and_the_increment_is_added() {
        let mut clock = Clock::new(BLITZ);
        assert_eq!(clock.left_at(Black, Black, 5_000), 60_000);
        clock.start(1_000);
        assert_eq!(clock.left_at(Black, Black, 11_000), 50_000);
        assert_eq!(clock.left_at(White, Black, 11_000), 60_000);
        assert!(clock.press(Black, 11_000));
        assert_eq!(clock.remaining_ms, [52_000, 60_000]);
        assert_eq!(clock.left_at(White, White, 14_000), 57_000);
        assert_eq!(clock.flag_at(White), Some(71_000));
    }

    #[test]
    fn the_engine_sees_the_time_left_of_its_side_and_the_increment() {
        let mut clock = Clock::new(BLITZ);
        clock.start(0);
        let seen = clock.engine_clock(Black, 30_000);
        assert_eq!(seen.remaining.as_millis(), 30_000);
        assert_eq!(seen.increment.as_millis(), 2_000);
        assert_eq!(seen.moves_to_go, None);
        assert!(clock.press(Black, 30_000));
        // After Black's move White's 60 s begin to run.
        assert_eq!(
            clock.engine_clock(White, 40_000).remaining.as_millis(),
            50_000
        );
        let post = Clock::new(TimeControl::Correspondence {
            days: 2,
            bank_days: None,
        });
        assert_eq!(post.engine_clock(Black, 0).moves_to_go, Some(1));
    }

    #[test]
    fn a_fallen_flag_cannot_be_pressed() {
        let mut clock = Clock::new(BLITZ);
        clock.start(0);
        assert!(!clock.press(Black, 60_000));
        assert_eq!(clock.remaining_ms, [60_000, 60_000]);
        assert!(clock.press(Black, 59_999));
    }

    #[test]
    fn correspondence_gives_the_full_days_each_move() {
        let control = TimeControl::Correspondence {
            days: 2,
            bank_days: None,
        };
        let mut clock = Clock::new(control);
        clock.start(0);
        assert!(clock.press(Black, DAY_MS as i64));
        assert_eq!(clock.remaining_ms[0], 2 * DAY_MS);
        assert_eq!(clock.flag_at(White), Some(3 * DAY_MS as i64));
    }

    #[test]
    fn a_time_bank_adds_the_days_of_a_move_up_to_its_size() {
        let control = TimeControl::Correspondence {
            days: 1,
            bank_days: Some(10),
        };
        assert_eq!(control.label(), "10 days bank, 1 days/move");
        let mut clock = Clock::new(control);
        assert_eq!(clock.remaining_ms, [10 * DAY_MS; 2]);
        clock.start(0);
        // Black thinks 4 days: 6 left, plus a day.
        assert!(clock.press(Black, 4 * DAY_MS as i64));
        assert_eq!(clock.remaining_ms[0], 7 * DAY_MS);
        // White answers at once: the bank stays at its size.
        assert!(clock.press(White, 4 * DAY_MS as i64 + 1));
        assert_eq!(clock.remaining_ms[1], 10 * DAY_MS);
        assert_eq!(clock.flag_at(Black), Some(11 * DAY_MS as i64 + 1));
    }

    #[test]
    fn bounds_are_checked() {
        let bad = [
            TimeControl::Live {
                initial_s: 0,
                increment_s: 0,
            },
            TimeControl::Live {
                initial_s: MAX_INITIAL_S + 1,
                increment_s: 0,
            },
            TimeControl::Live {
                initial_s: 60,
                increment_s: u64::MAX,
            },
            TimeControl::Correspondence {
                days: 0,
                bank_days: None,
            },
            TimeControl::Correspondence {
                days: u64::MAX,
                bank_days: None,
            },
            TimeControl::Correspondence {
                days: 3,
                bank_days: Some(2),
            },
            TimeControl::Correspondence {
                days: 3,
                bank_days: Some(MAX_DAYS + 1),
            },
        ];
        for control in bad {
            assert!(control.validate().is_err(), "{control:?}");
        }
        assert!(BLITZ.validate().is_ok());
    }
}
