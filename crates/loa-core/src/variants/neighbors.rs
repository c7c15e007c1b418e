//! Neighbors (M. Montchalin, 1995): a piece moves along a queen line exactly as many
//! squares as it has neighbours (pieces of either colour on the eight squares around it)
//! before it moves, leaping over pieces of either colour, onto an empty square or an enemy
//! piece. A piece without neighbours cannot move. The goal is connection, as in Lines of
//! Action.

use super::turn::match_turn;
use crate::movegen::leap_targets;
use crate::{
    zobrist, Bitboard, BoardSize, Color, GameState, Move, MoveError, MoveList, Outcome, Piece,
    Position, PositionTextError, RuleSet, Square, Variant,
};
use std::fmt;
use std::str::FromStr;

/// A Neighbors position: the pieces and the side to move, as in the standard game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NeighborsPosition(Position);

impl NeighborsPosition {
    /// The start: `1bbbwww1/w6b/w6b/w6b/b6w/b6w/b6w/1wwwbbb1 b`.
    pub fn start() -> NeighborsPosition {
        "1bbbwww1/w6b/w6b/w6b/b6w/b6w/b6w/1wwwbbb1 b"
            .parse()
            .expect("the start is valid")
    }

    /// The pieces and the side to move.
    pub fn board(&self) -> &Position {
        &self.0
    }

    /// How many squares the piece on `from` moves: its neighbours.
    #[inline]
    pub fn distance(&self, from: Square) -> u32 {
        (Bitboard::from_square(from).neighbours() & self.0.occupied()).count()
    }

    /// The landing squares of the piece of `color` on `from`.
    #[inline]
    fn targets(&self, color: Color, from: Square) -> Bitboard {
        let own = self.0.pieces(color);
        Bitboard(leap_targets(from, self.distance(from))) & self.0.board() & !own
    }

    /// Fills `moves` with the legal moves, or a lone pass.
    pub fn generate_moves(&self, moves: &mut MoveList) {
        moves.clear();
        let us = self.0.side_to_move();
        let them = self.0.pieces(!us);
        for from in self.0.pieces(us) {
            for to in self.targets(us, from) {
                moves.push(Move::new(from, to, them.contains(to)));
            }
        }
        if moves.is_empty() {
            moves.push(Move::PASS);
        }
    }

    /// Calls `f(from, targets)` for each piece of `color` that has a move, as if `color`
    /// were to move (for mobility).
    pub fn for_each_move_set(&self, color: Color, mut f: impl FnMut(Square, Bitboard)) {
        for from in self.0.pieces(color) {
            let targets = self.targets(color, from);
            if targets.any() {
                f(from, targets);
            }
        }
    }

    /// Why the piece on `from` cannot go to `to`.
    fn why_illegal(&self, from: Square, to: Square) -> String {
        let us = self.0.side_to_move();
        if !self.0.pieces(us).contains(from) {
            return format!("there is no piece of the side to move ({us}) on {from}");
        }
        let n = self.distance(from);
        if n == 0 {
            return format!("the piece on {from} has no neighbour, so it cannot move");
        }
        if self.0.pieces(us).contains(to) {
            return format!("{to} holds a piece of the mover's own colour");
        }
        format!("the piece on {from} has {n} neighbours, so it moves {n} squares along a line")
    }
}

impl GameState for NeighborsPosition {
    fn variant(&self) -> Variant {
        Variant::Neighbors
    }

    fn size(&self) -> BoardSize {
        self.0.size()
    }

    fn side_to_move(&self) -> Color {
        self.0.side_to_move()
    }

    fn key(&self) -> u64 {
        self.0.hash() ^ zobrist::variant_key(Variant::Neighbors.index())
    }

    fn piece_at(&self, square: Square) -> Option<Piece> {
        GameState::piece_at(&self.0, square)
    }

    fn pieces(&self, color: Color) -> Bitboard {
        self.0.pieces(color)
    }

    fn for_each_move(&self, f: impl FnMut(Move)) {
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves.iter().copied().for_each(f);
    }

    fn play(&mut self, mv: Move) {
        self.0.play(mv);
    }

    fn outcome(&self, rules: RuleSet) -> Option<Outcome> {
        self.0.outcome(rules)
    }

    fn outcome_after(&self, mv: Move, rules: RuleSet) -> Option<Outcome> {
        self.0.outcome_after(mv, rules)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        match_turn(
            text,
            &self.moves(),
            |from, to| self.why_illegal(from, to),
            None,
        )
    }

    fn diagram(&self, marked: Bitboard) -> String {
        self.0.diagram(marked)
    }
}

/// The standard game's text: `b`/`w` for the pieces, then the side to move.
impl FromStr for NeighborsPosition {
    type Err = PositionTextError;

    fn from_str(text: &str) -> Result<NeighborsPosition, PositionTextError> {
        let pos: Position = text.parse()?;
        super::check_board(Variant::Neighbors, pos.size())?;
        Ok(NeighborsPosition(pos))
    }
}

impl fmt::Display for NeighborsPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::test_support::{
        assert_third_occurrence_draws, game_after, move_names, names, pos,
    };
    use crate::Reason;

    fn neighbors(text: &str) -> NeighborsPosition {
        pos(text)
    }

    #[test]
    fn a_piece_moves_as_far_as_it_has_neighbours_leaping_over_any_piece() {
        // d4 has three neighbours (c5, e4, d3) of both colours; e4 has two (d3, d4);
        // a1 has none and cannot move.
        let start = neighbors("8/8/8/2w5/3bb3/3w4/8/b7 b");
        assert_eq!(start.distance(Square::from_coords(3, 3)), 3);
        assert_eq!(
            move_names(&start),
            names(&[
                // d4 leaps three squares, over d3 and over e4, but not onto its own a1.
                "d4-d7", "d4-d1", "d4-g4", "d4-a4", "d4-g7", "d4-a7", "d4-g1",
                // e4 goes two squares.
                "e4-e6", "e4-e2", "e4-g4", "e4-c4", "e4-g6", "e4-c6", "e4-g2", "e4-c2",
            ])
        );
        let err = start.parse_move("a1-a2").unwrap_err().to_string();
        assert!(err.contains("no neighbour"), "{err}");
    }

    #[test]
    fn a_player_whose_pieces_have_no_neighbours_passes() {
        let lonely = neighbors("7b/8/8/3w4/8/2w5/8/b7 b");
        assert_eq!(lonely.moves(), vec![Move::PASS]);
        // White is as lonely: pass, pass, and the start is back for the third time.
        let game = game_after(lonely, RuleSet::Draw, &["pass", "pass", "pass", "pass"]);
        assert_eq!(game.outcome(), Some(Outcome::draw(Reason::Repetition)));
    }

    #[test]
    fn connecting_the_pieces_wins() {
        // b1 has one neighbour, c1: one step to b2 joins c1 and c3.
        let start = neighbors("8/6w1/8/7w/8/2b5/8/1bb5 b");
        let game = game_after(start, RuleSet::Draw, &["b1-b2"]);
        assert_eq!(
            game.outcome(),
            Some(Outcome::win(Color::Black, Reason::Connection))
        );
    }

    #[test]
    fn the_third_occurrence_is_a_draw() {
        let start = neighbors("ww5b/8/8/8/8/8/8/1bb4w b");
        assert_third_occurrence_draws(start, &["b1-b2", "a8-a7", "b2-b1", "a7-a8"]);
    }
}
