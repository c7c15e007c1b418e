//! Fields of Action (S. Sackson): each side has pieces numbered 1 to 12. A piece moves
//! along a queen line exactly as many squares as it has neighbours, passing over pieces of
//! either colour, onto an empty square or an enemy piece. A piece with no neighbours may
//! move any distance along a queen line, over any pieces, to an empty square next to two or
//! more pieces (counted after the move). A side wins by capturing five enemy pieces with
//! consecutive numbers (1-5 up to 8-12), or when the opponent is to move and cannot:
//! there is no pass and no connection goal.

use super::turn::match_turn;
use crate::movegen::{leap_targets, queen_lines};
use crate::text::{draw_diagram, no_more, read_head, read_placement, write_placement};
use crate::zobrist::{numbered_key, variant_key, WHITE_TO_MOVE};
use crate::{
    excerpt, Bitboard, BoardSize, Color, GameState, Move, MoveError, MoveList, Outcome, Piece,
    PositionTextError, Reason, RuleSet, SetupError, Square, Variant,
};
use std::fmt;
use std::str::FromStr;

/// A Fields of Action position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FieldsPosition {
    pieces: [Bitboard; 2],
    /// The number of the piece on each square, 0 where there is none.
    numbers: [u8; 64],
    board: Bitboard,
    side: Color,
    size: BoardSize,
    hash: u64,
}

/// The letter of a piece: `A`..`L` for Black's 1-12, `a`..`l` for White's.
fn letter(color: Color, number: u8) -> char {
    let base = match color {
        Color::Black => b'A',
        Color::White => b'a',
    };
    char::from(base + number - 1)
}

/// Whether the numbers in `mask` (bit n for number n) hold five in a row.
#[inline]
fn five_in_a_row(mask: u16) -> bool {
    mask & (mask >> 1) & (mask >> 2) & (mask >> 3) & (mask >> 4) != 0
}

impl FieldsPosition {
    /// The start: `HGFE4/4LKJI/DCBA4/8/8/4abcd/ijkl4/4efgh b`.
    pub fn start() -> FieldsPosition {
        "HGFE4/4LKJI/DCBA4/8/8/4abcd/ijkl4/4efgh b"
            .parse()
            .expect("the start is valid")
    }

    /// A position from the numbered pieces `(colour, number, square)`, checked: each
    /// number at most once a side, squares on the board and taken once, a piece of each
    /// colour.
    pub fn from_pieces(
        pieces: &[(Color, u8, Square)],
        side: Color,
        size: BoardSize,
    ) -> Result<FieldsPosition, PositionTextError> {
        let mut pos = FieldsPosition {
            pieces: [Bitboard::EMPTY; 2],
            numbers: [0; 64],
            board: size.mask(),
            side,
            size,
            hash: variant_key(Variant::FieldsOfAction.index()),
        };
        for &(color, number, sq) in pieces {
            if !(1..=12).contains(&number) {
                return Err(PositionTextError::Invalid(format!(
                    "piece numbers go from 1 to 12, not {number}"
                )));
            }
            if !size.mask().contains(sq) {
                return Err(SetupError::OffBoard { square: sq, size }.into());
            }
            if pos.numbers[sq.index()] != 0 {
                return Err(SetupError::Overlap(sq).into());
            }
            if let Some(other) = pos.square_of(color, number) {
                return Err(PositionTextError::Invalid(format!(
                    "{color}'s {number} is on both {other} and {sq}"
                )));
            }
            pos.pieces[color.index()] = pos.pieces[color.index()].with(sq);
            pos.numbers[sq.index()] = number;
            pos.hash ^= numbered_key(color, number, sq);
        }
        for color in Color::ALL {
            if pos.pieces[color.index()].is_empty() {
                return Err(SetupError::NoPieces(color).into());
            }
        }
        if side == Color::White {
            pos.hash ^= WHITE_TO_MOVE;
        }
        Ok(pos)
    }

    /// Where `color`'s piece `number` stands, if it is on the board.
    pub fn square_of(&self, color: Color, number: u8) -> Option<Square> {
        self.pieces[color.index()]
            .into_iter()
            .find(|sq| self.numbers[sq.index()] == number)
    }

