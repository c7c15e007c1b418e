//! Positions as the page draws them: the pieces, reserves, the side and seat to move, the
//! legal moves with their squares, and the end if there is one. The page never reads
//! position text itself; the server describes every position it shows.

use loa_core::record::RecordResult;
use loa_core::{Color, GameState, Move, Outcome, RuleSet, Square, VariantPosition};
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub struct PositionView {
    /// The position text.
    pub position: String,
    pub variant: &'static str,
    /// Squares a side: 6, 7 or 8.
    pub size: u8,
    pub to_move: &'static str,
    /// The seat to move, for games with two seats a side (AmbiLOA's kinds): 0 or 1.
    pub seat: u8,
    pub pieces: Vec<PieceView>,
    /// Pieces in reserve, Black's and White's (Parachute).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reserves: Option<[u8; 2]>,
    /// The legal moves; empty once the game is over.
    pub moves: Vec<MoveView>,
    /// The end judged from the position alone (repetition is a matter of the game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<OutcomeView>,
}

#[derive(Clone, Debug, Serialize)]
pub struct PieceView {
    pub square: String,
    pub color: &'static str,
    /// The seat that moves it (AmbiLOA: 0 for `B`/`W`, 1 for `b`/`w`).
    pub seat: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<u8>,
}

#[derive(Clone, Debug, Serialize)]
pub struct MoveView {
    /// The move in notation: `b1-d3`, `d1xa4`, `pass`, `a6-c6@e5`.
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drop: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct OutcomeView {
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for an aborted game.
    pub result: &'static str,
    /// `black`, `white`, or absent for a draw.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<&'static str>,
    pub reason: String,
}

impl OutcomeView {
    pub fn new(winner: Option<Color>, reason: String) -> OutcomeView {
        OutcomeView::of_ending(RecordResult::from_winner(winner), winner, reason)
    }

    /// A site game's ending, whose result is not always its winner's (an aborted game).
    pub fn of_ending(result: RecordResult, winner: Option<Color>, reason: String) -> OutcomeView {
        OutcomeView {
            result: result.pgn(),
            winner: winner.map(Color::id),
            reason,
        }
    }

    pub fn of(outcome: Outcome) -> OutcomeView {
        OutcomeView::new(outcome.winner, outcome.reason.to_string())
    }
}

impl MoveView {
    pub fn of(mv: Move) -> MoveView {
        let (from, to) = if mv.is_pass() {
            (None, None)
        } else {
            (Some(mv.from().to_string()), Some(mv.to().to_string()))
        };
        MoveView {
            text: mv.to_string(),
            from,
            to,
            drop: mv.drop().map(|sq| sq.to_string()),
        }
    }
}

impl PositionView {
    /// `over`: the game has ended (by any cause), so no move is offered.
    pub fn of(pos: &VariantPosition, rules: RuleSet, over: bool) -> PositionView {
        let size = pos.size().side();
        let mut pieces = Vec::new();
        for rank in 0..size {
            for file in 0..size {
                let square = Square::from_coords(file, rank);
                if let Some(piece) = pos.piece_at(square) {
                    pieces.push(PieceView {
                        square: square.to_string(),
                        color: piece.color.id(),
                        seat: piece.seat,
                        number: piece.number,
                    });
                }
            }
        }
        let outcome = pos.outcome(rules);
        let moves = if over || outcome.is_some() {
            Vec::new()
        } else {
            pos.moves().into_iter().map(MoveView::of).collect()
        };
        PositionView {
            position: pos.to_string(),
            variant: pos.variant().name(),
            size,
            to_move: pos.side_to_move().id(),
            seat: pos.seat_to_move().index,
            pieces,
            reserves: match pos {
                VariantPosition::Parachute(p) => {
                    Some([p.reserve(Color::Black), p.reserve(Color::White)])
                }
                _ => None,
            },
            moves,
            outcome: outcome.map(OutcomeView::of),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loa_core::{BoardSize, Variant};

    #[test]
    fn the_start_has_its_pieces_and_moves() {
        let start = Variant::Standard.start(BoardSize::Eight).unwrap();
        let view = PositionView::of(&start, RuleSet::Draw, false);
        assert_eq!(view.pieces.len(), 24);
        assert_eq!(view.moves.len(), 36);
        assert_eq!(view.to_move, "black");
        let b1b3 = view.moves.iter().find(|m| m.text == "b1-b3").unwrap();
        assert_eq!(
            (b1b3.from.as_deref(), b1b3.to.as_deref()),
            (Some("b1"), Some("b3"))
        );
        assert!(PositionView::of(&start, RuleSet::Draw, true)
            .moves
            .is_empty());
    }

    #[test]
    fn variants_show_reserves_kinds_and_numbers() {
        let start = Variant::Parachute.start(BoardSize::Eight).unwrap();
        let view = PositionView::of(&start, RuleSet::Draw, false);
        assert_eq!(view.reserves, Some([6, 6]));
        assert!(view.moves.iter().all(|m| m.drop.is_some()));
        let fields = Variant::FieldsOfAction.start(BoardSize::Eight).unwrap();
        let view = PositionView::of(&fields, RuleSet::Draw, false);
        assert!(view.pieces.iter().all(|p| p.number.is_some()));
        let ambi = Variant::AmbiLoa.start(BoardSize::Eight).unwrap();
        let view = PositionView::of(&ambi, RuleSet::Draw, false);
        assert!(view.pieces.iter().any(|p| p.seat == 1));
    }
}
