//! Iterative deepening with aspiration windows, and the lines of a multi-line search.

use super::searcher::Searcher;
use super::{Info, SearchLimits, SearchResult, MAX_DEPTH};
use crate::score::{Score, INFINITY, MATE, MATE_BOUND};
use crate::time::{Effort, TimeLimit};
use crate::Searchable;
use loa_core::{Move, MoveList};
use std::time::Instant;

impl Searcher<'_> {
    /// Iterative deepening from `first_depth`, reporting each finished line.
    pub fn iterate<P: Searchable>(
        &mut self,
        root: &P,
        limits: &SearchLimits,
        start: Instant,
        first_depth: u32,
        mut on_info: impl FnMut(&Info),
    ) -> SearchResult {
        let mut root_moves = MoveList::new();
        root.search_moves(&mut root_moves);
        // Until an iteration says better: the move an earlier search found best here.
        let known = (self.tt.probe(root.key()))
            .and_then(|e| e.mv)
            .filter(|mv| root_moves.contains(mv));
        let mut result = SearchResult {
            best: (root.outcome(self.rules).is_none()).then(|| known.unwrap_or(root_moves[0])),
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            proven: None,
        };
        if result.best.is_none() {
            return result;
        }
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let lines = limits.multipv.clamp(1, root_moves.len());
        let mut previous = vec![0; lines];
        let mut effort = Effort::default();
        'deepening: for depth in first_depth.min(max_depth)..=max_depth {
            self.excluded.clear();
            // Each line is searched without the first moves of the lines before it.
            let mut found: Vec<(i32, Vec<Move>)> = Vec::with_capacity(lines);
            for &centre in &previous {
                let score = self.aspiration(root, depth, centre);
                // An unfinished iteration is dropped, unless it is the first.
                if self.stopped && depth > first_depth {
                    break 'deepening;
                }
                let pv = self.pv[0].clone();
                // Stopped before any move of this line was searched through.
                let Some(&first) = pv.first() else {
                    break;
                };
                self.excluded.push(first);
                found.push((score, pv));
                if self.stopped {
                    break;
                }
            }
            if found.is_empty() {
                break;
            }
            // A later line can score above an earlier one (the windows and the table
            // differ): the lines are reported best first, and the best is the answer.
            found.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
            let (best_score, best_pv) = &found[0];
            if depth > first_depth {
                let scores = [*best_score, previous[0]];
                let rise = if scores.iter().all(|s| s.abs() < MATE_BOUND) {
                    best_score - previous[0]
                } else {
                    0
                };
                effort.record(best_pv.first() != result.best.as_ref(), rise);
            }
            if let Some(&best) = best_pv.first() {
                result.best = Some(best);
            }
            result.score = Score::from_internal(*best_score);
            result.depth = depth;
            result.pv = best_pv.clone();
            for (line, (score, pv)) in found.iter().enumerate() {
                previous[line] = *score;
                on_info(&Info {
                    depth,
                    multipv: line + 1,
                    seldepth: self.seldepth,
                    score: Score::from_internal(*score),
                    nodes: self.total_nodes(),
                    time: start.elapsed(),
                    hashfull: self.tt.hashfull(),
                    pv: pv.clone(),
                });
            }
            if self.stopped {
                break;
            }
            let score = *best_score;
            // A proven result cannot change with more depth.
            if lines == 1 && score.abs() >= MATE_BOUND && depth as i32 >= MATE - score.abs() {
                break;
            }
            // The next iteration takes several times as long as this one: with a clock,
            // do not start what is unlikely to finish, allowing more while the search
            // is unsettled. A fixed time is used to the end.
            if let Some(TimeLimit::Managed { soft, .. }) = limits.time {
                if start.elapsed() * 2 > soft.mul_f64(effort.scale()) {
                    break;
                }
            }
        }
        result.nodes = self.total_nodes();
        result
    }

    /// The root searched in a window around the last iteration's score, widened until
    /// the score falls inside.
    fn aspiration<P: Searchable>(&mut self, root: &P, depth: u32, previous: i32) -> i32 {
        if depth < 4 || previous.abs() >= MATE_BOUND {
            return self.negamax(root, depth as i32, -INFINITY, INFINITY, 0, Move::PASS);
        }
        let mut delta = 40;
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            let score = self.negamax(root, depth as i32, alpha, beta, 0, Move::PASS);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                alpha = (alpha - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (beta + delta).min(INFINITY);
            } else {
                return score;
            }
            delta *= 2;
            if delta > 1_000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }
}
