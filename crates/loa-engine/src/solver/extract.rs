//! Writing a proof out of the table: the proof is replayed from the root along its own
//! lines, and where a table entry does not hold on the line at hand (the loser could go
//! back to a position already on it), the entry is forgotten and the position proved
//! again from there.

use super::{Next, Proof, Solver};
use loa_core::{GameState, VariantPosition};
use std::collections::HashMap;
use std::sync::atomic::Ordering;

/// The least budget of nodes for proving a position again while writing a proof.
const MIN_BUDGET: u64 = 100_000;

/// A proof being written: its nodes, each position's node, and the line from the root.
pub(super) struct Draft<P> {
    nodes: Vec<Vec<(String, Next)>>,
    ids: HashMap<P, usize>,
    on_path: Vec<u64>,
    /// Nodes a position proved again may take.
    budget: u64,
    /// A search gave up in this pass.
    pub(super) gave_up: bool,
}

impl<P> Draft<P> {
    pub(super) fn new(history: &[u64], budget: u64) -> Draft<P> {
        Draft {
            nodes: Vec::new(),
            ids: HashMap::new(),
            on_path: history.to_vec(),
            budget,
            gave_up: false,
        }
    }
}

impl Solver<'_> {
    /// The proof of the attacker's win at `root`, from the table, searching again
    /// where an entry was lost or does not hold on the line at hand.
    ///
    /// A position proved again gets a budget of the main thread's nodes (checked every
    /// 1,024; helpers beside it have none): past it, the search gives up, and the
    /// winner's move before it is forgotten and that position searched again on the
    /// numbers this one left (a proof that loops back to its own line can be far harder
    /// to mend where it loops than a move or two earlier). A pass that fails after any
    /// search gave up is made again with four times the budget; the table keeps what
    /// each pass proved.
    pub(super) fn extract<P: GameState + Copy + Into<VariantPosition>>(
        &mut self,
        root: &P,
        history: &[u64],
    ) -> Option<Proof> {
        let budget = (self.nodes / 64).max(MIN_BUDGET);
        self.extract_within(root, history, budget)
    }

    /// [`Solver::extract`], a position proved again first given `budget` nodes.
    pub(super) fn extract_within<P: GameState + Copy + Into<VariantPosition>>(
        &mut self,
        root: &P,
        history: &[u64],
        mut budget: u64,
    ) -> Option<Proof> {
        loop {
            let mut draft = Draft::new(history, budget);
            self.path.reset(history);
            // A proof answers every move, the images of others included.
            self.path_symmetries = 0;
            if let Some(id) = self.extract_node(root, &mut draft) {
                debug_assert_eq!(id, 0);
                return Some(Proof {
                    variant: root.variant(),
                    rules: self.rules,
                    start: (*root).into(),
                    winner: self.attacker,
                    nodes: draft.nodes,
                });
            }
            if self.stopped || !draft.gave_up {
                return None;
            }
            budget = budget.saturating_mul(4);
        }
    }

    pub(super) fn extract_node<P: GameState + Copy>(
        &mut self,
        pos: &P,
        draft: &mut Draft<P>,
    ) -> Option<usize> {
        if let Some(&id) = draft.ids.get(pos) {
            return Some(id);
        }
        // A proof is written only for a solve that was not stopped.
        if self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return None;
        }
        let id = draft.nodes.len();
        draft.ids.insert(*pos, id);
        draft.nodes.push(Vec::new());
        draft.on_path.push(pos.key());
        let entries = if pos.side_to_move() == self.attacker {
            self.extract_or(pos, draft)
        } else {
            self.extract_and(pos, draft)
        };
        draft.on_path.pop();
        draft.nodes[id] = entries?;
        Some(id)
    }

    /// The winner's move at `pos`. A proof from the table may not hold on this line (a
    /// line the loser can bring back to a position already on it); such a move is
    /// forgotten and the position proved again from here, until a move holds.
    fn extract_or<P: GameState + Copy>(
        &mut self,
        pos: &P,
        draft: &mut Draft<P>,
    ) -> Option<Vec<(String, Next)>> {
        for _ in 0..64 {
            self.path.reset(&draft.on_path);
            let mut children = self.children(pos, 0, false);
            if !children.iter().any(|c| c.pn == 0) {
                self.path.pop();
                // The position's own entry may be a proof from another line: forgotten,
                // so that the numbers worked out on this one are kept should the search
                // give up, and so that with helpers the main thread does not take that
                // proof as one another thread just found and return with no proved move.
                self.table.forget(pos.key());
                self.give_up_at = self.nodes.saturating_add(draft.budget);
                let (pn, _) = self.search_root(pos);
                self.give_up_at = u64::MAX;
                draft.gave_up |= std::mem::take(&mut self.gave_up);
                if pn != 0 || self.stopped {
                    return None;
                }
                self.path.reset(&draft.on_path);
                children = self.children(pos, 0, false);
            }
            // A connection at once before any longer proof: the shorter line.
            let Some(child) = (children.iter().filter(|c| c.pn == 0)).min_by_key(|c| !c.ends)
            else {
                // The proved move's entry was replaced since (a helper still writing).
                continue;
            };
            let (mv, after) = (child.mv, pos.after(child.mv));
            if child.ends {
                return Some(vec![(mv.to_string(), Next::Win)]);
            }
            let mark = draft.nodes.len();
            if let Some(child_id) = self.extract_node(&after, draft) {
                return Some(vec![(mv.to_string(), Next::Node(child_id))]);
            }
            // Undo the attempt and forget the move's proof.
            draft.nodes.truncate(mark);
            draft.ids.retain(|_, id| *id < mark);
            self.table.forget(after.key());
        }
        None
    }

    /// Every move of the loser at `pos`, each proved lost.
    fn extract_and<P: GameState + Copy>(
        &mut self,
        pos: &P,
        draft: &mut Draft<P>,
    ) -> Option<Vec<(String, Next)>> {
        self.path.reset(&draft.on_path);
        let children = self.children(pos, 0, false);
        let mut entries = Vec::new();
        for child in children {
            let next = if child.ends && child.pn == 0 {
                Next::Win
            } else if child.ends || child.path_dependent {
                // The loser's move ends the game otherwise, or goes back to a position of
                // this line: not proved here.
                return None;
            } else {
                Next::Node(self.extract_node(&pos.after(child.mv), draft)?)
            };
            entries.push((child.mv.to_string(), next));
        }
        Some(entries)
    }
}
