//! Time controls (`10+0.1`: seconds per game plus an increment per move) and the clock
//! the referee keeps for each side.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The longest time a match setting may give: a million seconds (about 11.6 days), so
/// that no sum of times can overflow.
pub const MAX_TIME: Duration = Duration::from_secs(1_000_000);

/// Time for the whole game plus an increment after every move, to the millisecond.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
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
        let base = match base.split_once(':') {
            Some((min, sec)) => {
                let min: u64 = min
                    .parse()
                    .map_err(|_| format!("time control '{text}': '{min}' is not whole minutes"))?;
                min.checked_mul(60)
                    .map(Duration::from_secs)
                    .and_then(|m| m.checked_add(seconds(sec, text).ok()?))
                    .filter(|&t| t <= MAX_TIME)
                    .ok_or_else(|| too_long(text))?
            }
            None => seconds(base, text)?,
        };
        let increment = match inc {
            Some(inc) => seconds(inc, text)?,
            None => Duration::ZERO,
        };
        if base.is_zero() && increment.is_zero() {
            return Err(format!("time control '{text}' gives no time at all"));
        }
        Ok(TimeControl { base, increment })
    }
}

fn too_long(text: &str) -> String {
    format!(
        "time control '{text}' is too long: at most {} seconds for the game and for the increment",
        MAX_TIME.as_secs()
    )
}

/// Seconds with decimals, to the millisecond.
fn seconds(text: &str, whole: &str) -> Result<Duration, String> {
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
    if seconds > MAX_TIME.as_secs_f64() {
        return Err(too_long(whole));
    }
    Ok(Duration::from_millis((seconds * 1000.0).round() as u64))
}

/// Written as fastchess writes it: `10+0.1`, `60+0`.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            seconds_text(self.base),
            seconds_text(self.increment)
        )
    }
}

fn seconds_text(time: Duration) -> String {
    let ms = time.as_millis();
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        text.trim_end_matches('0').to_string()
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug)]
pub struct GameClock {
    /// Time left; never below zero between moves.
    pub remaining: Duration,
    pub increment: Duration,
}

/// What a move did to the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spent {
    /// In time; the increment has been added.
    InTime,
    /// Over the time left by more than the margin: the game is lost on time.
    Forfeit,
}

impl GameClock {
    pub fn new(tc: TimeControl) -> GameClock {
        GameClock {
            remaining: tc.base,
            increment: tc.increment,
        }
    }

    /// How long the referee waits for a move before the side loses on time.
    pub fn deadline(&self, margin: Duration) -> Duration {
        self.remaining.saturating_add(margin)
    }

    /// Charges a move that took `elapsed`. Time beyond what was left but within the
    /// margin is forgiven (the clock stops at zero); beyond the margin the game is lost.
    pub fn spend(&mut self, elapsed: Duration, margin: Duration) -> Spent {
        if elapsed > self.remaining.saturating_add(margin) {
            self.remaining = Duration::ZERO;
            return Spent::Forfeit;
        }
        self.remaining = self
            .remaining
            .saturating_sub(elapsed)
            .saturating_add(self.increment);
        Spent::InTime
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_and_prints_time_controls() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!(
            tc,
            TimeControl {
                base: ms(10_000),
                increment: ms(100)
            }
        );
        assert_eq!(tc.to_string(), "10+0.1");
        assert_eq!("60".parse::<TimeControl>().unwrap().to_string(), "60+0");
        assert_eq!("1:30+1".parse::<TimeControl>().unwrap().base, ms(90_000));
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
        let mut clock = GameClock::new("1+0.1".parse().unwrap());
        assert_eq!(clock.spend(ms(300), ms(50)), Spent::InTime);
        assert_eq!(clock.remaining, ms(800));
        assert_eq!(clock.deadline(ms(50)), ms(850));
        assert_eq!(clock.spend(ms(840), ms(50)), Spent::InTime);
        assert_eq!(
            clock.remaining,
            ms(100),
            "over by 40 ms within a 50 ms margin"
        );
        assert_eq!(clock.spend(ms(200), ms(50)), Spent::Forfeit);
    }
}
