//! Helper threads: they search the same root over the shared table, each breaking ties
//! between children in an order of its own, and a child another thread is in looks
//! harder to them, so that the threads spread over the tree. The main thread searches as
//! one thread would, on the table the helpers fill.

use super::table::Entry;
use super::{SolveLimits, Solver, INF};
use loa_core::GameState;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;

/// Slots of the threads' marks on the positions they are in.
const BUSY_SLOTS: usize = 1 << 16;

/// The threads' marks with no thread in any position.
fn no_marks() -> Arc<[AtomicU32]> {
    (0..BUSY_SLOTS).map(|_| AtomicU32::new(0)).collect()
}

impl Solver<'_> {
    /// A helper thread's solver: the same table, rules and root, its own line; it stops
    /// when `done` is set.
    fn helper<'s>(&self, index: usize, done: &'s AtomicBool) -> Solver<'s> {
        Solver {
            table: Arc::clone(&self.table),
            table_kept: self.table_kept,
            threads: 1,
            helper: index as u64 + 1,
            helper_nodes: Arc::clone(&self.helper_nodes),
            busy: self.busy.clone(),
            rules: self.rules,
            attacker: self.attacker,
            path: self.path.clone(),
            nodes: 0,
            started: self.started,
            limits: SolveLimits::default(),
            stop: done,
            stopped: false,
            progress: None,
            next_report: u64::MAX,
            root_key: self.root_key,
            root_numbers: self.root_numbers,
            checkpoint: None,
            last_checkpoint: self.last_checkpoint,
            second_stage: self.second_stage,
            only: self.only,
            resumed: None,
            checkpoint_error: None,
            moves: Vec::new(),
            path_symmetries: self.path_symmetries,
            spare: Vec::new(),
            searching: Vec::new(),
            unwind_to: None,
            give_up_at: u64::MAX,
            gave_up: false,
        }
    }

    /// The root searched by this thread and its helpers, until it is proved or disproved
    /// or the search is stopped; the root's numbers.
    pub(super) fn search_root<P: GameState + Copy>(&mut self, root: &P) -> (u32, u32) {
        if self.threads == 1 {
            let (pn, dn, _) = self.mid(root, INF, INF);
            return (pn, dn);
        }
        let done = AtomicBool::new(false);
        let root = *root;
        self.busy = Some(no_marks());
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (0..self.threads - 1)
                .map(|index| {
                    let mut helper = self.helper(index, &done);
                    std::thread::Builder::new()
                        .name(format!("solver helper {}", index + 1))
                        .stack_size(64 << 20)
                        .spawn_scoped(scope, move || {
                            helper.mid(&root, INF, INF);
                            helper.nodes
                        })
                })
                .collect();
            let (pn, dn, _) = self.mid(&root, INF, INF);
            done.store(true, Ordering::Relaxed);
            for helper in helpers {
                // A helper that could not start searched nothing.
                self.nodes += helper.ok().and_then(|h| h.join().ok()).unwrap_or(0);
            }
            self.helper_nodes.store(0, Ordering::Relaxed);
            self.busy = None;
            (pn, dn)
        })
    }

    /// To a helper, a child another thread is in looks harder both to prove and to
    /// disprove, so that it goes elsewhere; a proved or disproved child stays as it is.
    /// The main thread takes the numbers as they are and keeps to its best line (two
    /// threads solved the middle-game set 1.07x faster so than when both stepped aside).
    pub(super) fn behind_others(&self, key: u64, pn: u32, dn: u32) -> (u32, u32) {
        let Some(busy) = self.busy.as_ref().filter(|_| self.helper != 0) else {
            return (pn, dn);
        };
        let others = busy[key as usize % BUSY_SLOTS].load(Ordering::Relaxed);
        if others == 0 || pn == 0 || dn == 0 || pn >= INF || dn >= INF {
            return (pn, dn);
        }
        let inflate = |n: u32| n.saturating_mul(others + 1).min(INF - 1);
        (inflate(pn), inflate(dn))
    }

    /// Where this thread starts looking for the best child: the first for the main
    /// thread, elsewhere for each helper, so that ties are broken differently.
    pub(super) fn first_child(&self, key: u64, children: usize) -> usize {
        if self.helper == 0 || children == 0 {
            return 0;
        }
        let mixed = (key ^ self.helper.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .wrapping_mul(0xff51_afd7_ed55_8ccd);
        (mixed >> 32) as usize % children
    }

    /// The first position on this thread's line that the table holds solved (by another
    /// thread, as a rule: this one returns from a position it solves), so that the work
    /// below it is moot.
    pub(super) fn solved_elsewhere(&self) -> Option<usize> {
        let solved = |key| self.table.get(key).as_ref().is_some_and(Entry::is_solved);
        self.searching.iter().position(|&key| solved(key))
    }

    /// Marks this thread in `key`'s position (with helpers only).
    pub(super) fn enter(&self, key: u64) {
        if let Some(busy) = &self.busy {
            busy[key as usize % BUSY_SLOTS].fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Marks this thread out of `key`'s position.
    pub(super) fn leave(&self, key: u64) {
        if let Some(busy) = &self.busy {
            busy[key as usize % BUSY_SLOTS].fetch_sub(1, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loa_core::RuleSet;

    #[test]
    fn a_thread_goes_back_to_the_first_position_of_its_line_another_solved() {
        let stop = AtomicBool::new(false);
        let mut solver = Solver::new(4, RuleSet::Draw, SolveLimits::default(), &stop).unwrap();
        solver.searching = vec![11, 12, 13, 14];
        let put = |key, pn, dn| {
            solver.table.put(Entry {
                key,
                pn,
                dn,
                work: 5,
            });
        };
        put(12, 3, 4);
        assert_eq!(solver.solved_elsewhere(), None);
        put(14, INF, 0);
        assert_eq!(solver.solved_elsewhere(), Some(3));
        put(13, 0, INF);
        assert_eq!(solver.solved_elsewhere(), Some(2));
    }

    #[test]
    fn only_helpers_step_aside_from_a_child_another_thread_is_in() {
        let stop = AtomicBool::new(false);
        let mut main = Solver::new(4, RuleSet::Draw, SolveLimits::default(), &stop).unwrap();
        main.busy = Some(no_marks());
        let done = AtomicBool::new(false);
        let helper = main.helper(0, &done);
        main.enter(7);
        assert_eq!(helper.behind_others(7, 3, 5), (6, 10));
        assert_eq!(helper.behind_others(8, 3, 5), (3, 5));
        assert_eq!(helper.behind_others(7, 0, INF), (0, INF));
        helper.enter(8);
        assert_eq!(main.behind_others(8, 3, 5), (3, 5));
        main.leave(7);
        assert_eq!(helper.behind_others(7, 3, 5), (3, 5));
    }

    #[test]
    fn a_search_goes_back_to_a_root_another_thread_solved_and_takes_its_result() {
        let stop = AtomicBool::new(false);
        // A node limit ends the search should it not go back.
        let limits = SolveLimits {
            time: None,
            nodes: Some(50_000),
        };
        let mut solver = Solver::new(4, RuleSet::Draw, limits, &stop).unwrap();
        solver.busy = Some(no_marks());
        let root = loa_core::Position::startpos();
        solver.root_key = root.key();
        // Another thread's disproof of the root, found as this search's node 1,024 starts.
        solver.table.put(Entry {
            key: root.key(),
            pn: INF,
            dn: 0,
            work: 9,
        });
        solver.nodes = 1_023;
        assert_eq!(solver.mid(&root, INF, INF), (INF, 0, false));
        assert_eq!(solver.nodes, 1_024);
        assert_eq!(solver.unwind_to, None);
        assert!(!solver.stopped);
        assert_eq!(solver.root_numbers, (INF, 0));
        assert!(solver.searching.is_empty());
    }
}
