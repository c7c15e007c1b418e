//! Lazy SMP: helper threads search the same root over the shared table, odd ones a ply
//! deeper so the threads spread over depths; each has its own history and evaluation
//! cache. The main thread's result is the answer, and the helpers end with it.

use super::role::{Role, ThreadTables};
use super::searcher::Searcher;
use super::{Info, SearchLimits, SearchResult};
use crate::tt::TranspositionTable;
use crate::Searchable;
use loa_core::RuleSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Searches `root` on every thread of `tables` (the main thread's first), until a limit,
/// `stop`, or `halt`.
#[allow(clippy::too_many_arguments)]
pub(super) fn search<P: Searchable>(
    tt: &TranspositionTable,
    tables: &mut [Box<ThreadTables>],
    rules: RuleSet,
    root: &P,
    history: &[u64],
    limits: &SearchLimits,
    stop: &AtomicBool,
    halt: &AtomicBool,
    on_info: impl FnMut(&Info),
) -> SearchResult {
    let start = limits.start.unwrap_or_else(Instant::now);
    // A limit too far away to be an instant is no limit.
    let deadline = limits.time.and_then(|t| start.checked_add(t.hard()));
    let main_done = AtomicBool::new(false);
    let helper_nodes = AtomicU64::new(0);
    let (main_tables, helper_tables) = tables.split_first_mut().expect("a main thread");
    std::thread::scope(|scope| {
        for (i, tables) in helper_tables.iter_mut().enumerate() {
            let (main_done, helper_nodes) = (&main_done, &helper_nodes);
            scope.spawn(move || {
                let role = Role::Helper {
                    nodes: helper_nodes,
                    main_done,
                };
                let mut helper =
                    Searcher::new(tt, tables, rules, stop, role, deadline, history, root);
                let helper_limits = SearchLimits {
                    multipv: 1,
                    ..limits.clone()
                };
                helper.iterate(root, &helper_limits, start, 1 + (i as u32 % 2), |_| {});
            });
        }
        let role = Role::Main {
            helper_nodes: &helper_nodes,
            halt,
        };
        let mut main = Searcher::new(tt, main_tables, rules, stop, role, deadline, history, root);
        main.node_limit = limits.nodes.unwrap_or(u64::MAX);
        let result = main.iterate(root, limits, start, 1, on_info);
        main_done.store(true, Ordering::Relaxed);
        result
    })
}
