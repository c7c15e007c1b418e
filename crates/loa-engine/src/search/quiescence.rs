//! Past the horizon: a connection the side to move can make at once is a win, and only
//! captures that make or break a connection are searched (after Winands' quad heuristic):
//! the mover's pieces form fewer groups, or the captured side's more.

use super::score::{MATE, MATE_BOUND};
use super::searcher::Searcher;
use super::MAX_PLY;
use loa_core::topology::euler4;
use loa_core::{Bitboard, Move, MoveList, Position, Square};

impl Searcher<'_> {
    /// Past the horizon, only captures that make or break a connection are searched: the
    /// mover's pieces form fewer groups, or the captured side's more (after the quad
    /// heuristic of Winands et al.). Captures cannot repeat a position.
    pub fn quiesce(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        left: u32,
    ) -> i32 {
        let stand = self.leaf(pos, ply);
        if stand >= beta || left == 0 || ply >= MAX_PLY || stand.abs() >= MATE_BOUND {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let us = pos.side_to_move();
        let (ours, theirs) = (pos.pieces(us), pos.pieces(!us));
        let (our_euler, their_euler) = (euler4(ours), euler4(theirs));
        let mut captures = MoveList::new();
        pos.for_each_move_set(us, |from, targets| {
            for to in targets & theirs {
                if changes_connections(ours, theirs, from, to, our_euler, their_euler) {
                    captures.push(Move::new(from, to, true));
                }
            }
        });
        for &mv in captures.iter() {
            let child = pos.after(mv);
            self.nodes += 1;
            self.check_limits();
            if self.stopped {
                return 0;
            }
            self.seldepth = self.seldepth.max(ply as u32 + 1);
            let score = match self.end_after(&child, mv, ply + 1) {
                Some(end) => -end,
                None => -self.quiesce(&child, -beta, -alpha, ply + 1, left - 1),
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The value of a node at the horizon: a connection the side to move can make at once
    /// is a win, not an evaluation; otherwise the static evaluation.
    fn leaf(&mut self, pos: &Position, ply: usize) -> i32 {
        let us = pos.side_to_move();
        // One move joins at most the groups around one square: few groups or none.
        if pos.pieces(us).groups().take(4).count() <= 3 {
            let mut found = false;
            pos.for_each_move_set(us, |from, targets| {
                for to in targets {
                    if found {
                        return;
                    }
                    let capture = pos.pieces(!us).contains(to);
                    let mv = Move::new(from, to, capture);
                    let after = pos.after(mv);
                    // A loss for the side to move after our move is our win.
                    found |= self.end_after(&after, mv, ply + 1) == Some(-(MATE - ply as i32 - 1));
                }
            });
            if found {
                return MATE - ply as i32 - 1;
            }
        }
        self.evaluate(pos)
    }
}

/// Whether the capture `from`-`to` joins the mover's groups or splits the captured side's
/// (the Euler numbers, groups minus holes, given as `euler4` of the sides before it).
fn changes_connections(
    ours: Bitboard,
    theirs: Bitboard,
    from: Square,
    to: Square,
    our_euler: i32,
    their_euler: i32,
) -> bool {
    euler4(ours.without(from).with(to)) < our_euler || euler4(theirs.without(to)) > their_euler
}

#[cfg(test)]
mod tests {
    use super::*;
    use loa_core::Color;

    #[test]
    fn quiescence_takes_captures_that_make_or_break_connections() {
        // (position, capture, whether it changes connections). Black moves.
        let cases = [
            // d4xd6 lands next to both e7 and c5: Black's two groups become one.
            ("8/4b3/3w4/2b5/3b4/8/8/7w b", "d4d6", true),
            // c3xe3 removes the piece that links White's two halves.
            ("8/8/8/8/3w1w2/2b1w3/3w1w2/b7 b", "c3e3", true),
            // a1xa3 takes a lone White piece and leaves Black's shape as it was.
            ("8/8/8/8/8/w7/8/b6w b", "a1a3", false),
        ];
        for (text, mv, expected) in cases {
            let pos: Position = text.parse().unwrap();
            let (from, to) = (
                Square::parse(&mv[..2]).unwrap(),
                Square::parse(&mv[2..]).unwrap(),
            );
            assert!(pos.is_legal(Move::new(from, to, true)), "{text} {mv}");
            let (ours, theirs) = (pos.pieces(Color::Black), pos.pieces(Color::White));
            let changes = changes_connections(ours, theirs, from, to, euler4(ours), euler4(theirs));
            assert_eq!(changes, expected, "{text} {mv}");
        }
    }
}