    /// The number of the piece on `sq` (0 when empty).
    pub fn number_at(&self, sq: Square) -> u8 {
        self.numbers[sq.index()]
    }

    /// The squares of the board.
    pub fn board(&self) -> Bitboard {
        self.board
    }

    #[inline]
    fn occupied(&self) -> Bitboard {
        self.pieces[0] | self.pieces[1]
    }

    /// The numbers of `color`'s pieces that have been captured, bit n for number n.
    pub fn captured(&self, color: Color) -> u16 {
        let on_board = self.pieces[color.index()]
            .into_iter()
            .fold(0u16, |mask, sq| mask | 1 << self.numbers[sq.index()]);
        0b1_1111_1111_1110 & !on_board
    }

    /// The landing squares of `color`'s piece on `from`; a piece without neighbours moves
    /// the long way (any distance, onto an empty square next to two pieces).
    fn targets(&self, color: Color, from: Square) -> Bitboard {
        let occupied = self.occupied();
        let own = self.pieces[color.index()];
        let neighbours = (Bitboard::from_square(from).neighbours() & occupied).count();
        if neighbours > 0 {
            return Bitboard(leap_targets(from, neighbours)) & self.board & !own;
        }
        let others = occupied.without(from);
        (Bitboard(queen_lines(from)) & self.board & !occupied)
            .filter(|&to| (Bitboard::from_square(to).neighbours() & others).count() >= 2)
            .fold(Bitboard::EMPTY, Bitboard::with)
    }

    /// Fills `moves` with the legal moves; none when the side to move cannot move (it
    /// has then lost).
    pub fn generate_moves(&self, moves: &mut MoveList) {
        // Twelve pieces, each reaching at most the 27 squares of the queen lines from
        // a centre square: every move fits.
        const _: () = assert!(12 * 27 <= MoveList::CAPACITY);
        moves.clear();
        let us = self.side;
        let them = self.pieces[(!us).index()];
        for from in self.pieces[us.index()] {
            for to in self.targets(us, from) {
                moves.push(Move::new(from, to, them.contains(to)));
            }
        }
    }

    /// Calls `f(from, targets)` for each piece of `color` that has a move, as if `color`
    /// were to move (for mobility).
    pub fn for_each_move_set(&self, color: Color, mut f: impl FnMut(Square, Bitboard)) {
        for from in self.pieces[color.index()] {
            let targets = self.targets(color, from);
            if targets.any() {
                f(from, targets);
            }
        }
    }

    fn has_move(&self) -> bool {
        let mut pieces = self.pieces[self.side.index()];
        Iterator::any(&mut pieces, |from| self.targets(self.side, from).any())
    }

    /// Why the piece on `from` cannot go to `to`.
    fn why_illegal(&self, from: Square, to: Square) -> String {
        if !self.pieces[self.side.index()].contains(from) {
            return format!(
                "there is no piece of the side to move ({}) on {from}",
                self.side
            );
        }
        let n = (Bitboard::from_square(from).neighbours() & self.occupied()).count();
        if n == 0 {
            return format!(
                "the piece on {from} has no neighbour: it moves along a line to an empty \
                 square next to two or more pieces, which {to} is not"
            );
        }
        format!("the piece on {from} has {n} neighbours, so it moves {n} squares along a line")
    }
}

impl GameState for FieldsPosition {
    fn variant(&self) -> Variant {
        Variant::FieldsOfAction
    }

    fn size(&self) -> BoardSize {
        self.size
    }

    #[inline]
    fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    fn key(&self) -> u64 {
        self.hash
    }

    fn piece_at(&self, square: Square) -> Option<Piece> {
        let color = Color::ALL
            .into_iter()
            .find(|c| self.pieces[c.index()].contains(square))?;
        Some(Piece {
            color,
            seat: 0,
            number: Some(self.numbers[square.index()]),
        })
    }

    fn pieces(&self, color: Color) -> Bitboard {
        self.pieces[color.index()]
    }

    fn for_each_move(&self, f: impl FnMut(Move)) {
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves.iter().copied().for_each(f);
    }

