//! AmbiLOA: each side has two kinds of piece, Black's `B` and `b`, White's `W` and `w`,
//! moved in strict rotation `B`, `W`, `b`, `w`. Every piece counts on a line; a side's two
//! kinds are friendly to each other (jumped over, never captured). A kind with no legal
//! move loses its turn (`pass`). A side wins with all its pieces, of both kinds, in one
//! group, judged for both sides after every move as in the standard game. In the
//! partnership game each kind is a seat of its own: four players, `B`+`b` against `W`+`w`.

use super::turn::match_turn;
use crate::movegen::piece_targets;
use crate::position::judge;
use crate::text::{draw_diagram, no_more, read_placement, write_placement};
use crate::{
    excerpt, zobrist, Bitboard, BoardSize, Color, GameState, Move, MoveError, MoveList, Outcome,
    Piece, PositionTextError, RuleSet, Seat, SetupError, Square, Variant,
};
use std::fmt;
use std::str::FromStr;

/// The letters of the kinds, in the order they move.
const LETTERS: [char; 4] = ['B', 'W', 'b', 'w'];

/// An AmbiLOA position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AmbiPosition {
    /// The pieces of each kind, in the order they move: `B`, `W`, `b`, `w`.
    kinds: [Bitboard; 4],
    board: Bitboard,
    /// The kind due to move, 0 to 3.
    due: u8,
    size: BoardSize,
    hash: u64,
}

