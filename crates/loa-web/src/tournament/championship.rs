//! The site's championships: recurring events, a setting of the server, whose editions
//! the site makes and starts by itself and whose top three win the medals that make
//! titles.

use crate::clock::TimeControl;
use chrono::{DateTime, Datelike, TimeZone, Utc};

/// A recurring championship.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Championship {
    /// A Swiss of 7 rounds at 3 minutes + 2 seconds, on the 1st of each month at 18:00 UTC.
    MonthlyBlitz,
    /// The Mind Sports Olympiad's format: a Swiss of 6 rounds at 25 minutes + 5 seconds,
    /// on 1 August each year at 12:00 UTC.
    YearlyClassical,
}

impl Championship {
    pub const ALL: [Championship; 2] = [Championship::MonthlyBlitz, Championship::YearlyClassical];

    /// How the server's setting names it, and the key its editions carry.
    pub fn key(self) -> &'static str {
        match self {
            Championship::MonthlyBlitz => "monthly-blitz",
            Championship::YearlyClassical => "yearly-classical",
        }
    }

    pub fn parse(text: &str) -> Result<Championship, String> {
        Championship::ALL
            .into_iter()
            .find(|c| c.key() == text)
            .ok_or_else(|| {
                format!(
                    "a championship is monthly-blitz or yearly-classical, not '{}'",
                    loa_core::excerpt(text)
                )
            })
    }

    pub fn rounds(self) -> i64 {
        match self {
            Championship::MonthlyBlitz => 7,
            Championship::YearlyClassical => 6,
        }
    }

    pub fn clock(self) -> TimeControl {
        let (initial_s, increment_s) = match self {
            Championship::MonthlyBlitz => (180, 2),
            Championship::YearlyClassical => (1500, 5),
        };
        TimeControl::Live {
            initial_s,
            increment_s,
        }
    }

    /// The first start strictly after `after_ms` (ms since 1970).
    pub fn next_start(self, after_ms: i64) -> i64 {
        let after = DateTime::from_timestamp_millis(after_ms).unwrap_or_default();
        let at = |year: i32, month: u32, hour: u32| {
            Utc.with_ymd_and_hms(year, month, 1, hour, 0, 0)
                .single()
                .map_or(i64::MAX, |t| t.timestamp_millis())
        };
        match self {
            Championship::MonthlyBlitz => {
                let this_month = at(after.year(), after.month(), 18);
                if this_month > after_ms {
                    return this_month;
                }
                let (year, month) = match after.month() {
                    12 => (after.year() + 1, 1),
                    m => (after.year(), m + 1),
                };
                at(year, month, 18)
            }
            Championship::YearlyClassical => {
                let this_year = at(after.year(), 8, 12);
                if this_year > after_ms {
                    this_year
                } else {
                    at(after.year() + 1, 8, 12)
                }
            }
        }
    }

    /// The name of the edition starting at `start_ms`: `Monthly blitz championship,
    /// December 2026`.
    pub fn edition_name(self, start_ms: i64) -> String {
        let start = DateTime::from_timestamp_millis(start_ms).unwrap_or_default();
        match self {
            Championship::MonthlyBlitz => {
                format!("Monthly blitz championship, {}", start.format("%B %Y"))
            }
            Championship::YearlyClassical => {
                format!("Classical championship {}", start.year())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(text: &str) -> i64 {
        DateTime::parse_from_rfc3339(text)
            .unwrap()
            .timestamp_millis()
    }

    #[test]
    fn the_next_edition_starts_on_its_day() {
        let monthly = Championship::MonthlyBlitz;
        assert_eq!(
            monthly.next_start(ms("2026-11-25T10:00:00Z")),
            ms("2026-12-01T18:00:00Z")
        );
        assert_eq!(
            monthly.next_start(ms("2026-12-01T17:59:59Z")),
            ms("2026-12-01T18:00:00Z")
        );
        // At the very start, the next one: an edition is never made for a time past.
        assert_eq!(
            monthly.next_start(ms("2026-12-01T18:00:00Z")),
            ms("2027-01-01T18:00:00Z")
        );
        let yearly = Championship::YearlyClassical;
        assert_eq!(
            yearly.next_start(ms("2026-11-25T10:00:00Z")),
            ms("2027-08-01T12:00:00Z")
        );
        assert_eq!(
            yearly.next_start(ms("2027-07-31T23:00:00Z")),
            ms("2027-08-01T12:00:00Z")
        );
    }

    #[test]
    fn editions_are_named_by_their_month_or_year() {
        assert_eq!(
            Championship::MonthlyBlitz.edition_name(ms("2026-12-01T18:00:00Z")),
            "Monthly blitz championship, December 2026"
        );
        assert_eq!(
            Championship::YearlyClassical.edition_name(ms("2027-08-01T12:00:00Z")),
            "Classical championship 2027"
        );
    }

    #[test]
    fn championships_are_named_in_the_setting() {
        assert_eq!(
            Championship::parse("yearly-classical"),
            Ok(Championship::YearlyClassical)
        );
        assert!(Championship::parse("daily")
            .unwrap_err()
            .contains("monthly-blitz or yearly-classical"));
        assert_eq!(
            Championship::MonthlyBlitz.clock(),
            TimeControl::Live {
                initial_s: 180,
                increment_s: 2
            }
        );
        assert_eq!(Championship::YearlyClassical.rounds(), 6);
    }
}