    fn play(&mut self, mv: Move) {
        let us = self.side;
        let (from, to) = (mv.from(), mv.to());
        let number = self.numbers[from.index()];
        if mv.is_capture() {
            let taken = self.numbers[to.index()];
            self.pieces[(!us).index()] = self.pieces[(!us).index()].without(to);
            self.hash ^= numbered_key(!us, taken, to);
        }
        self.pieces[us.index()] = self.pieces[us.index()].without(from).with(to);
        self.numbers[from.index()] = 0;
        self.numbers[to.index()] = number;
        self.hash ^= numbered_key(us, number, from) ^ numbered_key(us, number, to) ^ WHITE_TO_MOVE;
        self.side = !us;
    }

    /// Five consecutive captures of either side's pieces, else the side to move without
    /// a move: both win for the other side.
    fn outcome(&self, _rules: RuleSet) -> Option<Outcome> {
        let mover = !self.side;
        if five_in_a_row(self.captured(self.side)) {
            return Some(Outcome::win(mover, Reason::FiveCaptured));
        }
        if five_in_a_row(self.captured(mover)) {
            return Some(Outcome::win(self.side, Reason::FiveCaptured));
        }
        (!self.has_move()).then_some(Outcome::win(mover, Reason::NoMove))
    }

    /// Only the side to move can have lost a piece; it may also be left without a move.
    fn outcome_after(&self, mv: Move, _rules: RuleSet) -> Option<Outcome> {
        let mover = !self.side;
        if mv.is_capture() && five_in_a_row(self.captured(self.side)) {
            return Some(Outcome::win(mover, Reason::FiveCaptured));
        }
        (!self.has_move()).then_some(Outcome::win(mover, Reason::NoMove))
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let legal = self.moves();
        if legal.is_empty() {
            return Err(MoveError::Illegal {
                text: excerpt(text.trim()).into_owned(),
                reason: format!("{} has no legal move", self.side),
            });
        }
        match_turn(text, &legal, |from, to| self.why_illegal(from, to), None)
    }

    fn diagram(&self, marked: Bitboard) -> String {
        let mut text = draw_diagram(self.size, marked, |sq| {
            GameState::piece_at(self, sq).map(|p| letter(p.color, p.number.unwrap_or(1)))
        });
        let captured = |color: Color| -> String {
            let mask = self.captured(color);
            let numbers: Vec<String> = (1..=12)
                .filter(|n| mask & 1 << n != 0)
                .map(|n: u8| n.to_string())
                .collect();
            if numbers.is_empty() {
                "none".to_string()
            } else {
                numbers.join(" ")
            }
        };
        text.push_str(&format!(
            "Black's pieces are A-L (1-12), White's a-l. Captured: Black's {}; White's {}\n",
            captured(Color::Black),
            captured(Color::White)
        ));
        text
    }
}

/// The placement with `A`..`L` for Black's pieces 1-12 and `a`..`l` for White's, then the
/// side to move.
impl FromStr for FieldsPosition {
    type Err = PositionTextError;

    fn from_str(text: &str) -> Result<FieldsPosition, PositionTextError> {
        let mut fields = text.split_whitespace();
        let (placement, side) = read_head(&mut fields, false)?;
        no_more(&mut fields)?;
        let (size, squares) = read_placement(placement, "A-L, a-l", |ch| match ch {
            'A'..='L' => Some((Color::Black, ch as u8 - b'A' + 1)),
            'a'..='l' => Some((Color::White, ch as u8 - b'a' + 1)),
            _ => None,
        })?;
        super::check_board(Variant::FieldsOfAction, size)?;
        let pieces: Vec<(Color, u8, Square)> =
            squares.into_iter().map(|(sq, (c, n))| (c, n, sq)).collect();
        FieldsPosition::from_pieces(&pieces, side, size)
    }
}

