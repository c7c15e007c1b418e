//! The FEN of chess programs that play Lines of Action (cutechess's `linesofaction`):
//! the placement with `p` for Black's pieces and `P` for White's, the side to move `b` or
//! `w`, then chess's castling and en passant fields (always `-`) and the half-move and
//! move numbers, which the rules do not use. The standard start is
//! `1pppppp1/P6P/P6P/P6P/P6P/P6P/P6P/1pppppp1 b - - 0 1`.

use crate::text::{no_more, read_head, read_two_colours, write_placement};
use crate::{excerpt, Color, Position, PositionTextError};
use std::fmt;

impl Position {
    /// Whether `text` is written as a chess FEN rather than as position text: its
    /// placement names pieces `p`/`P`, or fields follow the side to move. Position text
    /// of the standard rules has neither.
    pub fn is_chess_fen(text: &str) -> bool {
        let mut fields = text.split_whitespace();
        let placement = fields.next().unwrap_or_default();
        placement.contains(['p', 'P']) || fields.nth(1).is_some()
    }

    /// Reads a chess FEN. The castling and en passant fields, when given, must be `-`;
    /// the half-move and move numbers, when given, must be whole numbers.
    pub fn from_chess_fen(text: &str) -> Result<Position, PositionTextError> {
        let mut fields = text.split_whitespace();
        let (placement, side) = read_head(&mut fields, false)?;
        let dash = "'-' (Lines of Action has neither castling nor en passant)";
        let is_dash: fn(&str) -> bool = |value| value == "-";
        let is_whole: fn(&str) -> bool = |value| value.parse::<u32>().is_ok();
        for (field, expected, good) in [
            ("the castling field", dash, is_dash),
            ("the en passant field", dash, is_dash),
            ("the half-move number", "a whole number", is_whole),
            ("the move number", "a whole number", is_whole),
        ] {
            let Some(value) = fields.next() else { break };
            if !good(value) {
                return Err(PositionTextError::BadField {
                    field,
                    text: excerpt(value).into_owned(),
                    expected,
                });
            }
        }
        no_more(&mut fields)?;
        let (size, pieces) = read_two_colours(placement, "p (Black), P (White)", ['p', 'P'])?;
        Ok(Position::from_parts(pieces[0], pieces[1], side, size)?)
    }

    /// The position as a chess FEN, with `moves_played` half-moves behind it (the move
    /// number counts from 1 and goes up after each of White's moves, as chess's does).
    pub fn chess_fen(&self, moves_played: usize) -> ChessFen<'_> {
        ChessFen {
            position: self,
            moves_played,
        }
    }
}

/// A position written as a chess FEN ([`Position::chess_fen`]).
pub struct ChessFen<'a> {
    position: &'a Position,
    moves_played: usize,
}

