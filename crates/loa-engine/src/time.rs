//! Time management: how long to think about one move.

use std::time::Duration;

/// The mover's clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// How long one move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeLimit {
    /// Search until the time is up: a fixed time a move, or analysis for so long.
    Fixed(Duration),
    /// A share of a clock: start no iteration unlikely to end by `soft`; stop at `hard`.
    Managed { soft: Duration, hard: Duration },
}

impl TimeLimit {
    /// A fixed time for the move, less the overhead kept for the move to reach the clock.
    /// The overhead is at most a twentieth of the time, so short move times are still used.
    pub fn move_time(time: Duration, overhead: Duration) -> TimeLimit {
        TimeLimit::Fixed(time - overhead.min(time / 20))
    }

    /// The tighter of two limits: a fixed time kept under a clock's share, or the
    /// share, stopped no later than the fixed time.
    pub fn tighter(self, other: TimeLimit) -> TimeLimit {
        use TimeLimit::{Fixed, Managed};
        match (self, other) {
            (Fixed(a), Fixed(b)) => Fixed(a.min(b)),
            (Fixed(time), Managed { soft, hard }) | (Managed { soft, hard }, Fixed(time)) => {
                if time <= soft {
                    Fixed(time)
                } else {
                    Managed {
                        soft,
                        hard: hard.min(time),
                    }
                }
            }
            (Managed { soft, hard }, Managed { soft: s, hard: h }) => Managed {
                soft: soft.min(s),
                hard: hard.min(h),
            },
        }
    }

    /// The time after which the search stops whatever it is doing.
    pub fn hard(self) -> Duration {
        match self {
            TimeLimit::Fixed(time) => time,
            TimeLimit::Managed { hard, .. } => hard,
        }
    }
}

/// How much of a clock's soft limit one move deserves, from how its iterations went: more
/// while the best move keeps changing or the score falls, less when both hold still.
#[derive(Clone, Copy, Debug, Default)]
pub struct Effort {
    /// Changes of the best move, each iteration's halved by the next.
    changes: f64,
    /// The last iteration's fall in score, in units of 200 centipawns.
    falling: f64,
}

impl Effort {
    /// After an iteration: whether its best move differs from the last one's, and how
    /// much its score rose (negative: fell), in centipawns.
    pub fn record(&mut self, best_changed: bool, score_rise: i32) {
        self.changes = self.changes / 2.0 + f64::from(u8::from(best_changed));
        self.falling = (f64::from(-score_rise) / 200.0).clamp(-0.25, 0.5);
    }

    /// The factor on the soft limit: 0.8 for a settled search, up to 2.5.
    pub fn scale(&self) -> f64 {
        ((0.8 + 0.6 * self.changes) * (1.0 + self.falling)).clamp(0.5, 2.5)
    }
}

impl Clock {
    /// Splits the clock into a limit for this move, keeping `overhead` in hand for the
    /// time it takes the move to reach the clock.
    pub fn budget(&self, overhead: Duration) -> TimeLimit {
        let usable = self.remaining.saturating_sub(overhead);
        // Expect 18 more moves when nothing says: games last about 45 plies, and a share
        // of what is left keeps some in hand for long ones.
        let moves = self.moves_to_go.unwrap_or(18).clamp(1, 50);
        let share = (usable / moves).saturating_add(self.increment.saturating_mul(3) / 4);
        let hard_cap = usable.mul_f64(if moves == 1 { 0.9 } else { 0.4 });
        let soft = share.min(hard_cap);
        TimeLimit::Managed {
            soft,
            hard: soft.saturating_mul(4).min(hard_cap).max(soft),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn budget_stays_inside_the_clock() {
        for remaining in [0, 1, 10, 100, 1_000, 60_000, u64::MAX / 2] {
            for increment in [0, 100, 5_000, u64::MAX / 2] {
                let clock = Clock {
                    remaining: ms(remaining),
                    increment: ms(increment),
                    moves_to_go: None,
                };
                let TimeLimit::Managed { soft, hard } = clock.budget(ms(50)) else {
                    panic!("a clock gives a managed limit");
                };
                assert!(soft <= hard);
                assert!(
                    hard <= ms(remaining).saturating_sub(ms(50)),
                    "{remaining} {increment} {soft:?} {hard:?}"
                );
            }
        }
    }

    #[test]
    fn typical_split() {
        let clock = Clock {
            remaining: ms(60_000),
            increment: ms(1_000),
            moves_to_go: None,
        };
        let soft = ms(60_000) / 18 + ms(750);
        assert_eq!(
            clock.budget(ms(0)),
            TimeLimit::Managed {
                soft,
                hard: soft * 4
            }
        );
        let last = Clock {
            moves_to_go: Some(1),
            ..clock
        };
        assert_eq!(last.budget(ms(0)).hard(), ms(54_000));
    }

    #[test]
    fn the_tighter_limit_keeps_a_fixed_time_inside_a_clock_share() {
        let share = TimeLimit::Managed {
            soft: ms(1_000),
            hard: ms(4_000),
        };
        let fixed = TimeLimit::Fixed;
        assert_eq!(fixed(ms(500)).tighter(share), fixed(ms(500)));
        assert_eq!(share.tighter(fixed(ms(500))), fixed(ms(500)));
        assert_eq!(
            fixed(ms(2_000)).tighter(share),
            TimeLimit::Managed {
                soft: ms(1_000),
                hard: ms(2_000)
            }
        );
        assert_eq!(fixed(ms(9_000)).tighter(share), share);
        assert_eq!(fixed(ms(3)).tighter(fixed(ms(2))), fixed(ms(2)));
        let other = TimeLimit::Managed {
            soft: ms(2_000),
            hard: ms(3_000),
        };
        assert_eq!(
            share.tighter(other),
            TimeLimit::Managed {
                soft: ms(1_000),
                hard: ms(3_000)
            }
        );
    }

    #[test]
    fn effort_grows_with_changes_of_mind_and_falling_scores() {
        let settled = Effort::default();
        assert_eq!(settled.scale(), 0.8);
        let mut wavering = Effort::default();
        wavering.record(true, 0);
        assert!((wavering.scale() - 1.4).abs() < 1e-9);
        wavering.record(true, 0);
        assert!((wavering.scale() - 1.7).abs() < 1e-9);
        // A change of mind is forgotten by halves.
        wavering.record(false, 0);
        assert!((wavering.scale() - 1.25).abs() < 1e-9);
        let mut falling = Effort::default();
        falling.record(false, -100);
        assert!((falling.scale() - 1.2).abs() < 1e-9);
        falling.record(false, -1_000);
        assert!(
            (falling.scale() - 1.2).abs() < 1e-9,
            "the fall counts up to half"
        );
        falling.record(false, 1_000);
        assert!(
            (falling.scale() - 0.6).abs() < 1e-9,
            "a rise saves up to a quarter"
        );
        for _ in 0..10 {
            wavering.record(true, -1_000);
        }
        assert_eq!(wavering.scale(), 2.5);
    }

    #[test]
    fn a_move_time_keeps_a_small_overhead() {
        assert_eq!(TimeLimit::move_time(ms(500), ms(10)).hard(), ms(490));
        // A twentieth of 100 ms is less than the 10 ms overhead.
        assert_eq!(TimeLimit::move_time(ms(100), ms(10)).hard(), ms(95));
        assert_eq!(TimeLimit::move_time(ms(20), ms(10)).hard(), ms(19));
        assert_eq!(TimeLimit::move_time(ms(0), ms(10)).hard(), ms(0));
    }
}
