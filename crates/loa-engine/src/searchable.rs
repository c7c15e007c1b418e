//! What the search needs of a variant beyond its rules: the moves to try, an evaluation,
//! and the optional refinements (captures past the horizon, a win in one at the horizon,
//! the null move). The standard game's implementation is the fast path the bench
//! measures; the variants reuse the same search through this trait.

use crate::eval;
use loa_core::topology::euler4;
use loa_core::variants::{
    AmbiPosition, FieldsPosition, NeighborsPosition, ParachutePosition, MAX_PIECES,
};
use loa_core::{Bitboard, GameState, Move, MoveList, Position, RuleSet, Square, VariantPosition};

/// A position the search can search.
pub trait Searchable: GameState + Copy + Into<VariantPosition> {
    /// The moves the search tries: every legal move (or a lone pass), or a selection of
    /// them where a variant has too many (Parachute's placements).
    fn search_moves(&self, moves: &mut MoveList);

    /// The static evaluation for the side to move.
    fn evaluate(&self) -> i32;

    /// The squares of the board.
    fn board_squares(&self) -> Bitboard;

    /// The captures searched past the horizon; none unless a variant says.
    fn quiescence_moves(&self, _moves: &mut MoveList) {}

    /// Whether the side to move can win at once, which the horizon then scores as a win.
    fn wins_in_one(&self, _rules: RuleSet) -> bool {
        false
    }

    /// Whether passing (a null move) may be tried here.
    fn null_move_allowed(&self) -> bool {
        false
    }
}

/// The static evaluation of a position of any variant, for the side to move.
pub fn evaluate_any(pos: &VariantPosition) -> i32 {
    match pos {
        VariantPosition::Standard(p) => p.evaluate(),
        VariantPosition::Parachute(p) => p.evaluate(),
        VariantPosition::AmbiLoa(p) => p.evaluate(),
        VariantPosition::Neighbors(p) => p.evaluate(),
        VariantPosition::FieldsOfAction(p) => p.evaluate(),
    }
}

/// Whether one move could join `pieces` into one group: a move joins at most the groups
/// around one square, so a side of more than three groups cannot connect at once.
#[inline]
fn could_join_in_one(pieces: Bitboard) -> bool {
    pieces.groups().take(4).count() <= 3
}

/// Whether one of `moves` wins at once for the side to move of `pos`.
fn wins_with<P: GameState>(pos: &P, rules: RuleSet, moves: impl IntoIterator<Item = Move>) -> bool {
    let us = pos.side_to_move();
    moves.into_iter().any(|mv| {
        pos.after(mv)
            .outcome_after(mv, rules)
            .is_some_and(|o| o.winner == Some(us))
    })
}

/// Whether the capture `from`-`to` joins the mover's groups or splits the captured side's
/// (the Euler numbers, groups minus holes, given as `euler4` of the sides before it).
pub(crate) fn changes_connections(
    ours: Bitboard,
    theirs: Bitboard,
    from: Square,
    to: Square,
    our_euler: i32,
    their_euler: i32,
) -> bool {
    euler4(ours.without(from).with(to)) < our_euler || euler4(theirs.without(to)) > their_euler
}

impl Searchable for Position {
    #[inline]
    fn search_moves(&self, moves: &mut MoveList) {
        self.generate_moves(moves);
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    #[inline]
    fn board_squares(&self) -> Bitboard {
        self.board()
    }

    /// Captures that make or break a connection (after Winands' quad heuristic): the
    /// mover's pieces form fewer groups, or the captured side's more.
    fn quiescence_moves(&self, moves: &mut MoveList) {
        moves.clear();
        let us = self.side_to_move();
        let (ours, theirs) = (self.pieces(us), self.pieces(!us));
        let (our_euler, their_euler) = (euler4(ours), euler4(theirs));
        self.for_each_move_set(us, |from, targets| {
            for to in targets & theirs {
                if changes_connections(ours, theirs, from, to, our_euler, their_euler) {
                    moves.push(Move::new(from, to, true));
                }
            }
        });
    }

    fn wins_in_one(&self, rules: RuleSet) -> bool {
        let us = self.side_to_move();
        if !could_join_in_one(self.pieces(us)) {
            return false;
        }
        let them = self.pieces(!us);
        let mut found = false;
        self.for_each_move_set(us, |from, targets| {
            if !found {
                found = wins_with(
                    self,
                    rules,
                    targets.map(|to| Move::new(from, to, them.contains(to))),
                );
            }
        });
        found
    }

    #[inline]
    fn null_move_allowed(&self) -> bool {
        self.pieces(self.side_to_move()).count() > 3
    }
}

impl Searchable for NeighborsPosition {
    fn search_moves(&self, moves: &mut MoveList) {
        self.generate_moves(moves);
    }

    fn evaluate(&self) -> i32 {
        eval::variants::neighbors(self)
    }

    fn board_squares(&self) -> Bitboard {
        self.board().board()
    }

    fn wins_in_one(&self, rules: RuleSet) -> bool {
        could_join_in_one(self.pieces(self.side_to_move())) && wins_with(self, rules, self.moves())
    }