impl fmt::Display for FieldsPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_placement(f, self.size, |sq| {
            GameState::piece_at(self, sq).map(|p| letter(p.color, p.number.unwrap_or(1)))
        })?;
        write!(f, " {}", self.side.letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::test_support::{
        assert_third_occurrence_draws, game_after, move_names, names, pos,
    };

    fn fields(text: &str) -> FieldsPosition {
        pos(text)
    }

    /// The moves of the piece on `from`.
    fn moves_from(pos: &FieldsPosition, from: &str) -> std::collections::BTreeSet<String> {
        move_names(pos)
            .into_iter()
            .filter(|m| m.starts_with(from))
            .collect()
    }

    #[test]
    fn a_piece_without_neighbours_goes_anywhere_along_a_line_next_to_two_pieces() {
        // Black's 1 on a1 has no neighbour. Along its diagonal, c3 touches c4, d3 and
        // d4; e5, beyond White's d4, touches d4 and f6. Nothing else touches two.
        let start = fields("8/8/5l2/8/2ci3E/3f4/8/A6I b");
        assert_eq!(moves_from(&start, "a1"), names(&["a1-c3", "a1-e5"]));
        let game = game_after(start, RuleSet::Draw, &["a1-e5"]);
        assert_eq!(game.position().number_at(Square::from_coords(4, 4)), 1);
    }

    #[test]
    fn a_piece_with_neighbours_moves_that_many_squares() {
        // Black's 1 on d4 has one neighbour, White's 7 on e5, and may take it.
        let start = fields("ab5h/7i/7j/4g2k/3A3l/8/I7/EL6 b");
        let from_d4 = moves_from(&start, "d4");
        assert_eq!(from_d4.len(), 8);
        assert!(from_d4.contains("d4xe5"));
    }

    #[test]
    fn five_consecutive_captures_win() {
        // White's 3, 4, 5 and 6 are gone; taking 7 makes five in a row.
        let start = fields("ab5h/7i/7j/4g2k/3A3l/8/I7/EL6 b");
        assert_eq!(start.outcome(RuleSet::Draw), None);
        let game = game_after(start, RuleSet::Draw, &["d4xe5"]);
        assert_eq!(
            game.outcome(),
            Some(Outcome::win(Color::Black, Reason::FiveCaptured))
        );
        // The numbers do not wrap around: 11, 12, 1, 2 and 3 are not five in a row.
        let wrap = fields("de5f/7g/7h/4c2i/3A3j/8/I7/EL6 b");
        let game = game_after(wrap, RuleSet::Draw, &["d4xe5"]);
        assert_eq!(game.position().captured(Color::White), 0b1_1000_0000_1110);
        assert_eq!(game.outcome(), None);
    }

    #[test]
    fn a_side_left_without_a_move_loses() {
        // c3-c7 closes the last squares White's lone 5 and 10 could reach.
        let start = fields("7j/8/1DH5/8/8/2L5/8/e7 b");
        assert_eq!(start.outcome(RuleSet::Draw), None);
        let game = game_after(start, RuleSet::Draw, &["c3-c7"]);
        let stuck = *game.position();
        assert_eq!(stuck.to_string(), "7j/2L5/1DH5/8/8/8/8/e7 w");
        assert!(stuck.moves().is_empty());
        assert_eq!(crate::perft::perft(&stuck, 1), 0);
        assert_eq!(
            game.outcome(),
            Some(Outcome::win(Color::Black, Reason::NoMove))
        );
        // There is no pass.
        assert!(stuck.parse_move("pass").is_err());
        assert!(matches!(
            FieldsPosition::start().parse_move("pass"),
            Err(MoveError::PassNotAllowed { .. })
        ));
    }

    #[test]
    fn the_third_occurrence_is_a_draw() {
        let start = fields("dh5L/8/8/8/8/8/8/1DH4l b");
        assert_third_occurrence_draws(start, &["b1-b2", "a8-a7", "b2-b1", "a7-a8"]);
    }

    #[test]
    fn bad_position_texts_say_what_is_wrong() {
        let err = |text: &str| text.parse::<FieldsPosition>().unwrap_err().to_string();
        assert!(err("HGFE4/4LKJI/DCBA4/8/8/4abcd/ijkl4/4efgh").contains("side"));
        assert!(err("HGFE4/4LKJI/DCBA4/8/8/4abcd/ijkl4/4efgM b").contains("'M'"));
        assert!(err("HGFE4/4LKJI/DCBA4/8/8/4abcd/ijkl4/4efgA b").contains("Black's 1"));
    }
}
