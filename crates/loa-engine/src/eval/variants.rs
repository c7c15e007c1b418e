//! The evaluations of the variants. Those won by connection (Neighbors, AmbiLOA,
//! Parachute) measure the standard terms on the side's pieces with the variant's own
//! mobility; Fields of Action, won by captures, counts the progress to five consecutive
//! captures, the pieces left and mobility.

use super::{mobility, phase, phase_of, shape_features, weigh, Shape};
use loa_core::variants::{AmbiPosition, FieldsPosition, NeighborsPosition, ParachutePosition};
use loa_core::{Color, GameState};

/// What a piece in reserve costs its side in Parachute: the opponent places it.
const RESERVE_PIECE: i32 = 30;

/// Neighbors: the standard terms, with the moves of Neighbors for mobility.
pub fn neighbors(pos: &NeighborsPosition) -> i32 {
    let board = pos.board();
    let shape = |color: Color| {
        let them = board.pieces(!color);
        let mut moves = 0;
        pos.for_each_move_set(color, |_, targets| moves += mobility(targets, them));
        shape_features(Shape::measure(
            board.pieces(color),
            them,
            board.board(),
            board.size(),
            moves,
        ))
    };
    let us = board.side_to_move();
    weigh(&shape(us), &shape(!us), phase_of(board))
}

/// AmbiLOA: the standard terms on each side's pieces of both kinds.
pub fn ambiloa(pos: &AmbiPosition) -> i32 {
    let shape = |color: Color| {
        let them = pos.team(!color);
        let mut moves = 0;
        pos.for_each_move_set(color, |_, targets| moves += mobility(targets, them));
        shape_features(Shape::measure(
            pos.team(color),
            them,
            pos.board(),
            pos.size(),
            moves,
        ))
    };
    let us = pos.side_to_move();
    let pieces = pos.team(Color::Black) | pos.team(Color::White);
    let phase = phase(pieces.count(), pos.size());
    weigh(&shape(us), &shape(!us), phase)
}

/// Parachute: the standard terms on the pieces on the board, less for each piece still in
/// reserve.
pub fn parachute(pos: &ParachutePosition) -> i32 {
    let board = pos.board();
    let us = board.side_to_move();
    let reserves = i32::from(pos.reserve(!us)) - i32::from(pos.reserve(us));
    super::evaluate(board) + RESERVE_PIECE * reserves
}

/// The value of having captured `n` pieces of the best window of five consecutive
/// numbers (five is a win, and the search sees it as one).
const WINDOW: [i32; 5] = [0, 30, 90, 220, 520];
/// The value of each enemy piece captured.
const CAPTURE: i32 = 25;
/// The value of each move the side has.
const MOVE: i32 = 3;
/// The bonus for the side to move.
const TEMPO: i32 = 10;

/// Fields of Action: the progress of each side to five consecutive captures, its
/// captures, and its moves.
pub fn fields(pos: &FieldsPosition) -> i32 {
    let side = |color: Color| -> i32 {
        // The enemy numbers this side has captured.
        let taken = pos.captured(!color);
        let best_window = (1..=8)
            .map(|low| (taken >> low & 0b1_1111).count_ones() as usize)
            .max()
            .unwrap_or(0)
            .min(4);
        let mut moves = 0;
        pos.for_each_move_set(color, |_, targets| moves += targets.count() as i32);
        WINDOW[best_window] + CAPTURE * taken.count_ones() as i32 + MOVE * moves
    };
    let us = pos.side_to_move();
    side(us) - side(!us) + TEMPO
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_are_even_but_for_the_side_to_move() {
        let tempo = super::super::weights::TEMPO.crowded;
        assert_eq!(neighbors(&NeighborsPosition::start()), tempo);
        assert_eq!(ambiloa(&AmbiPosition::start()), tempo);
        assert_eq!(fields(&FieldsPosition::start()), TEMPO);
    }

    #[test]
    fn fields_values_captures_in_a_row() {
        // Black has taken White's 1, 2, 3 and 4; White has taken nothing.
        let pos: FieldsPosition = "HGFE4/4LKJI/DCBA4/8/8/8/ijkl4/4efgh b".parse().unwrap();
        assert!(fields(&pos) > WINDOW[4], "{}", fields(&pos));
    }
}
