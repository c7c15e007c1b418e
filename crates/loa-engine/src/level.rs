//! The engine's strength levels, 1 to 8: what the site's levels and the protocol's
//! `Level` option play. Levels 1-4 draw their move among the root's moves, the better
//! ones likelier (level 1 is an opponent a beginner can beat); levels 1-7 search to a
//! fixed depth, so they play alike on any machine; level 8 thinks a second a move at
//! full strength. docs/web.md ("Strength levels") gives each level's Elo against the one
//! below.

use crate::search::SearchLimits;
use crate::time::TimeLimit;
use std::time::Duration;

/// The strongest level.
pub const MAX_LEVEL: u8 = 8;

/// Each level's Elo above a player of random legal moves: the sum of the steps measured
/// with `loa match`, each level against the one below (docs/web.md, "Strength levels").
pub const LEVEL_ELO: [u32; MAX_LEVEL as usize] = [728, 943, 1237, 1605, 1960, 2396, 2675, 3351];

/// The search limits of `level` (1 to [`MAX_LEVEL`]), `None` outside them. Every level
/// is bounded in time, so a deep level on a slow machine still answers.
pub fn level_limits(level: u8) -> Option<SearchLimits> {
    // Spreads in centipawns: a move 100 cp worse than the best is drawn exp(-100 / spread)
    // times as often as the best.
    let (depth, time_ms, spread) = match level {
        1 => (Some(1), 2_000, Some(100)),
        2 => (Some(2), 2_000, Some(100)),
        3 => (Some(2), 2_000, Some(60)),
        4 => (Some(2), 2_000, Some(30)),
        5 => (Some(3), 2_000, None),
        6 => (Some(5), 2_000, None),
        7 => (Some(7), 2_000, None),
        8 => (None, 1_000, None),
        _ => return None,
    };
    Some(SearchLimits {
        depth,
        time: Some(TimeLimit::Fixed(Duration::from_millis(time_ms))),
        spread,
        ..SearchLimits::default()
    })
}

/// How `level` searches, in words: `depth 3`, `1 s a move (full strength)`.
pub fn level_in_words(level: u8) -> Option<String> {
    let limits = level_limits(level)?;
    Some(match (limits.depth, limits.spread, limits.time) {
        (Some(depth), Some(spread), _) => {
            format!("depth {depth}, a move drawn by score (spread {spread})")
        }
        (Some(depth), None, _) => format!("depth {depth}"),
        (None, _, time) => format!(
            "{} s a move (full strength)",
            time.map_or(0.0, |t| t.hard().as_secs_f64())
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_depths_but_the_last_and_every_one_is_bounded_in_time() {
        assert!(level_limits(0).is_none());
        assert!(level_limits(MAX_LEVEL + 1).is_none());
        let depths: Vec<_> = (1..=MAX_LEVEL)
            .map(|level| level_limits(level).unwrap().depth)
            .collect();
        let expected = [1, 2, 2, 2, 3, 5, 7].map(Some);
        assert_eq!(depths[..7], expected);
        assert_eq!(depths[7], None);
        let spreads: Vec<_> = (1..=MAX_LEVEL)
            .map(|level| level_limits(level).unwrap().spread)
            .collect();
        assert_eq!(spreads[..4], [100, 100, 60, 30].map(Some));
        assert!(spreads[4..].iter().all(Option::is_none));
        for level in 1..=MAX_LEVEL {
            assert!(level_limits(level).unwrap().time.is_some());
        }
        assert!(
            LEVEL_ELO.windows(2).all(|w| w[0] < w[1]),
            "each level stronger"
        );
        assert_eq!(level_in_words(5).unwrap(), "depth 3");
        assert_eq!(
            level_in_words(1).unwrap(),
            "depth 1, a move drawn by score (spread 100)"
        );
        assert_eq!(level_in_words(8).unwrap(), "1 s a move (full strength)");
        assert_eq!(level_in_words(9), None);
    }
}
