//! The variants with rules of their own, each a position type implementing
//! [`GameState`], and [`VariantPosition`], a position of any variant chosen at run time.
//! The standard game and Scrambled Eggs share the standard [`Position`].

mod ambiloa;
mod fields;
mod neighbors;
mod parachute;
mod turn;

pub use ambiloa::AmbiPosition;
pub use fields::FieldsPosition;
pub use neighbors::NeighborsPosition;
pub use parachute::{ParachutePosition, MAX_PIECES};

use crate::{
    Bitboard, BoardSize, Color, GameState, Move, MoveError, Outcome, Piece, Position,
    PositionTextError, RuleSet, Seat, Square, Variant,
};
use std::fmt;

/// A position of any variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VariantPosition {
    /// The standard rules: the standard game and Scrambled Eggs, on any board.
    Standard(Position),
    Parachute(ParachutePosition),
    AmbiLoa(AmbiPosition),
    Neighbors(NeighborsPosition),
    FieldsOfAction(FieldsPosition),
}

impl VariantPosition {
    /// Reads `variant`'s position text.
    pub fn parse(variant: Variant, text: &str) -> Result<VariantPosition, PositionTextError> {
        Ok(match variant {
            Variant::Standard | Variant::ScrambledEggs => VariantPosition::Standard(text.parse()?),
            Variant::Parachute => VariantPosition::Parachute(text.parse()?),
            Variant::AmbiLoa => VariantPosition::AmbiLoa(text.parse()?),
            Variant::Neighbors => VariantPosition::Neighbors(text.parse()?),
            Variant::FieldsOfAction => VariantPosition::FieldsOfAction(text.parse()?),
        })
    }

    /// Reads `variant`'s position text or, for the variants on the standard rules'
    /// positions, a chess GUI's FEN ([`Position::from_chess_fen`]) as well.
    pub fn parse_or_fen(
        variant: Variant,
        text: &str,
    ) -> Result<VariantPosition, PositionTextError> {
        match variant {
            Variant::Standard | Variant::ScrambledEggs if Position::is_chess_fen(text) => {
                Position::from_chess_fen(text).map(VariantPosition::Standard)
            }
            _ => VariantPosition::parse(variant, text),
        }
    }

    /// The position of the standard rules, if it is one.
    pub fn as_standard(&self) -> Option<&Position> {
        match self {
            VariantPosition::Standard(pos) => Some(pos),
            _ => None,
        }
    }
}

/// Refuses position text of a board `variant` is not played on.
pub(crate) fn check_board(variant: Variant, size: BoardSize) -> Result<(), PositionTextError> {
    if variant.sizes().contains(&size) {
        Ok(())
    } else {
        Err(PositionTextError::EightOnly { variant, size })
    }
}

macro_rules! from_position {
    ($($ty:ty => $variant:ident),*) => {$(
        impl From<$ty> for VariantPosition {
            fn from(pos: $ty) -> VariantPosition {
                VariantPosition::$variant(pos)
            }
        }
    )*};
}

from_position!(
    Position => Standard,
    ParachutePosition => Parachute,
    AmbiPosition => AmbiLoa,
    NeighborsPosition => Neighbors,
    FieldsPosition => FieldsOfAction
);

/// Calls the same method on whichever position it holds.
macro_rules! each {
    ($self:expr, $pos:ident => $body:expr) => {
        match $self {
            VariantPosition::Standard($pos) => $body,
            VariantPosition::Parachute($pos) => $body,
            VariantPosition::AmbiLoa($pos) => $body,
            VariantPosition::Neighbors($pos) => $body,
            VariantPosition::FieldsOfAction($pos) => $body,
        }
    };
}

impl GameState for VariantPosition {
    fn variant(&self) -> Variant {
        each!(self, pos => pos.variant())
    }

    fn size(&self) -> BoardSize {
        each!(self, pos => GameState::size(pos))
    }

    fn side_to_move(&self) -> Color {
        each!(self, pos => GameState::side_to_move(pos))
    }

    fn seat_to_move(&self) -> Seat {
        each!(self, pos => pos.seat_to_move())
    }

    fn key(&self) -> u64 {
        each!(self, pos => pos.key())
    }

    fn piece_at(&self, square: Square) -> Option<Piece> {
        each!(self, pos => GameState::piece_at(pos, square))
    }

    fn pieces(&self, color: Color) -> Bitboard {
        each!(self, pos => GameState::pieces(pos, color))
    }

