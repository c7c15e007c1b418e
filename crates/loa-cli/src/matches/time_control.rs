//! Time controls (`10+0.1`: seconds per game plus an increment per move) and the clock
//! the referee keeps for each side.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The longest time a match setting may give, in milliseconds: a million seconds (about
/// 11.6 days), so that no sum of times can overflow.
pub const MAX_MS: u64 = 1_000_000_000;

/// Time for the whole game plus an increment after every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base_ms: u64,
    pub increment_ms: u64,
}

impl FromStr for TimeControl {
    type Err = String;

    /// `SECONDS[+INCREMENT]`, both in seconds with decimals allowed (`10+0.1`, `60`,
    /// `0.5+0.01`); the base may also be written `MINUTES:SECONDS` (`1:30+1`).
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let quoted = loa_core::excerpt(text.trim());
        let text: &str = &quoted;
        let (base, inc) = match text.split_once('+') {
            Some((base, inc)) => (base, Some(inc)),
            None => (text, None),
        };
        let base_ms = match base.split_once(':') {
            Some((min, sec)) => {
                let min: u64 = min
                    .parse()
                    .map_err(|_| format!("time control '{text}': '{min}' is not whole minutes"))?;
                min.checked_mul(60_000)
                    .and_then(|ms| ms.checked_add(seconds_to_ms(sec, text).ok()?))
                    .filter(|&ms| ms <= MAX_MS)
                    .ok_or_else(|| too_long(text))?
            }
            None => seconds_to_ms(base, text)?,
        };
        let increment_ms = match inc {
            Some(inc) => seconds_to_ms(inc, text)?,
            None => 0,
        };
        if base_ms > MAX_MS || increment_ms > MAX_MS {
            return Err(too_long(text));
        }
        if base_ms == 0 && increment_ms == 0 {
            return Err(format!("time control '{text}' gives no time at all"));
        }
        Ok(TimeControl {
            base_ms,
            increment_ms,
        })
    }
}

fn too_long(text: &str) -> String {
    format!(
        "time control '{text}' is too long: at most {} seconds for the game and for the increment",
        MAX_MS / 1000
    )
}

fn seconds_to_ms(text: &str, whole: &str) -> Result<u64, String> {
    let seconds: f64 = text.trim().parse().map_err(|_| {
        format!(
            "time control '{whole}': '{text}' is not a number of seconds (expected e.g. 10+0.1)"
        )
    })?;
    if !seconds.is_finite() || seconds < 0.0 {
        return Err(format!(
            "time control '{whole}': '{text}' must be a non-negative number of seconds"
        ));
    }
    if seconds * 1000.0 > MAX_MS as f64 {
        return Err(too_long(whole));
    }
    Ok((seconds * 1000.0).round() as u64)
}

/// Written as fastchess writes it: `10+0.1`, `60+0`.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            ms_to_seconds_text(self.base_ms),
            ms_to_seconds_text(self.increment_ms)
        )
    }
}

fn ms_to_seconds_text(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        text.trim_end_matches('0').to_string()
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    /// Milliseconds left; never below zero between moves.
    pub remaining_ms: u64,
    pub increment_ms: u64,
}

/// What a move did to the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spent {
    /// In time; the increment has been added.
    InTime,
    /// Over the time left by more than the margin: the game is lost on time.
    Forfeit,
}

impl Clock {
    pub fn new(tc: TimeControl) -> Clock {
        Clock {
            remaining_ms: tc.base_ms,
            increment_ms: tc.increment_ms,
        }
    }

    /// How long the referee waits for a move before the side loses on time.
    pub fn deadline(&self, margin_ms: u64) -> Duration {
        Duration::from_millis(self.remaining_ms.saturating_add(margin_ms))
    }

    /// Charges a move that took `elapsed`. Time beyond what was left but within the
    /// margin is forgiven (the clock stops at zero); beyond the margin the game is lost.
    pub fn spend(&mut self, elapsed: Duration, margin_ms: u64) -> Spent {
        let used = elapsed.as_millis().min(u128::from(u64::MAX)) as u64;
        if used > self.remaining_ms.saturating_add(margin_ms) {
            self.remaining_ms = 0;
            return Spent::Forfeit;
        }
        self.remaining_ms = self
            .remaining_ms
            .saturating_sub(used)
            .saturating_add(self.increment_ms);
        Spent::InTime
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_time_controls() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!(
            tc,
            TimeControl {
                base_ms: 10_000,
                increment_ms: 100
            }
        );
        assert_eq!(tc.to_string(), "10+0.1");
        assert_eq!("60".parse::<TimeControl>().unwrap().to_string(), "60+0");
        assert_eq!("1:30+1".parse::<TimeControl>().unwrap().base_ms, 90_000);
        assert_eq!(
            "0.25+0.005".parse::<TimeControl>().unwrap().to_string(),
            "0.25+0.005"
        );
        assert!("ten".parse::<TimeControl>().is_err());
        assert!("0+0".parse::<TimeControl>().is_err());
        assert!("-5+1".parse::<TimeControl>().is_err());
        for huge in ["2e16+0", "1e7+0", "10+1e7", "99999999999999999:00+0"] {
            let err = huge.parse::<TimeControl>().unwrap_err();
            assert!(err.contains("too long"), "{huge}: {err}");
        }
        assert!("1000000+1000000".parse::<TimeControl>().is_ok());
    }

    #[test]
    fn clock_charges_forgives_within_the_margin_and_forfeits_beyond() {
        let mut clock = Clock::new("1+0.1".parse().unwrap());
        assert_eq!(clock.spend(Duration::from_millis(300), 50), Spent::InTime);
        assert_eq!(clock.remaining_ms, 800);
        assert_eq!(clock.deadline(50), Duration::from_millis(850));
        assert_eq!(clock.spend(Duration::from_millis(840), 50), Spent::InTime);
        assert_eq!(
            clock.remaining_ms, 100,
            "over by 40 ms within a 50 ms margin"
        );
        assert_eq!(clock.spend(Duration::from_millis(200), 50), Spent::Forfeit);
    }
}
