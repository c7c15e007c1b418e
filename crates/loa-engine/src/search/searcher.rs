//! One thread's search: its place in the tree, its limits and its own tables.

use super::ordering::Killers;
use super::role::{Role, ThreadTables};
use super::MAX_PLY;
use crate::score::MATE;
use crate::tt::TranspositionTable;
use crate::Searchable;
use loa_core::{GameState, Move, Outcome, RuleSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub(super) struct Searcher<'a> {
    pub tt: &'a TranspositionTable,
    pub tables: &'a mut ThreadTables,
    pub rules: RuleSet,
    /// Set from outside to end the search.
    stop: &'a AtomicBool,
    pub role: Role<'a>,
    pub deadline: Option<Instant>,
    pub node_limit: u64,
    pub nodes: u64,
    pub seldepth: u32,
    pub stopped: bool,
    /// Hashes of the game's positions then the search path, for repetitions.
    pub keys: Vec<u64>,
    game_len: usize,
    pub killers: Killers,
    /// The principal variation found at each ply.
    pub pv: Vec<Vec<Move>>,
    /// The static evaluation at each ply of the current line, for the side to move there
    /// (every node with children takes it, so a node's ancestors' are all set).
    pub static_evals: [i32; MAX_PLY + 1],
    /// Root moves already reported as better lines in a multi-line search.
    pub excluded: Vec<Move>,
}

impl<'a> Searcher<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        tt: &'a TranspositionTable,
        tables: &'a mut ThreadTables,
        rules: RuleSet,
        stop: &'a AtomicBool,
        role: Role<'a>,
        deadline: Option<Instant>,
        game: &[u64],
        root: &impl GameState,
    ) -> Searcher<'a> {
        let mut keys = Vec::with_capacity(game.len() + MAX_PLY + 1);
        keys.extend_from_slice(game);
        keys.push(root.key());
        Searcher {
            tt,
            tables,
            rules,
            stop,
            role,
            deadline,
            node_limit: u64::MAX,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            keys,
            game_len: game.len(),
            killers: Killers::new(),
            pv: vec![Vec::new(); MAX_PLY + 1],
            static_evals: [0; MAX_PLY + 1],
            excluded: Vec::new(),
        }
    }

    /// The nodes of every thread, as the main thread reports them.
    pub fn total_nodes(&self) -> u64 {
        self.nodes + self.role.helper_nodes()
    }

    /// Sets `stopped` once a limit is reached or the search is stopped from outside.
    #[inline]
    pub fn check_limits(&mut self) {
        if self.nodes >= self.node_limit || self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if self.nodes.is_multiple_of(1024) {
            self.role.add_nodes(1024);
        }
        // Often enough that a fixed move time is kept to a fraction of a millisecond.
        if self.nodes.is_multiple_of(256) {
            if self.role.told_to_stop() {
                self.stopped = true;
            }
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.stopped = true;
                }
            }
        }
    }

    /// Whether the position at the top of `keys` repeats: a third occurrence in all, or
    /// any earlier occurrence since the root (the side that repeated can repeat again).
    pub fn is_repetition(&self) -> bool {
        let n = self.keys.len();
        let key = self.keys[n - 1];
        let mut seen = 0;
        let mut i = n as isize - 3;
        while i >= 0 {
            if self.keys[i as usize] == key {
                if i as usize >= self.game_len {
                    return true;
                }
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
            i -= 2;
        }
        false
    }

    /// The score for the side to move of `pos`, `ply` plies from the root, if `mv` (the
    /// move into `pos`) ended the game.
    #[inline]
    pub fn end_after<P: GameState>(&self, pos: &P, mv: Move, ply: usize) -> Option<i32> {
        pos.outcome_after(mv, self.rules)
            .map(|outcome| end_score(outcome, pos, ply))
    }

    /// The static evaluation through this thread's cache.
    #[inline]
    pub fn evaluate<P: Searchable>(&mut self, pos: &P) -> i32 {
        self.tables.eval_cache.evaluate(pos)
    }
}

/// A finished game as a score for the side to move, `ply` plies from the root.
#[inline]
fn end_score<P: GameState>(outcome: Outcome, pos: &P, ply: usize) -> i32 {
    match outcome.winner {
        None => 0,
        Some(winner) if winner == pos.side_to_move() => MATE - ply as i32,
        Some(_) => -(MATE - ply as i32),
    }
}
