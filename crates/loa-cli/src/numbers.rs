//! Numbers from the command line, read by clap's value parsers with a message that says
//! what is expected: a negative, zero, huge or malformed value is an error, never a
//! panic or a silent change.

use loa_core::excerpt;
use std::num::IntErrorKind;
use std::str::FromStr;
use std::time::Duration;

/// The longest time a command may be asked to think, in seconds (about 11.6 days).
pub const MAX_SECONDS: f64 = 1_000_000.0;

/// The most threads a command runs.
pub const MAX_THREADS: usize = 256;

/// A whole number from `min` to `max`.
pub fn whole<T>(min: T, max: T) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: FromStr<Err = std::num::ParseIntError> + PartialOrd + Copy + std::fmt::Display,
    T: Send + Sync + 'static,
{
    whole_as(min, max, format!("a whole number from {min} to {max}"))
}

/// A whole number from `min` to `max`, the valid values said in words of their own:
/// `6, 7 or 8`.
pub fn whole_as<T>(
    min: T,
    max: T,
    valid: String,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: FromStr<Err = std::num::ParseIntError> + PartialOrd + Copy + std::fmt::Display,
    T: Send + Sync + 'static,
{
    move |text: &str| {
        let quoted = excerpt(text);
        let expected = format!("expected {valid}");
        match text.trim().parse::<T>() {
            Ok(n) if n >= min && n <= max => Ok(n),
            Ok(n) => Err(format!("{n} is out of range: {expected}")),
            Err(e) => match e.kind() {
                IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
                    Err(format!("'{quoted}' is out of range: {expected}"))
                }
                // A minus sign on an unsigned type.
                IntErrorKind::InvalidDigit if text.trim().starts_with('-') => {
                    Err(format!("'{quoted}' is negative: {expected}"))
                }
                _ => Err(format!("'{quoted}' is not a whole number: {expected}")),
            },
        }
    }
}

/// A number of seconds above zero and at most [`MAX_SECONDS`], as a duration.
pub fn seconds(text: &str) -> Result<Duration, String> {
    let expected = format!("expected a number of seconds above 0 and at most {MAX_SECONDS}");
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{}' is not a number: {expected}", excerpt(text)))?;
    if !(value > 0.0 && value <= MAX_SECONDS) {
        return Err(format!("{} is out of range: {expected}", excerpt(text)));
    }
    Ok(Duration::from_secs_f64(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_say_what_is_wrong() {
        let depth = whole::<u32>(1, 127);
        assert_eq!(depth("5"), Ok(5));
        assert!(depth("0").unwrap_err().contains("out of range"));
        assert!(depth("128").unwrap_err().contains("from 1 to 127"));
        assert!(depth("-1").unwrap_err().contains("negative"));
        assert!(depth("99999999999999999999")
            .unwrap_err()
            .contains("out of range"));
        assert!(depth("x").unwrap_err().contains("not a whole number"));
    }

    #[test]
    fn valid_values_said_in_words_of_their_own() {
        let board = whole_as::<u8>(6, 8, "6, 7 or 8".into());
        assert_eq!(board("7"), Ok(7));
        assert_eq!(
            board("9"),
            Err("9 is out of range: expected 6, 7 or 8".into())
        );
        assert_eq!(
            board("x"),
            Err("'x' is not a whole number: expected 6, 7 or 8".into())
        );
    }

    #[test]
    fn seconds_are_positive_and_bounded() {
        assert_eq!(seconds("0.5"), Ok(Duration::from_millis(500)));
        for bad in ["0", "-1", "1e19", "1e308", "inf", "NaN", "x", ""] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
    }
}
