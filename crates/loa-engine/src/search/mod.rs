//! Alpha-beta search: iterative deepening, principal variation search, a transposition
//! table, killer and history move ordering, late move reductions, null move, and a
//! quiescence search on captures that make or break connections.
//!
//! One file per concern: the engine and what a search is asked and answers here;
//! `iterate` (iterative deepening, aspiration, multi-PV), `negamax`, `quiescence`,
//! `ordering` (killers, move picking), `history`, `eval_cache`, `threads` (lazy SMP),
//! `searcher` (one thread's state) and `score`.

mod eval_cache;
mod history;
mod iterate;
mod negamax;
mod ordering;
mod quiescence;
mod score;
mod searcher;
mod threads;

pub use score::{Score, MATE, MATE_BOUND};

use crate::time::TimeLimit;
use crate::tt::TranspositionTable;
use crate::Searchable;
use loa_core::{Move, RuleSet, VariantPosition};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use threads::ThreadTables;

/// The deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// The deepest iteration a search can be asked for.
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 1;

/// When to stop searching. With no limit at all the search runs until stopped.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Time for this move.
    pub time: Option<TimeLimit>,
    /// How many best lines to find (0 or 1: just the best).
    pub multipv: usize,
    /// When the time started: when the command to search came. `None`: when the search
    /// starts.
    pub start: Option<Instant>,
}

/// A report after each completed iteration, one per line of a multi-line search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    /// Which of the best lines this is, from 1.
    pub multipv: usize,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    /// Permille of the table used by this search.
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when the game is already over at the root.
    pub best: Option<Move>,
    /// The best line's value for the side to move.
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

/// The engine: its table and ordering heuristics outlive a single search.
pub struct Engine {
    tt: TranspositionTable,
    rules: RuleSet,
    /// What each thread keeps from one search to the next; the main thread's first.
    threads: Vec<Box<ThreadTables>>,
}

impl Engine {
    pub fn new(hash_mb: usize, rules: RuleSet) -> Engine {
        Engine {
            tt: TranspositionTable::new(hash_mb),
            rules,
            threads: vec![ThreadTables::new()],
        }
    }

    pub fn set_rules(&mut self, rules: RuleSet) {
        self.rules = rules;
    }

    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    pub fn set_hash(&mut self, megabytes: usize) {
        self.tt = TranspositionTable::new(megabytes);
    }

    /// Forgets everything learnt: for a new game.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.threads.fill_with(ThreadTables::new);
    }

    /// Sets the number of search threads (lazy SMP over the shared table).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads.resize_with(threads.max(1), ThreadTables::new);
    }

    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// Searches `root`. `history` holds the hashes of the game's positions before `root`,
    /// oldest first, so repetitions are seen; `stop` ends the search from outside;
    /// `on_info` hears of every finished iteration.
    pub fn search<P: Searchable>(
        &mut self,
        root: &P,
        history: &[u64],
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: impl FnMut(&Info),
    ) -> SearchResult {
        self.tt.new_search();
        for tables in &mut self.threads {
            tables.history.age();
        }
        threads::search(
            &self.tt,
            &mut self.threads,
            self.rules,
            root,
            history,
            limits,
            stop,
            on_info,
        )
    }

    /// Searches a position of any variant: [`Engine::search`] on the position it holds.
    pub fn search_any(
        &mut self,
        root: &VariantPosition,
        history: &[u64],
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: impl FnMut(&Info),
    ) -> SearchResult {
        match root {
            VariantPosition::Standard(pos) => self.search(pos, history, limits, stop, on_info),
            VariantPosition::Parachute(pos) => self.search(pos, history, limits, stop, on_info),
            VariantPosition::AmbiLoa(pos) => self.search(pos, history, limits, stop, on_info),
            VariantPosition::Neighbors(pos) => self.search(pos, history, limits, stop, on_info),
            VariantPosition::FieldsOfAction(pos) => {
                self.search(pos, history, limits, stop, on_info)
            }
        }
    }
}
