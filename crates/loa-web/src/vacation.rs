//! Vacations: a correspondence player may stop their clocks for up to 30 days a year (a
//! year as UTC counts it). While a vacation lasts, the clock of each correspondence game
//! in which they are to move stands still, with the time it had left; a move the opponent
//! makes meanwhile starts the player's time only when the vacation ends. Ended early,
//! its whole days not begun are given back. No I/O here: `api` stores what this decides
//! and has the hub stop and start the clocks.

use chrono::{Datelike, TimeZone, Utc};
use serde::Serialize;

/// The vacation days each year holds.
pub const DAYS_A_YEAR: u32 = 30;
const DAY_MS: i64 = 24 * 3600 * 1000;

/// An account's vacation days, as stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Vacation {
    /// When the current vacation ends, if one was taken.
    pub until: Option<i64>,
    /// The year `days` were taken in.
    pub year: Option<i32>,
    pub days: u32,
}

/// A vacation as the API shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VacationView {
    /// When the current vacation ends; `None` when the player is not on one.
    pub until: Option<i64>,
    /// The days still to take this year.
    pub days_left: u32,
    pub days_a_year: u32,
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum VacationError {
    #[error(
        "a vacation is from 1 to {left} days: that is what is left of this year's {DAYS_A_YEAR}"
    )]
    TooLong { left: u32 },
    #[error("a vacation is running: end it first")]
    Running,
    #[error("there is no vacation to end")]
    NotRunning,
}

fn year_of(ms: i64) -> i32 {
    Utc.timestamp_millis_opt(ms)
        .single()
        .map_or(1970, |t| t.year())
}

impl Vacation {
    /// Whether a vacation lasts at `now`.
    pub fn is_on(&self, now: i64) -> bool {
        self.until.is_some_and(|until| until > now)
    }

    /// The days taken this year.
    fn taken(&self, now: i64) -> u32 {
        if self.year == Some(year_of(now)) {
            self.days
        } else {
            0
        }
    }

    pub fn view(&self, now: i64) -> VacationView {
        VacationView {
            until: self.until.filter(|_| self.is_on(now)),
            days_left: DAYS_A_YEAR.saturating_sub(self.taken(now)),
            days_a_year: DAYS_A_YEAR,
        }
    }

    /// A vacation of `days` from `now`.
    pub fn start(&self, days: u32, now: i64) -> Result<Vacation, VacationError> {
        if self.is_on(now) {
            return Err(VacationError::Running);
        }
        let left = DAYS_A_YEAR.saturating_sub(self.taken(now));
        if days == 0 || days > left {
            return Err(VacationError::TooLong { left });
        }
        Ok(Vacation {
            until: Some(now + i64::from(days) * DAY_MS),
            year: Some(year_of(now)),
            days: self.taken(now) + days,
        })
    }

    /// The vacation ended at `now`: the whole days not begun are given back.
    pub fn end(&self, now: i64) -> Result<Vacation, VacationError> {
        let until = self
            .until
            .filter(|_| self.is_on(now))
            .ok_or(VacationError::NotRunning)?;
        let unused = u32::try_from((until - now) / DAY_MS).unwrap_or(0);
        Ok(Vacation {
            until: Some(now),
            year: self.year,
            days: self.days.saturating_sub(unused),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-03-01 00:00 UTC.
    const MARCH: i64 = 1_772_323_200_000;

    #[test]
    fn a_vacation_takes_its_days_from_the_years_thirty() {
        let none = Vacation::default();
        assert_eq!(none.view(MARCH).days_left, 30);
        let on = none.start(10, MARCH).unwrap();
        assert_eq!(on.until, Some(MARCH + 10 * DAY_MS));
        assert!(on.is_on(MARCH + 10 * DAY_MS - 1) && !on.is_on(MARCH + 10 * DAY_MS));
        assert_eq!(on.view(MARCH).days_left, 20);
        assert_eq!(on.start(1, MARCH + DAY_MS), Err(VacationError::Running));
        let after = MARCH + 11 * DAY_MS;
        assert_eq!(
            on.start(21, after),
            Err(VacationError::TooLong { left: 20 })
        );
        assert_eq!(on.start(0, after), Err(VacationError::TooLong { left: 20 }));
        assert_eq!(on.start(20, after).unwrap().view(after).days_left, 0);
    }

    #[test]
    fn ended_early_its_days_not_begun_come_back() {
        let on = Vacation::default().start(10, MARCH).unwrap();
        // Ended 2.5 days in: 7 whole days were not begun.
        let ended = on.end(MARCH + 5 * DAY_MS / 2).unwrap();
        assert_eq!(ended.view(MARCH + 3 * DAY_MS).days_left, 27);
        assert!(!ended.is_on(MARCH + 5 * DAY_MS / 2));
        assert_eq!(
            ended.end(MARCH + 3 * DAY_MS),
            Err(VacationError::NotRunning)
        );
    }

    #[test]
    fn a_new_year_gives_thirty_days_again() {
        let on = Vacation::default().start(30, MARCH).unwrap();
        assert_eq!(on.view(MARCH + 40 * DAY_MS).days_left, 0);
        let next_year = MARCH + 366 * DAY_MS;
        assert_eq!(on.view(next_year).days_left, 30);
        assert!(on.start(30, next_year).is_ok());
    }
}
