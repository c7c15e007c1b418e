//! What every variant's position offers: its moves, how a move is played, when the game
//! ends, its hash and its text. [`crate::Game`], perft and the records are written against
//! this trait; each variant implements it on a position type of its own, so the standard
//! game's [`Position`] keeps its fast inherent methods for the search and perft.

use crate::Variant;
use crate::{Bitboard, BoardSize, Color, Move, MoveError, Outcome, Position, RuleSet, Square};
use std::fmt::{Debug, Display};
use std::hash::Hash;

/// Who is to move: one of a side's seats. Most games have one seat a side; in AmbiLOA each
/// kind of piece moves in turn, and the two kinds of a side are two seats, taken by one
/// person or, in the partnership game, by two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Seat {
    pub side: Color,
    /// Which of the side's seats, from 0.
    pub index: u8,
}

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    /// The seat that moves it (AmbiLOA's kinds); 0 in games with one seat a side.
    pub seat: u8,
    /// Its number, in variants with numbered pieces (Fields of Action: 1 to 12).
    pub number: Option<u8>,
}

/// A position of some variant.
pub trait GameState: Clone + Eq + Hash + Debug + Display + Send + Sync + 'static {
    fn variant(&self) -> Variant;

    fn size(&self) -> BoardSize;

    /// The side whose turn it is.
    fn side_to_move(&self) -> Color;

    /// The seat whose turn it is.
    fn seat_to_move(&self) -> Seat {
        Seat {
            side: self.side_to_move(),
            index: 0,
        }
    }

    /// The Zobrist hash, which tells positions apart for repetitions and tables.
    fn key(&self) -> u64;

    /// The board's symmetries that leave the position as it is, where the rules make a
    /// position and its images worth the same: bit `i` for the `i`-th image of
    /// [`symmetry::images`](crate::symmetry::images), the identity never set; none for a
    /// variant whose rules or state tell the images apart.
    fn symmetries(&self) -> u8 {
        0
    }

    /// What stands on `square`.
    fn piece_at(&self, square: Square) -> Option<Piece>;

    /// The squares of `color`'s pieces.
    fn pieces(&self, color: Color) -> Bitboard;

    /// Calls `f` with each legal move, or with a lone pass when there is none.
    fn for_each_move(&self, f: impl FnMut(Move));

    /// The number of legal moves, a forced pass counting as one.
    fn count_moves(&self) -> u64 {
        let mut count = 0;
        self.for_each_move(|_| count += 1);
        count
    }

    /// The legal moves, or a lone pass.
    fn moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.for_each_move(|mv| moves.push(mv));
        moves
    }

    fn is_legal(&self, mv: Move) -> bool {
        let mut found = false;
        self.for_each_move(|m| found |= m == mv);
        found
    }

    /// Plays a legal move (not checked).
    fn play(&mut self, mv: Move);

    fn after(&self, mv: Move) -> Self {
        let mut next = self.clone();
        next.play(mv);
        next
    }

    /// The end of the game judged from the position alone, as after a move by the side
    /// not to move. Repetition is a matter of the game's history: see [`crate::Game`].
    fn outcome(&self, rules: RuleSet) -> Option<Outcome>;

    /// The end of the game after `mv` was played into this position from one where the
    /// game went on: only what the move changed is looked at. Every judge of a move (the
    /// game, the search, the records) asks this.
    fn outcome_after(&self, mv: Move, rules: RuleSet) -> Option<Outcome>;

    /// Reads a move in any accepted form and checks that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Move, MoveError>;

    /// The board as a diagram with coordinates, the top rank first; squares in `marked`
    /// are shown in brackets.
    fn diagram(&self, marked: Bitboard) -> String;
}

impl GameState for Position {
    fn variant(&self) -> Variant {
        Variant::Standard
    }

    #[inline]
    fn size(&self) -> BoardSize {
        Position::size(self)
    }

    #[inline]
    fn side_to_move(&self) -> Color {
        Position::side_to_move(self)
    }

    #[inline]
    fn key(&self) -> u64 {
        Position::hash(self)
    }

    fn symmetries(&self) -> u8 {
        crate::symmetry::fixing(
            self.pieces(Color::Black),
            self.pieces(Color::White),
            self.size(),
        )
    }

    fn piece_at(&self, square: Square) -> Option<Piece> {
        Position::piece_at(self, square).map(|color| Piece {
            color,
            seat: 0,
            number: None,
        })
    }

    #[inline]
    fn pieces(&self, color: Color) -> Bitboard {
        Position::pieces(self, color)
    }

    #[inline]
    fn for_each_move(&self, mut f: impl FnMut(Move)) {
        for &mv in self.legal_moves().iter() {
            f(mv);
        }
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        Position::count_moves(self)
    }

    fn is_legal(&self, mv: Move) -> bool {
        Position::is_legal(self, mv)
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        Position::play(self, mv);
    }

    #[inline]
    fn after(&self, mv: Move) -> Position {
        Position::after(self, mv)
    }

    fn outcome(&self, rules: RuleSet) -> Option<Outcome> {
        Position::outcome(self, rules)
    }

    #[inline]
    fn outcome_after(&self, mv: Move, rules: RuleSet) -> Option<Outcome> {
        Position::outcome_after(self, mv, rules)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        Position::parse_move(self, text)
    }

    fn diagram(&self, marked: Bitboard) -> String {
        Position::diagram(self, marked)
    }
}
