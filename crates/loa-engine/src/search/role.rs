//! What each search thread owns and what part it plays: kept apart from the threads'
//! spawning (threads.rs) so that one thread's search (searcher.rs) depends on it alone.

use super::eval_cache::EvalCache;
use super::history::History;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What a thread keeps from one search to the next.
pub(super) struct ThreadTables {
    pub history: History,
    pub eval_cache: EvalCache,
}

impl ThreadTables {
    pub fn new() -> Box<ThreadTables> {
        Box::new(ThreadTables {
            history: History::new(),
            eval_cache: EvalCache::new(),
        })
    }
}

/// A thread's part in the search.
pub(super) enum Role<'a> {
    /// Reports, and reads the helpers' node counts for them; ends early when `halt` is
    /// set (the solver beside it proved the root).
    Main {
        helper_nodes: &'a AtomicU64,
        halt: &'a AtomicBool,
    },
    /// Adds its nodes to the shared count, and ends when the main thread is done.
    Helper {
        nodes: &'a AtomicU64,
        main_done: &'a AtomicBool,
    },
}

impl Role<'_> {
    pub fn helper_nodes(&self) -> u64 {
        match self {
            Role::Main { helper_nodes, .. } => helper_nodes.load(Ordering::Relaxed),
            Role::Helper { .. } => 0,
        }
    }

    #[inline]
    pub fn add_nodes(&self, count: u64) {
        if let Role::Helper { nodes, .. } = self {
            nodes.fetch_add(count, Ordering::Relaxed);
        }
    }

    #[inline]
    pub fn told_to_stop(&self) -> bool {
        match self {
            Role::Main { halt, .. } => halt.load(Ordering::Relaxed),
            Role::Helper { main_done, .. } => main_done.load(Ordering::Relaxed),
        }
    }
}
