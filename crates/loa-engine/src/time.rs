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

/// The time budget of one move: try to stop after `soft`, always stop by `hard`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub soft: Duration,
    pub hard: Duration,
}

impl Clock {
    /// Splits the clock into a budget for this move, keeping `overhead` in hand for the
    /// time it takes the move to reach the clock.
    pub fn budget(&self, overhead: Duration) -> Budget {
        let usable = self.remaining.saturating_sub(overhead);
        // Expect 18 more moves when nothing says: games last about 45 plies, and a share
        // of what is left keeps some in hand for long ones.
        let moves = self.moves_to_go.unwrap_or(18).clamp(1, 50);
        let share = usable / moves + self.increment * 3 / 4;
        let hard_cap = usable.mul_f64(if moves == 1 { 0.9 } else { 0.4 });
        let soft = share.min(hard_cap);
        Budget {
            soft,
            hard: (soft * 4).min(hard_cap).max(soft),
        }
    }
}

impl Budget {
    /// A fixed time for the move: use it all, less the overhead.
    pub fn fixed(time: Duration, overhead: Duration) -> Budget {
        let t = time.saturating_sub(overhead).max(Duration::from_millis(1));
        Budget { soft: t, hard: t }
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
        for remaining in [0, 1, 10, 100, 1_000, 60_000] {
            for increment in [0, 100, 5_000] {
                let clock = Clock {
                    remaining: ms(remaining),
                    increment: ms(increment),
                    moves_to_go: None,
                };
                let b = clock.budget(ms(50));
                assert!(b.soft <= b.hard);
                assert!(
                    b.hard <= ms(remaining).saturating_sub(ms(50)),
                    "{remaining} {increment} {b:?}"
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
        let b = clock.budget(ms(0));
        assert_eq!(b.soft, ms(60_000) / 18 + ms(750));
        assert_eq!(b.hard, b.soft * 4);
        let last = Clock {
            moves_to_go: Some(1),
            ..clock
        };
        assert_eq!(last.budget(ms(0)).hard, ms(54_000));
    }
}
