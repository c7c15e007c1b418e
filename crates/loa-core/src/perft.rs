//! Perft: the number of move sequences of a given length. Every sequence is counted, games
//! are not cut off at their end, and a forced pass counts as one move.

use crate::{GameState, Move};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Below this depth a count is too quick to be worth interrupting.
const INTERRUPTIBLE_DEPTH: u32 = 4;

/// The number of legal move sequences of `depth` plies from `pos`.
pub fn perft<P: GameState>(pos: &P, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            let mut total = 0;
            pos.for_each_move(|mv| total += perft(&pos.after(mv), depth - 1));
            total
        }
    }
}

/// Perft split by first move, in move-generation order.
pub fn divide<P: GameState>(pos: &P, depth: u32) -> Vec<(Move, u64)> {
    assert!(depth >= 1, "divide needs a depth of at least 1");
    pos.moves()
        .into_iter()
        .map(|mv| (mv, perft(&pos.after(mv), depth - 1)))
        .collect()
}

/// [`perft`] that gives up, with `None`, soon after `stop` is set.
pub fn perft_until<P: GameState>(pos: &P, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth < INTERRUPTIBLE_DEPTH {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    pos.moves()
        .into_iter()
        .map(|mv| perft_until(&pos.after(mv), depth - 1, stop))
        .sum()
}

/// [`divide`] that gives up, with `None`, soon after `stop` is set.
pub fn divide_until<P: GameState>(
    pos: &P,
    depth: u32,
    stop: &AtomicBool,
) -> Option<Vec<(Move, u64)>> {
    assert!(depth >= 1, "divide needs a depth of at least 1");
    pos.moves()
        .into_iter()
        .map(|mv| Some((mv, perft_until(&pos.after(mv), depth - 1, stop)?)))
        .collect()
}

/// A count split by first move into subtrees for threads to share: the positions two
/// plies deep (one below a depth of 3), so that no thread is left with one long first
/// move at the end.
pub struct PerftSplit<P> {
    roots: Vec<Move>,
    /// Each subtree's position, with the index of its first move.
    subtrees: Vec<(usize, P)>,
    depth: u32,
}

impl<P: GameState> PerftSplit<P> {
    /// The count of `depth` plies (at least 1) from `pos`, split.
    pub fn new(pos: &P, depth: u32) -> PerftSplit<P> {
        assert!(depth >= 1, "divide needs a depth of at least 1");
        let roots = pos.moves();
        let mut subtrees = Vec::new();
        for (i, &mv) in roots.iter().enumerate() {
            let child = pos.after(mv);
            if depth >= 3 {
                child.for_each_move(|reply| subtrees.push((i, child.after(reply))));
            } else {
                subtrees.push((i, child));
            }
        }
        let depth = if depth >= 3 { depth - 2 } else { depth - 1 };
        PerftSplit {
            roots,
            subtrees,
            depth,
        }
    }

    /// How many subtrees there are to count.
    pub fn subtrees(&self) -> usize {
        self.subtrees.len()
    }

    /// [`divide`], counted on `threads` threads; `on_subtree` hears of each subtree
    /// counted (a progress bar).
    pub fn count(self, threads: usize, on_subtree: impl Fn() + Sync) -> Vec<(Move, u64)> {
        let counts = Mutex::new(vec![0; self.roots.len()]);
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..threads.min(self.subtrees.len()).max(1) {
                scope.spawn(|| {
                    while let Some((root, position)) =
                        self.subtrees.get(next.fetch_add(1, Ordering::Relaxed))
                    {
                        let nodes = perft(position, self.depth);
                        counts.lock().expect("no panics while counting")[*root] += nodes;
                        on_subtree();
                    }
                });
            }
        });
        let counts = counts.into_inner().expect("no panics while counting");
        self.roots.into_iter().zip(counts).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    #[test]
    fn interruptible_counts_agree_and_stop() {
        let start = Position::startpos();
        let go_on = AtomicBool::new(false);
        assert_eq!(perft_until(&start, 4, &go_on), Some(1_563_208));
        let split = divide_until(&start, 4, &go_on).unwrap();
        assert_eq!(split, divide(&start, 4));
        let stopped = AtomicBool::new(true);
        assert_eq!(perft_until(&start, 9, &stopped), None);
        assert_eq!(divide_until(&start, 9, &stopped), None);
    }

    #[test]
    fn counts_split_for_threads_agree() {
        let start = Position::startpos();
        for depth in 1..=4 {
            let subtrees = AtomicUsize::new(0);
            let split = PerftSplit::new(&start, depth);
            let expected = split.subtrees();
            let counts = split.count(3, || {
                subtrees.fetch_add(1, Ordering::Relaxed);
            });
            assert_eq!(counts, divide(&start, depth), "depth {depth}");
            assert_eq!(subtrees.into_inner(), expected);
        }
    }
}
