//! The negamax: principal variation search with a transposition table, null move, late
//! move reductions and late move pruning, over the exact end of the game at every node.

use super::ordering::{order_score, pick_next};
use super::searcher::Searcher;
use super::MAX_PLY;
use crate::score::{from_tt, to_tt, INFINITY, MATE, MATE_BOUND};
use crate::tt::{Bound, Entry};
use crate::Searchable;
use loa_core::topology::edge_squares;
use loa_core::{Move, MoveList};
use std::sync::LazyLock;

/// Captures searched past the horizon, at most this many in a row.
const QUIESCENCE_PLIES: u32 = 3;

/// The moves searched at `depth` (1 to 3) before late quiet moves are pruned: fewer
/// where the side to move is not improving.
fn late_move_limit(depth: i32, improving: bool) -> usize {
    if improving {
        (5 + 2 * depth * depth) as usize
    } else {
        (3 + depth * depth) as usize
    }
}

/// Plies a late quiet move is reduced by: the more the deeper and the later the move
/// (the logarithmic rule of the strongest chess searches), from a table.
fn late_move_reduction(depth: i32, index: usize) -> i32 {
    static TABLE: LazyLock<[[u8; 64]; 64]> = LazyLock::new(|| {
        let mut table = [[0; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (index, cell) in row.iter_mut().enumerate().skip(1) {
                let r = 0.75 + (depth as f64).ln() * (index as f64).ln() / 2.25;
                *cell = r as u8;
            }
        }
        table
    });
    i32::from(TABLE[depth.clamp(0, 63) as usize][index.min(63)])
}

impl Searcher<'_> {
    /// The value of `pos` for the side to move, `ply` plies from the root, searched
    /// `depth` plies deep in the window (`alpha`, `beta`); `last` is the move into `pos`.
    pub fn negamax<P: Searchable>(
        &mut self,
        pos: &P,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        last: Move,
    ) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        self.check_limits();
        if self.stopped && ply > 0 {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        if ply > 0 {
            if let Some(score) = self.end_after(pos, last, ply) {
                return score;
            }
            if self.is_repetition() {
                return 0;
            }
            // No line from here can beat a connection already found nearer the root.
            let alpha_floor = alpha.max(-(MATE - ply as i32));
            let beta_ceiling = beta.min(MATE - ply as i32 - 1);
            if alpha_floor >= beta_ceiling {
                return alpha_floor;
            }
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(pos, alpha, beta, ply, QUIESCENCE_PLIES);
        }
        let pv_node = beta - alpha > 1;
        let key = pos.key();
        let entry = self.tt.probe(key);
        if let Some(e) = entry {
            if !pv_node && i32::from(e.depth) >= depth {
                let score = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }
        // Improving: the side to move stands better than two plies ago; where it does
        // not, late quiet moves are pruned sooner and reduced more.
        let static_eval = self.evaluate(pos);
        self.static_evals[ply] = static_eval;
        let improving = ply < 2 || static_eval > self.static_evals[ply - 2];
        // Null move: if passing still fails high at reduced depth, a real move will too.
        // Connection threats are not missed: after the pass the opponent may connect.
        if !pv_node
            && ply > 0
            && depth >= 3
            && beta.abs() < MATE_BOUND
            && pos.null_move_allowed()
            && static_eval >= beta
        {
            let reduction = 2 + depth / 6;
            let child = pos.after(Move::PASS);
            self.keys.push(child.key());
            let score = -self.negamax(
                &child,
                depth - 1 - reduction,
                -beta,
                -beta + 1,
                ply + 1,
                Move::PASS,
            );
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if score >= beta {
                return if score >= MATE_BOUND { beta } else { score };
            }
        }
        let mut moves = MoveList::new();
        pos.search_moves(&mut moves);
        let us = pos.side_to_move();
        let mut scores = [0i32; MoveList::CAPACITY];
        let tt_move = entry.and_then(|e| e.mv);
        for (i, &mv) in moves.iter().enumerate() {
            scores[i] = order_score(mv, us, tt_move, &self.killers, ply, &self.tables.history);
        }
        // Quiet moves to the edge are seldom best: they are reduced one ply more.
        let edge = edge_squares(pos.board_squares());
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut searched = 0;
        for i in 0..moves.len() {
            pick_next(&mut moves, &mut scores, i);
            let mv = moves[i];
            if ply == 0 && self.excluded.contains(&mv) {
                continue;
            }
            let child = pos.after(mv);
            let quiet = !mv.is_capture() && Some(mv) != tt_move;
            let killer = quiet && self.killers.contains(ply, mv);
            // Late move pruning: near the horizon, away from the principal line, late
            // quiet moves are left out once a move has been searched, unless they end
            // the game (a connection is never pruned).
            if !pv_node
                && ply > 0
                && depth <= 3
                && quiet
                && searched >= late_move_limit(depth, improving)
                && best > -MATE_BOUND
                && !killer
                && child.outcome_after(mv, self.rules).is_none()
            {
                continue;
            }
            self.keys.push(child.key());
            searched += 1;
            let score = if searched == 1 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, mv)
            } else {
                let reduction = if depth >= 3 && i >= 3 && quiet && !killer {
                    (late_move_reduction(depth, i) - i32::from(pv_node)
                        + i32::from(!improving)
                        + i32::from(depth >= 4 && edge.contains(mv.to())))
                    .clamp(0, depth - 2)
                } else {
                    0
                };
                let mut score = -self.negamax(
                    &child,
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    mv,
                );
                if score > alpha && reduction > 0 {
                    score = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, mv);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, mv);
                }
                score
            };
            self.keys.pop();
            // A move whose search was cut short has no value; at the root it is not
            // taken, so a stopped iteration holds only moves searched through.
            if self.stopped {
                if ply > 0 {
                    return 0;
                }
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if !mv.is_pass() {
                            if !mv.is_capture() {
                                self.killers.store(ply, mv);
                            }
                            self.tables.history.reward(us, mv, depth, &moves[..i]);
                        }
                        break;
                    }
                }
            }
        }
        // A root searched without some of its moves has no true value to store.
        if !self.stopped && (ply != 0 || self.excluded.is_empty()) {
            let bound = if best >= beta {
                Bound::Lower
            } else if alpha > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(
                key,
                Entry {
                    mv: best_move,
                    score: to_tt(best, ply),
                    depth: depth.clamp(0, 255) as u8,
                    bound,
                },
            );
        }
        best
    }
}