impl fmt::Display for ChessFen<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let position = self.position;
        write_placement(f, position.size(), |sq| {
            position.piece_at(sq).map(|color| match color {
                Color::Black => 'p',
                Color::White => 'P',
            })
        })?;
        // Black moves first, so the move number goes up when White has moved.
        let move_number = 1 + self.moves_played / 2;
        write!(
            f,
            " {} - - 0 {move_number}",
            position.side_to_move().letter()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BoardSize, RuleSet, Variant};
    use proptest::prelude::*;

    const START: &str = "1pppppp1/P6P/P6P/P6P/P6P/P6P/P6P/1pppppp1 b - - 0 1";

    fn err(text: &str) -> String {
        Position::from_chess_fen(text).unwrap_err().to_string()
    }

    #[test]
    fn the_start_reads_as_ours() {
        assert_eq!(Position::from_chess_fen(START), Ok(Position::startpos()));
        assert_eq!(Position::startpos().chess_fen(0).to_string(), START);
        // The fields after the side may be left out, as GUIs that only set up do.
        let short = "1pppppp1/P6P/P6P/P6P/P6P/P6P/P6P/1pppppp1 b";
        assert_eq!(Position::from_chess_fen(short), Ok(Position::startpos()));
        assert!(Position::is_chess_fen(START) && Position::is_chess_fen(short));
        assert!(!Position::is_chess_fen(&Position::startpos().to_string()));
        assert!(Position::is_chess_fen("8/8/8/8/8/8/8/8 b - -"));
    }

    #[test]
    fn scrambled_eggs_and_small_boards() {
        let eggs = Position::from_chess_fen("1PpPpPp1/p6P/P6p/p6P/P6p/p6P/P6p/1pPpPpP1 b - - 0 1")
            .unwrap();
        assert_eq!(
            eggs.to_string(),
            "1wbwbwb1/b6w/w6b/b6w/w6b/b6w/w6b/1bwbwbw1 b"
        );
        let six = Position::from_chess_fen("1pppp1/P4P/P4P/P4P/P4P/1pppp1 w - - 3 12").unwrap();
        assert_eq!(six.size(), BoardSize::Six);
        assert_eq!(six.to_string(), "1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 w");
        let start = Variant::Standard.start(BoardSize::Seven).unwrap();
        let start = start.as_standard().unwrap();
        assert_eq!(
            Position::from_chess_fen(&start.chess_fen(0).to_string()).as_ref(),
            Ok(start)
        );
    }

    #[test]
    fn the_standard_rules_variants_read_either_form() {
        use crate::VariantPosition;
        let start = VariantPosition::Standard(Position::startpos());
        for variant in [Variant::Standard, Variant::ScrambledEggs] {
            assert_eq!(VariantPosition::parse_or_fen(variant, START), Ok(start));
            let ours = Position::startpos().to_string();
            assert_eq!(VariantPosition::parse_or_fen(variant, &ours), Ok(start));
        }
        // Parachute has a text of its own, with reserves, and no FEN.
        assert!(VariantPosition::parse_or_fen(Variant::Parachute, START).is_err());
    }

    #[test]
    fn the_move_number_counts_whole_moves() {
        let after = |plies| Position::startpos().chess_fen(plies).to_string();
        assert!(after(1).ends_with(" 0 1") && after(2).ends_with(" 0 2"));
        assert!(after(41).ends_with(" 0 21"));
    }

    #[test]
    fn bad_fens_say_what_is_wrong() {
        assert_eq!(err(""), "empty position text");
        assert!(err("1pppppp1/P6P/P6P/P6P/P6P/P6P/P6P/1pppppp1").contains("missing side"));
        assert!(err("1pppppp1/P6P/P6P/P6P/P6P/P6P/P6P/1pppppp1 x - - 0 1").contains("'x'"));
        assert_eq!(
            err("1pppppp1/P6P/P6P/P6P/P6P/P6P/P6P/1pppppp1 b KQkq - 0 1"),
            "the castling field 'KQkq' must be '-' (Lines of Action has neither castling \
             nor en passant)"
        );
        assert!(err("1pppppp1/P6P/P6P/P6P/P6P/P6P/P6P/1pppppp1 b - e3 0 1")
            .contains("en passant field 'e3'"));
        assert!(err("1pppppp1/P6P/P6P/P6P/P6P/P6P/P6P/1pppppp1 b - - -1 1")
            .contains("half-move number '-1' must be a whole number"));
        assert!(
            err("1pppppp1/P6P/P6P/P6P/P6P/P6P/P6P/1pppppp1 b - - 0 99999999999")
                .contains("move number '99999999999'")
        );
        assert!(err("1pppppp1/P6P/P6P/P6P/P6P/P6P/P6P/1pppppp1 b - - 0 1 x").contains("'x'"));
        // A chess position is not one of Lines of Action.
        assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1")
            .contains("unknown character 'r' (expected p (Black), P (White) or a digit"));
        // Our letters belong to our text, not to the FEN.
        assert!(err("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b - - 0 1")
            .contains("unknown character 'b'"));
        assert!(err("1ppppp1/P6P/P6P/P6P/P6P/P6P/P6P/1pppppp1 b").contains("rank 8"));
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 200,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// Every position of random games reads back from its FEN.
        #[test]
        fn positions_round_trip(
            size in prop_oneof![Just(BoardSize::Six), Just(BoardSize::Seven), Just(BoardSize::Eight)],
            choices in prop::collection::vec(any::<u32>(), 0..60),
        ) {
            let start = Variant::Standard.start(size).unwrap();
            let mut position = *start.as_standard().unwrap();
            for (plies, choice) in choices.into_iter().enumerate() {
                let fen = position.chess_fen(plies).to_string();
                prop_assert!(Position::is_chess_fen(&fen));
                prop_assert_eq!(Position::from_chess_fen(&fen), Ok(position));
                // Past the game's end a side can lose its last piece, which no position has.
                let moves = position.legal_moves();
                if moves.is_empty() || position.outcome(RuleSet::Draw).is_some() {
                    break;
                }
                position.play(moves[choice as usize % moves.len()]);
            }
        }
    }
}