/// The side a kind belongs to.
#[inline]
const fn side_of(kind: usize) -> Color {
    if kind.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

/// The Zobrist key of a piece of `kind` on `sq`.
#[inline]
fn key(kind: usize, sq: Square) -> u64 {
    if kind < 2 {
        zobrist::piece_key(side_of(kind), sq)
    } else {
        zobrist::second_kind_key(side_of(kind), sq)
    }
}

impl AmbiPosition {
    /// The start: `1bbbbbb1/w6W/w6W/w6W/w6W/w6W/w6W/1BBBBBB1 B`.
    pub fn start() -> AmbiPosition {
        "1bbbbbb1/w6W/w6W/w6W/w6W/w6W/w6W/1BBBBBB1 B"
            .parse()
            .expect("the start is valid")
    }

    /// A position from the pieces of each kind (`B`, `W`, `b`, `w`) and the kind due.
    pub fn from_kinds(
        kinds: [Bitboard; 4],
        due: usize,
        size: BoardSize,
    ) -> Result<AmbiPosition, SetupError> {
        let mut all = Bitboard::EMPTY;
        for set in kinds {
            if let Some(sq) = (all & set).first() {
                return Err(SetupError::Overlap(sq));
            }
            all |= set;
        }
        if let Some(square) = (all & !size.mask()).first() {
            return Err(SetupError::OffBoard { square, size });
        }
        let mut pos = AmbiPosition {
            kinds,
            board: size.mask(),
            due: (due % 4) as u8,
            size,
            hash: 0,
        };
        for color in Color::ALL {
            if pos.team(color).is_empty() {
                return Err(SetupError::NoPieces(color));
            }
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    fn compute_hash(&self) -> u64 {
        let mut hash = zobrist::kind_due_key(self.due as usize)
            ^ zobrist::variant_key(Variant::AmbiLoa.index());
        for (kind, set) in self.kinds.iter().enumerate() {
            for sq in *set {
                hash ^= key(kind, sq);
            }
        }
        hash
    }

    /// All the pieces of a side, of both kinds.
    #[inline]
    pub fn team(&self, color: Color) -> Bitboard {
        self.kinds[color.index()] | self.kinds[color.index() + 2]
    }

    /// The pieces of a kind: 0 to 3 for `B`, `W`, `b`, `w`.
    #[inline]
    pub fn kind(&self, kind: usize) -> Bitboard {
        self.kinds[kind]
    }

    /// The letter of a seat's kind, as people name the seats of the partnership game:
    /// `B`, `W`, `b` or `w`.
    pub fn seat_letter(seat: Seat) -> char {
        LETTERS[usize::from(seat.index.min(1)) * 2 + usize::from(seat.side == Color::White)]
    }

    /// The seat whose kind's letter is `name`.
    pub fn seat_named(name: &str) -> Option<Seat> {
        let kind = LETTERS.iter().position(|l| l.to_string() == name)?;
        Some(Seat {
            side: side_of(kind),
            index: u8::from(kind >= 2),
        })
    }

    /// The kind due to move, 0 to 3 for `B`, `W`, `b`, `w`.
    #[inline]
    pub fn due(&self) -> usize {
        self.due as usize
    }

    /// The squares of the board.
    #[inline]
    pub fn board(&self) -> Bitboard {
        self.board
    }

    /// The landing squares of the piece on `from`, one of `color`'s.
    #[inline]
    fn targets(&self, color: Color, from: Square) -> Bitboard {
        let (own, them) = (self.team(color), self.team(!color));
        Bitboard(piece_targets(from, (own | them).0, them.0)) & self.board & !own
    }

    /// Fills `moves` with the legal moves of the kind due, or a lone pass (a lost turn).
    pub fn generate_moves(&self, moves: &mut MoveList) {
        moves.clear();
        let due = self.due();
        let us = side_of(due);
        let them = self.team(!us);
        for from in self.kinds[due] {
            for to in self.targets(us, from) {
                moves.push(Move::new(from, to, them.contains(to)));
            }
        }
        if moves.is_empty() {
            moves.push(Move::PASS);
        }
    }

    /// Calls `f(from, targets)` for each piece of `color` (both kinds) that has a move,
    /// as if it were to move (for mobility).
    pub fn for_each_move_set(&self, color: Color, mut f: impl FnMut(Square, Bitboard)) {
        for from in self.team(color) {
            let targets = self.targets(color, from);
            if targets.any() {
                f(from, targets);
            }
        }
    }

    /// Why the move `from`-`to` cannot be played.
    fn why_illegal(&self, from: Square, to: Square) -> String {
        let due = self.due();
        match (0..4).find(|&k| self.kinds[k].contains(from)) {
            None => format!("{from} is empty"),
            Some(kind) if kind != due => format!(
                "the piece on {from} is a '{}', but a '{}' moves now",
                LETTERS[kind], LETTERS[due]
            ),
            Some(_) if self.team(side_of(due)).contains(to) => {
                format!("{to} holds a piece of the mover's own side")
            }
            Some(_) => format!(
                "the line from {from} towards {to} does not hold that many pieces, or an \
                 enemy piece is in the way"
            ),
        }
    }
}

impl GameState for AmbiPosition {
    fn variant(&self) -> Variant {
        Variant::AmbiLoa
    }

    fn size(&self) -> BoardSize {
        self.size
    }

    #[inline]
    fn side_to_move(&self) -> Color {
        side_of(self.due())
    }

    fn seat_to_move(&self) -> Seat {
        Seat {
            side: self.side_to_move(),
            index: self.due / 2,
        }
    }

    #[inline]
    fn key(&self) -> u64 {
        self.hash
    }

    fn piece_at(&self, square: Square) -> Option<Piece> {
        (0..4)
            .find(|&k| self.kinds[k].contains(square))
            .map(|k| Piece {
                color: side_of(k),
                seat: (k / 2) as u8,
                number: None,
            })
    }

    fn pieces(&self, color: Color) -> Bitboard {
        self.team(color)
    }

    fn for_each_move(&self, f: impl FnMut(Move)) {
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves.iter().copied().for_each(f);
    }

    fn play(&mut self, mv: Move) {
        let due = self.due();
        if !mv.is_pass() {
            let (from, to) = (mv.from(), mv.to());
            self.kinds[due] ^= Bitboard::from_square(from).with(to);
            self.hash ^= key(due, from) ^ key(due, to);
            if mv.is_capture() {
                let enemy = (due + 1) % 2;
                for kind in [enemy, enemy + 2] {
                    if self.kinds[kind].contains(to) {
                        self.kinds[kind] = self.kinds[kind].without(to);
                        self.hash ^= key(kind, to);
                    }
                }
            }
        }
        let next = (due + 1) % 4;
        self.hash ^= zobrist::kind_due_key(due) ^ zobrist::kind_due_key(next);
        self.due = next as u8;
    }

    fn outcome(&self, rules: RuleSet) -> Option<Outcome> {
        // The side of the kind that moved last.
        let mover = side_of((self.due() + 3) % 4);
        judge(
            mover,
            self.team(mover).is_connected(),
            self.team(!mover).is_connected(),
            rules,
        )
    }

    fn outcome_after(&self, _mv: Move, rules: RuleSet) -> Option<Outcome> {
        self.outcome(rules)
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
        draw_diagram(self.size, marked, |sq| {
            (0..4)
                .find(|&k| self.kinds[k].contains(sq))
                .map(|k| LETTERS[k])
        })
    }
}

/// The placement with `B`, `W`, `b`, `w`, then the letter of the kind due.
impl FromStr for AmbiPosition {
    type Err = PositionTextError;

    fn from_str(text: &str) -> Result<AmbiPosition, PositionTextError> {
        let mut fields = text.split_whitespace();
        let placement = fields.next().ok_or(PositionTextError::Empty)?;
        let due = match fields.next() {
            None => {
                return Err(PositionTextError::MissingField(
                    "the kind due (B, W, b or w)",
                ))
            }
            Some(field) => LETTERS
                .iter()
                .position(|l| field.len() == 1 && field.starts_with(*l))
                .ok_or_else(|| PositionTextError::BadField {
                    field: "the kind due",
                    text: excerpt(field).into_owned(),
                    expected: "B, W, b or w",
                })?,
        };
        no_more(&mut fields)?;
        let (size, squares) = read_placement(placement, "B, W, b, w", |ch| {
            LETTERS.iter().position(|&l| l == ch)
        })?;
        super::check_board(Variant::AmbiLoa, size)?;
        let mut kinds = [Bitboard::EMPTY; 4];
        for (sq, kind) in squares {
            kinds[kind] = kinds[kind].with(sq);
        }
        Ok(AmbiPosition::from_kinds(kinds, due, size)?)
    }
}

impl fmt::Display for AmbiPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_placement(f, self.size, |sq| {
            (0..4)
                .find(|&k| self.kinds[k].contains(sq))
                .map(|k| LETTERS[k])
        })?;
        write!(f, " {}", LETTERS[self.due()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::test_support::{
        assert_third_occurrence_draws, game_after, move_names, names, pos,
    };
    use crate::Reason;

    fn ambi(text: &str) -> AmbiPosition {
        pos(text)
    }

    #[test]
    fn seats_are_named_by_the_letters_of_their_kinds() {
        let mut position = AmbiPosition::start();
        for letter in LETTERS {
            let seat = position.seat_to_move();
            assert_eq!(AmbiPosition::seat_letter(seat), letter);
            assert_eq!(AmbiPosition::seat_named(&letter.to_string()), Some(seat));
            position = position.after(position.moves()[0]);
        }
        assert_eq!(AmbiPosition::seat_named("x"), None);
        assert_eq!(AmbiPosition::seat_named("BB"), None);
    }

    #[test]
    fn the_kinds_move_in_rotation_and_a_kind_without_a_move_loses_its_turn() {
        // Black has only `B` pieces, White only `W`: the `b` and `w` turns are lost.
        let start = ambi("8/W6B/8/8/8/8/6W1/1B6 B");
        let game = game_after(start, RuleSet::Draw, &["b1-c1", "a7-a6"]);
        let pos = *game.position();
        assert_eq!(pos.to_string(), "8/7B/W7/8/8/8/6W1/2B5 b");
        assert_eq!(
            pos.seat_to_move(),
            Seat {
                side: Color::Black,
                index: 1
            }
        );
        assert_eq!(pos.moves(), vec![Move::PASS]);
        assert!(matches!(
            pos.parse_move("c1-b1"),
            Err(MoveError::Illegal { .. })
        ));
        let game = game_after(start, RuleSet::Draw, &["b1-c1", "a7-a6", "pass", "pass"]);
        assert_eq!(game.position().to_string(), "8/7B/W7/8/8/8/6W1/2B5 B");
        assert!(move_names(game.position()).contains("c1-b1"));
        assert!(matches!(
            game.position().parse_move("pass"),
            Err(MoveError::PassNotAllowed { .. })
        ));
    }

    #[test]
    fn the_start_moves_b_then_w_then_b_then_w() {
        let start = AmbiPosition::start();
        let seats: Vec<(Color, u8)> = {
            let mut game = game_after(start, RuleSet::Draw, &[]);
            let mut seats = Vec::new();
            for text in ["b1-b3", "h2-f2", "b8-b6", "a2-c2", "g1-g3"] {
                let seat = game.position().seat_to_move();
                seats.push((seat.side, seat.index));
                game.play_text(text).unwrap();
            }
            seats
        };
        assert_eq!(
            seats,
            [
                (Color::Black, 0),
                (Color::White, 0),
                (Color::Black, 1),
                (Color::White, 1),
                (Color::Black, 0)
            ]
        );
        // A piece of another kind than the one due does not move.
        let err = start.parse_move("b8-b6").unwrap_err().to_string();
        assert!(err.contains("is a 'b', but a 'B' moves now"), "{err}");
    }

    #[test]
    fn a_sides_own_pieces_are_jumped_and_never_captured() {
        // B on d1 jumps its partner b on e1: three pieces on rank 1.
        let jump = ambi("b7/8/8/8/8/8/8/3Bb2W B");
        assert_eq!(
            move_names(&jump),
            names(&["d1-g1", "d1-a1", "d1-d2", "d1-c2", "d1-e2"])
        );
        // Two pieces on rank 1: c1 cannot land on its partner's e1.
        let partner = ambi("b6W/8/8/8/8/8/8/2B1b3 B");
        assert!(!move_names(&partner).contains("c1-e1"));
        assert!(move_names(&partner).contains("c1-a1"));
        // An enemy piece cannot be jumped.
        let enemy = ambi("b6W/8/8/8/8/8/8/2BW4 B");
        assert!(!move_names(&enemy).contains("c1-e1"));
        assert!(move_names(&enemy).contains("c1-a1"));
    }

    #[test]
    fn a_side_wins_with_both_kinds_in_one_group() {
        // Black's `B` pieces a1 and b1 touch; its `b` on d2 does not, so no one has won.
        let start = ambi("7W/8/8/7w/8/8/3b4/BB6 b");
        assert_eq!(start.outcome(RuleSet::Draw), None);
        assert_eq!(
            start.seat_to_move(),
            Seat {
                side: Color::Black,
                index: 1
            }
        );
        // The second seat's move joins them: the partnership wins.
        let game = game_after(start, RuleSet::Draw, &["d2-c2"]);
        assert_eq!(
            game.outcome(),
            Some(Outcome::win(Color::Black, Reason::Connection))
        );
    }

    #[test]
    fn a_simultaneous_connection_follows_the_rule_set() {
        // W d7 takes Black's lone `b` on d4 and lands next to w e5: both sides joined.
        let start = ambi("8/3W4/8/4w3/3b4/8/8/2BB4 W");
        let draw = game_after(start, RuleSet::Draw, &["d7xd4"]);
        assert_eq!(
            draw.outcome(),
            Some(Outcome::draw(Reason::SimultaneousConnection))
        );
        let mover = game_after(start, RuleSet::MoverWins, &["d7xd4"]);
        assert_eq!(
            mover.outcome(),
            Some(Outcome::win(Color::White, Reason::SimultaneousConnection))
        );
    }

    #[test]
    fn the_third_occurrence_is_a_draw() {
        let start = ambi("8/W6B/8/8/8/8/6W1/1B6 B");
        assert_third_occurrence_draws(
            start,
            &[
                "b1-c1", "a7-a6", "pass", "pass", "c1-b1", "a6-a7", "pass", "pass",
            ],
        );
    }

    #[test]
    fn bad_position_texts_say_what_is_wrong() {
        let err = |text: &str| text.parse::<AmbiPosition>().unwrap_err().to_string();
        assert!(err("1bbbbbb1/w6W/w6W/w6W/w6W/w6W/w6W/1BBBBBB1").contains("kind due"));
        assert!(err("1bbbbbb1/w6W/w6W/w6W/w6W/w6W/w6W/1BBBBBB1 x").contains("B, W, b or w"));
        assert!(err("1bbbbbb1/w6W/w6W/w6W/w6W/w6W/w6W/1BBBBBX1 B").contains("'X'"));
        assert!(err("8/8/8/8/8/8/8/1BBBBBB1 B").contains("White"));
    }
}