    fn null_move_allowed(&self) -> bool {
        self.pieces(self.side_to_move()).count() > 3
    }
}

impl Searchable for AmbiPosition {
    fn search_moves(&self, moves: &mut MoveList) {
        self.generate_moves(moves);
    }

    fn evaluate(&self) -> i32 {
        eval::variants::ambiloa(self)
    }

    fn board_squares(&self) -> Bitboard {
        self.board()
    }

    fn wins_in_one(&self, rules: RuleSet) -> bool {
        could_join_in_one(self.team(self.side_to_move())) && wins_with(self, rules, self.moves())
    }
}

/// How many placements of each move the search tries in Parachute.
const PLACEMENTS_TRIED: usize = 4;

// A side's pieces have at most 8 moves each: the moves tried fit in a move list (a whole
// turn, with every placement, does not).
const _: () = assert!(MAX_PIECES as usize * 8 * PLACEMENTS_TRIED <= MoveList::CAPACITY);

impl Searchable for ParachutePosition {
    /// Every move, each with the few placements that help the opponent least: the empty
    /// squares farthest from the opponent's pieces (the piece placed is theirs).
    fn search_moves(&self, moves: &mut MoveList) {
        moves.clear();
        let board = self.board();
        let base = board.legal_moves();
        if !self.drop_due() {
            for &mv in base.iter() {
                moves.push(mv);
            }
            return;
        }
        let owner = !board.side_to_move();
        for &mv in base.iter() {
            let theirs = board.after(mv).pieces(owner);
            let mut squares: Vec<(u32, Square)> = self
                .drop_squares(mv)
                .map(|sq| (distance_to(theirs, sq), sq))
                .collect();
            squares.sort_by_key(|&(d, sq)| (std::cmp::Reverse(d), sq));
            for &(_, sq) in squares.iter().take(PLACEMENTS_TRIED) {
                moves.push(mv.with_drop(sq));
            }
        }
    }

    fn evaluate(&self) -> i32 {
        eval::variants::parachute(self)
    }

    fn board_squares(&self) -> Bitboard {
        self.board().board()
    }

    fn wins_in_one(&self, rules: RuleSet) -> bool {
        let us = self.side_to_move();
        if self.reserve(us) > 0 || !could_join_in_one(self.pieces(us)) {
            return false;
        }
        let mut moves = MoveList::new();
        self.search_moves(&mut moves);
        wins_with(self, rules, moves.iter().copied())
    }
}

/// The distance (in king moves) from `sq` to the nearest of `pieces`; 8 when there are none.
fn distance_to(pieces: Bitboard, sq: Square) -> u32 {
    pieces
        .map(|p| {
            let df = i32::from(p.file()) - i32::from(sq.file());
            let dr = i32::from(p.rank()) - i32::from(sq.rank());
            df.unsigned_abs().max(dr.unsigned_abs())
        })
        .min()
        .unwrap_or(8)
}

impl Searchable for FieldsPosition {
    fn search_moves(&self, moves: &mut MoveList) {
        self.generate_moves(moves);
    }

    fn evaluate(&self) -> i32 {
        eval::variants::fields(self)
    }

    fn board_squares(&self) -> Bitboard {
        self.board()
    }

    /// Captures: the game is won by them.
    fn quiescence_moves(&self, moves: &mut MoveList) {
        self.generate_moves(moves);
        moves.retain(|mv| mv.is_capture());
    }
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

    #[test]
    fn parachute_tries_a_few_placements_of_every_move() {
        let pos = ParachutePosition::start();
        let mut moves = MoveList::new();
        pos.search_moves(&mut moves);
        assert_eq!(moves.len(), 18 * PLACEMENTS_TRIED);
        assert!(moves.iter().all(|&mv| pos.is_legal(mv)));
    }

    #[test]
    fn a_win_in_one_is_seen_in_every_variant_won_by_connection() {
        // White connects with c2-c5.
        let pos: Position = "8/8/1w1wb3/8/1bww4/1ww1b3/2w2b2/8 w".parse().unwrap();
        assert!(pos.wins_in_one(RuleSet::Draw));
        assert!(!Position::startpos().wins_in_one(RuleSet::Draw));
        // Neighbors: b1-b2 joins c1 and c3.
        let pos: NeighborsPosition = "8/6w1/8/7w/8/2b5/8/1bb5 b".parse().unwrap();
        assert!(pos.wins_in_one(RuleSet::Draw));
        assert!(!NeighborsPosition::start().wins_in_one(RuleSet::Draw));
        // AmbiLOA: Black's second kind joins the first with d2-c2.
        let pos: AmbiPosition = "7W/8/8/7w/8/8/3b4/BB6 b".parse().unwrap();
        assert!(pos.wins_in_one(RuleSet::Draw));
        assert!(!AmbiPosition::start().wins_in_one(RuleSet::Draw));
        // Parachute: a1-a2 joins Black's pieces; White's last piece is placed far away.
        let pos: ParachutePosition = "7w/6w1/8/8/8/1b6/8/b7 b 0 1".parse().unwrap();
        assert!(pos.wins_in_one(RuleSet::Draw));
        assert!(!ParachutePosition::start().wins_in_one(RuleSet::Draw));
    }
}
