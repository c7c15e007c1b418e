//! The bench: a fixed set of positions searched to a fixed depth on one thread. Its node
//! count is deterministic and identifies the search; any change to search or evaluation
//! changes it.

use crate::{Engine, SearchLimits};
use loa_core::{Position, RuleSet};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Positions from games of the standard and Scrambled Eggs starts at every stage, and a
/// few 7x7 and 6x6 ones.
pub const POSITIONS: [&str; 44] = [
    "8/2www3/1b5w/3w3b/3wbbbw/2b1b2w/4b3/w7 b",
    "1b3wb1/ww3w2/bb3b2/2b4w/3b4/3b3w/w4w1w/4b1b1 b",
    "4w1b1/4bb2/6ww/5w2/1b1ww1w1/8/8/1b6 w",
    "1b2bbb1/1bww3w/3w3w/5w1w/2wb4/w1bwb3/2b4w/8 w",
    "8/1bw5/2bbw1w1/3www2/2wbwb2/4wb2/7w/8 b",
    "1bbbbbb1/ww5w/w6w/w6w/w6w/bb5w/7w/1b2bbb1 b",
    "3bb3/1bwb4/2wwbw2/2bbbw2/3bbw2/4w3/8/8 b",
    "2b5/6b1/8/1w1bbw1w/2wwwb1w/1b2b1b1/1w5w/8 b",
    "1bbbbwb1/w1w1w3/8/ww6/w5bw/w4bbw/b1w4w/2bb4 b",
    "1bbbbbb1/w6w/7w/w6w/w1w4w/w4bbw/7w/1b1bb3 w",
    "4bbb1/5w2/w2b3w/1w6/2wbb2w/3w1bbw/2b4w/1b1b4 w",
    "8/2w5/1wbww3/2wbbb2/w7/2bb1bb1/3w4/w7 b",
    "2bbb1b1/w7/2w4w/2wbbb2/3ww1b1/6bw/7w/8 b",
    "4b2b/6w1/3w3w/1bwb4/2w5/2b2w1w/1b3w1w/1b3b2 w",
    "1bb1bbb1/7w/7w/2bb3w/2w5/2wwbwww/2w4w/3b4 w",
    "2w1b3/2w1wwbw/w2w4/w5b1/4b3/4bbww/3b1b2/1b1b4 w",
    "5b2/8/4b2b/3wbwww/3wbbb1/4bbbw/6w1/8 w",
    "2wb4/6w1/4bb2/4ww1w/4bbww/b5bw/8/8 w",
    "1b6/w6w/w1w1b1bb/3bw3/2b4w/3wbbbw/3w3w/1b1b4 w",
    "1bbbbbb1/w6w/7w/w1w4w/w1w4w/5bbw/7w/1b1bb3 b",
    "1bbbbb2/w6w/2w2b1w/2wb3w/2wb4/3bb2w/7w/4b3 w",
    "wbbbb1b1/1b6/w4b1w/7w/2w1b1b1/4b2w/ww5w/1b6 b",
    "1bbb4/7w/3w2b1/wwwbw2b/1b1bw3/3wb2w/8/8 w",
    "1w6/8/1bbb4/1bwbw3/1bbww3/4w3/5wb1/8 w",
    "2wbbbb1/2w4w/1b5w/5w1w/w2w1w2/w2bbb2/wb6/2b5 w",
    "4bbb1/3b4/5bww/3w1b1w/3w4/3bw1b1/7w/8 b",
    "8/1bw3w1/3wwb1w/3wbb2/2wbwbb1/4bb2/6w1/8 w",
    "2bbbbb1/w6w/6w1/w1w1b3/w1w4b/3b1bbw/6w1/3b4 b",
    "1bbbbbb1/w6w/7w/w6w/w1w4w/w4b1w/7w/1b1bb1b1 b",
    "wb1b4/2w5/2b5/3w1wb1/3b1bww/3bb1b1/1b6/1b4w1 b",
    "8/8/1b6/ww1ww3/bbwb4/wwbbb3/2w2w2/4b1b1 w",
    "2w5/2w4b/1b2bbww/4www1/2b1w2w/7w/4w3/2b1b1b1 b",
    "1b1b4/2b2b2/b2bw1w1/3bb3/2bwbw1w/3ww1bw/7w/8 b",
    "1b1b2w1/w6b/b6w/w3ww1b/5w2/w3b2b/b1b4w/1wbwbw2 b",
    "w1b2ww1/2w1bb2/3wb1bw/4bb2/3w4/8/8/8 w",
    "1b4w1/1w3b2/2ww1b2/1wwwb3/3wb3/5b2/8/3b4 w",
    "8/8/3b2ww/2w1w3/2bbbwwb/2wb2bw/1wb5/1w6 b",
    "8/5www/3b1bb1/3bw1b1/2b1bb1w/w5b1/1w5w/2b5 b",
    "1bbw1b1/2w2bw/2w1w2/2bb3/3wbbw/6w/1b5 b",
    "7/w2b2w/1b1w1w1/3bw2/3wbbw/2w3w/1bb2b1 w",
    "7/w6/1w2bbb/w3w1w/w5w/w6/bbbbb2 w",
    "1bbbb1/5w/w4w/w2bbw/w2w2/wb2b1 b",
    "1bbbbw/b1w2w/w4w/wb3w/w5/3bb1 w",
    "6/1w2b1/1b2b1/2bwbw/2wwww/1bbb2 b",
];

/// The default bench depth.
pub const DEPTH: u32 = 8;

#[derive(Clone, Copy, Debug)]
pub struct BenchResult {
    pub nodes: u64,
    pub time: Duration,
}

/// Searches every position to `depth` with a fresh 16 MiB table, one thread;
/// `on_position` hears each position's node count.
pub fn run(depth: u32, mut on_position: impl FnMut(usize, &str, u64)) -> BenchResult {
    let stop = AtomicBool::new(false);
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let mut engine = Engine::new(16);
    let mut nodes = 0;
    let started = Instant::now();
    for (i, text) in POSITIONS.iter().enumerate() {
        let pos: Position = text.parse().expect("bench positions are valid");
        engine.clear();
        let result = engine.search(&pos, &[], RuleSet::Draw, &limits, &stop, |_| {});
        on_position(i, text, result.nodes);
        nodes += result.nodes;
    }
    BenchResult {
        nodes,
        time: started.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_valid_and_unfinished() {
        for text in POSITIONS {
            let pos: Position = text.parse().unwrap();
            assert_eq!(pos.outcome(RuleSet::Draw), None, "{text}");
        }
    }

    #[test]
    fn node_count_is_deterministic() {
        let a = run(3, |_, _, _| {});
        let b = run(3, |_, _, _| {});
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 1_000);
    }
}