    fn for_each_move(&self, f: impl FnMut(Move)) {
        each!(self, pos => pos.for_each_move(f));
    }

    fn count_moves(&self) -> u64 {
        each!(self, pos => GameState::count_moves(pos))
    }

    fn is_legal(&self, mv: Move) -> bool {
        each!(self, pos => GameState::is_legal(pos, mv))
    }

    fn play(&mut self, mv: Move) {
        each!(self, pos => GameState::play(pos, mv));
    }

    fn outcome(&self, rules: RuleSet) -> Option<Outcome> {
        each!(self, pos => GameState::outcome(pos, rules))
    }

    fn outcome_after(&self, mv: Move, rules: RuleSet) -> Option<Outcome> {
        each!(self, pos => GameState::outcome_after(pos, mv, rules))
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        each!(self, pos => GameState::parse_move(pos, text))
    }

    fn diagram(&self, marked: Bitboard) -> String {
        each!(self, pos => GameState::diagram(pos, marked))
    }
}

impl fmt::Display for VariantPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        each!(self, pos => pos.fmt(f))
    }
}

/// What the variants' tests share: positions from text, move lists as text, games
/// played from move texts.
#[cfg(test)]
pub(crate) mod test_support {
    use crate::{Game, GameState, RuleSet};
    use std::collections::BTreeSet;

    pub(crate) fn pos<P: GameState + std::str::FromStr>(text: &str) -> P
    where
        P::Err: std::fmt::Display,
    {
        text.parse()
            .unwrap_or_else(|e| panic!("'{text}' does not parse: {e}"))
    }

    /// The legal moves as the rules write them.
    pub(crate) fn move_names<P: GameState>(pos: &P) -> BTreeSet<String> {
        pos.moves().iter().map(ToString::to_string).collect()
    }

    pub(crate) fn names(list: &[&str]) -> BTreeSet<String> {
        list.iter().map(ToString::to_string).collect()
    }

    /// Plays `shuffle` (which must lead back to `start`) twice: the second time round the
    /// start occurs for the third time, a draw.
    pub(crate) fn assert_third_occurrence_draws<P: GameState>(start: P, shuffle: &[&str]) {
        let twice = game_after(start.clone(), RuleSet::Draw, shuffle);
        assert_eq!((twice.repetitions(), twice.outcome()), (2, None));
        let thrice = game_after(start, RuleSet::Draw, &[shuffle, shuffle].concat());
        assert_eq!(
            thrice.outcome(),
            Some(crate::Outcome::draw(crate::Reason::Repetition))
        );
    }

    /// A game from `start` after `moves`, each of which must be legal.
    pub(crate) fn game_after<P: GameState>(start: P, rules: RuleSet, moves: &[&str]) -> Game<P> {
        let mut game = Game::new(start, rules);
        for text in moves {
            game.play_text(text)
                .unwrap_or_else(|e| panic!("{text} in {}: {e}", game.position()));
        }
        game
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_of_8x8_only_refuse_smaller_boards_in_their_text() {
        let smaller = [
            (Variant::Parachute, "1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b 0 0"),
            (
                Variant::Parachute,
                "1bbbbb1/w5w/w5w/w5w/w5w/w5w/1bbbbb1 w 1 1",
            ),
            (Variant::AmbiLoa, "1bbbb1/w4W/w4W/w4W/w4W/1BBBB1 B"),
            (Variant::AmbiLoa, "1bbbbb1/w5W/w5W/w5W/w5W/w5W/1BBBBB1 W"),
            (Variant::Neighbors, "1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b"),
            (Variant::Neighbors, "1bbbbb1/w5w/w5w/w5w/w5w/w5w/1bbbbb1 b"),
            (Variant::FieldsOfAction, "FE4/2LK2/DC4/6/ab4/ij4 b"),
            (Variant::FieldsOfAction, "FE5/2LK3/DC5/7/7/ab5/ij5 w"),
        ];
        for (variant, text) in smaller {
            let size = if text.split('/').count() == 6 {
                "6x6"
            } else {
                "7x7"
            };
            assert_eq!(
                VariantPosition::parse(variant, text).map_err(|e| e.to_string()),
                Err(format!(
                    "{} is played on 8x8 only, not {size}",
                    variant.title()
                )),
                "{text}"
            );
        }
        // The standard rules are played on every board.
        for variant in [Variant::Standard, Variant::ScrambledEggs] {
            assert!(VariantPosition::parse(variant, "1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b").is_ok());
        }
    }
}
