//! Parachute: six pieces each on the board and six each in reserve. A turn is a normal
//! move (or a forced pass) and then, while the opponent has pieces in reserve, the
//! placement of one of them on any empty square: `a6-c6@e5`, `pass@d4`. The end is
//! judged after the whole turn, and a side with pieces in reserve is not connected.

use super::turn::match_turn;
use crate::position::judge;
use crate::{
    excerpt, zobrist, Bitboard, BoardSize, Color, GameState, Move, MoveError, Outcome, Piece,
    Position, PositionTextError, RuleSet, SetupError, Square, Variant,
};
use std::fmt;
use std::str::FromStr;

/// The most pieces a side has, on the board and in reserve together (so a reserve holds
/// at most this many).
pub const MAX_PIECES: u8 = 12;

/// A Parachute position: the board, the side to move and each side's reserve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParachutePosition {
    board: Position,
    reserves: [u8; 2],
}

impl ParachutePosition {
    /// The start: `8/w6b/b6w/w6b/b6w/w6b/b6w/8 b 6 6`.
    pub fn start() -> ParachutePosition {
        "8/w6b/b6w/w6b/b6w/w6b/b6w/8 b 6 6"
            .parse()
            .expect("the start is valid")
    }

    /// The pieces on the board and the side to move.
    pub fn board(&self) -> &Position {
        &self.board
    }

    /// The pieces `color` has in reserve.
    pub fn reserve(&self, color: Color) -> u8 {
        self.reserves[color.index()]
    }

    /// Whether a turn now ends with a placement: the opponent has a piece in reserve.
    pub fn drop_due(&self) -> bool {
        self.reserve(!self.board.side_to_move()) > 0
    }

    /// The empty squares after the base move `mv`: where its placement may go.
    pub fn drop_squares(&self, mv: Move) -> Bitboard {
        self.board.board() & !self.board.after(mv).occupied()
    }

    /// Whether `color` is connected: no piece in reserve and its pieces in one group.
    fn connected(&self, color: Color) -> bool {
        let pieces = self.board.pieces(color);
        self.reserve(color) == 0 && pieces.any() && pieces.is_connected()
    }
}

impl GameState for ParachutePosition {
    fn variant(&self) -> Variant {
        Variant::Parachute
    }

    fn size(&self) -> BoardSize {
        self.board.size()
    }

    fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }

    fn key(&self) -> u64 {
        self.board.hash()
            ^ zobrist::reserve_key(Color::Black, self.reserves[0])
            ^ zobrist::reserve_key(Color::White, self.reserves[1])
            ^ zobrist::variant_key(Variant::Parachute.index())
    }

    fn piece_at(&self, square: Square) -> Option<Piece> {
        GameState::piece_at(&self.board, square)
    }

    fn pieces(&self, color: Color) -> Bitboard {
        self.board.pieces(color)
    }

    /// Every whole turn: each move (or the forced pass) with each placement when one is
    /// due.
    fn for_each_move(&self, mut f: impl FnMut(Move)) {
        let drop_due = self.drop_due();
        for &mv in self.board.legal_moves().iter() {
            if drop_due {
                for square in self.drop_squares(mv) {
                    f(mv.with_drop(square));
                }
            } else {
                f(mv);
            }
        }
    }

    fn count_moves(&self) -> u64 {
        if !self.drop_due() {
            return self.board.count_moves();
        }
        self.board
            .legal_moves()
            .iter()
            .map(|&mv| u64::from(self.drop_squares(mv).count()))
            .sum()
    }

    fn is_legal(&self, mv: Move) -> bool {
        let base = mv.without_drop();
        if !self.board.is_legal(base) {
            return false;
        }
        match (mv.drop(), self.drop_due()) {
            (None, false) => true,
            (Some(square), true) => self.drop_squares(base).contains(square),
            _ => false,
        }
    }

    fn play(&mut self, mv: Move) {
        self.board.play(mv.without_drop());
        if let Some(square) = mv.drop() {
            // After the move it is the opponent's turn: the piece placed is theirs.
            let owner = self.board.side_to_move();
            self.board.put(owner, square);
            self.reserves[owner.index()] -= 1;
        }
    }

    fn outcome(&self, rules: RuleSet) -> Option<Outcome> {
        let mover = !self.board.side_to_move();
        judge(mover, self.connected(mover), self.connected(!mover), rules)
    }

    fn outcome_after(&self, _mv: Move, rules: RuleSet) -> Option<Outcome> {
        self.outcome(rules)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let us = self.board.side_to_move();
        let trimmed = text.trim();
        if trimmed.contains('@') && !self.drop_due() {
            return Err(MoveError::DropNotAllowed {
                text: excerpt(trimmed).into_owned(),
                side: !us,
            });
        }
        // Read the move against the board alone first, for its reasons.
        let step = trimmed.split_once('@').map_or(trimmed, |(step, _)| step);
        let base = self.board.parse_move(step)?;
        // At most 24 pieces leave an empty square for the example.
        let example = self.drop_due().then(|| {
            let square = self.drop_squares(base).first().expect("an empty square");
            base.with_drop(square).to_string()
        });
        match_turn(
            trimmed,
            &self.moves(),
            |_, _| "it is not a legal move here".to_string(),
            example,
        )
    }

    fn diagram(&self, marked: Bitboard) -> String {
        let mut text = self.board.diagram(marked);
        text.push_str(&format!(
            "Reserves: Black {}, White {}\n",
            self.reserves[0], self.reserves[1]
        ));
        text
    }
}

/// The placement with `b` and `w`, the side to move, then Black's and White's reserves.
impl FromStr for ParachutePosition {
    type Err = PositionTextError;

    fn from_str(text: &str) -> Result<ParachutePosition, PositionTextError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let Some(placement_and_side) = fields.get(..2) else {
            return match fields.len() {
                0 => Err(PositionTextError::Empty),
                _ => Err(PositionTextError::MissingSide),
            };
        };
        let reserve = |i: usize, name: &'static str| -> Result<u8, PositionTextError> {
            let field = fields.get(i).ok_or(PositionTextError::MissingField(name))?;
            field
                .parse::<u8>()
                .ok()
                .filter(|&n| n <= MAX_PIECES)
                .ok_or_else(|| PositionTextError::BadField {
                    field: name,
                    text: excerpt(field).into_owned(),
                    expected: "a number of pieces from 0 to 12",
                })
        };
        let reserves = [
            reserve(2, "Black's reserve")?,
            reserve(3, "White's reserve")?,
        ];
        if let Some(extra) = fields.get(4) {
            return Err(PositionTextError::ExtraField(excerpt(extra).into_owned()));
        }
        // The board alone may lack a side: its pieces can all be in reserve.
        let board: Position = match placement_and_side.join(" ").parse() {
            Err(PositionTextError::Setup(SetupError::NoPieces(color)))
                if reserves[color.index()] > 0 =>
            {
                let standard = |c: char| match c {
                    'b' => Some(Color::Black),
                    'w' => Some(Color::White),
                    _ => None,
                };
                let (size, squares) =
                    crate::text::read_placement(placement_and_side[0], "b, w", standard)?;
                let mut pieces = [Bitboard::EMPTY; 2];
                for (sq, c) in squares {
                    pieces[c.index()] = pieces[c.index()].with(sq);
                }
                let side = if placement_and_side[1].eq_ignore_ascii_case("w") {
                    Color::White
                } else {
                    Color::Black
                };
                Position::with_pieces(pieces[0], pieces[1], side, size)?
            }
            other => other?,
        };
        super::check_board(Variant::Parachute, board.size())?;
        for color in Color::ALL {
            let on_board = board.pieces(color).count();
            let reserve = reserves[color.index()];
            if on_board + u32::from(reserve) > u32::from(MAX_PIECES) {
                return Err(PositionTextError::Invalid(format!(
                    "{color} has {on_board} pieces on the board and {reserve} in reserve: \
                     at most {MAX_PIECES} in all"
                )));
            }
        }
        Ok(ParachutePosition { board, reserves })
    }
}

impl fmt::Display for ParachutePosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {}",
            self.board, self.reserves[0], self.reserves[1]
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::test_support::{assert_third_occurrence_draws, game_after, pos};
    use crate::Reason;

    fn para(text: &str) -> ParachutePosition {
        pos(text)
    }

    #[test]
    fn a_turn_is_a_move_and_a_placement_of_the_opponents_reserve() {
        let start = ParachutePosition::start();
        assert_eq!(start.count_moves(), 18 * 52);
        let game = game_after(start, RuleSet::Draw, &["a6-c6@e5"]);
        assert_eq!(
            game.position().to_string(),
            "8/w6b/2b4w/w3w2b/b6w/w6b/b6w/8 w 6 5"
        );
        // The square the piece left is empty after the move, so it may take the placement.
        assert!(start.parse_move("a6-c6@a6").is_ok());
        assert_eq!(start.parse_move("a6c6@e5"), start.parse_move("a6-c6@e5"));
    }

    #[test]
    fn a_turn_without_its_placement_or_onto_a_piece_is_refused() {
        let start = ParachutePosition::start();
        assert!(matches!(
            start.parse_move("a6-c6"),
            Err(MoveError::DropMissing { .. })
        ));
        assert!(matches!(
            start.parse_move("a6-c6@h6"),
            Err(MoveError::DropOccupied { .. })
        ));
        assert!(matches!(
            start.parse_move("pass@d4"),
            Err(MoveError::PassNotAllowed { .. })
        ));
        // Once White's reserve is empty, Black's turns are plain moves.
        let empty = para("8/w6b/b6w/w6b/b6w/w6b/b6w/8 b 6 0");
        assert!(matches!(
            empty.parse_move("a6-c6@e5"),
            Err(MoveError::DropNotAllowed { .. })
        ));
        assert!(empty.parse_move("a6-c6").is_ok());
        assert_eq!(empty.count_moves(), 18);
    }

    #[test]
    fn a_forced_pass_is_followed_by_the_placement() {
        // Black's only piece, a1, is hemmed in by White's a2, b1 and b2.
        let stuck = para("7w/8/8/8/8/8/ww6/bw6 b 1 1");
        let moves = stuck.moves();
        assert_eq!(moves.len(), 64 - 5);
        assert!(moves.iter().all(|m| m.is_pass() && m.drop().is_some()));
        let mv = stuck.parse_move("pass@d4").unwrap();
        assert_eq!(mv.to_string(), "pass@d4");
        assert_eq!(mv.coordinate(), "0000@d4");
        assert!(matches!(
            stuck.parse_move("pass"),
            Err(MoveError::DropMissing { .. })
        ));
        assert_eq!(stuck.after(mv).to_string(), "7w/8/8/8/3w4/8/ww6/bw6 w 1 0");
    }

    #[test]
    fn a_side_with_pieces_in_reserve_is_not_connected() {
        // Black's b2 and c3 form one group; White's a8 and h8 do not.
        let in_reserve = para("w6w/8/8/8/8/2b5/1b6/8 w 1 0");
        assert_eq!(in_reserve.outcome(RuleSet::Draw), None);
        let none_left = para("w6w/8/8/8/8/2b5/1b6/8 w 0 0");
        assert_eq!(
            none_left.outcome(RuleSet::Draw),
            Some(Outcome::win(Color::Black, Reason::Connection))
        );
        // White places Black's last reserve piece: next to the group it connects Black.
        let joined = game_after(in_reserve, RuleSet::Draw, &["a8-a7@d4"]);
        assert_eq!(
            joined.outcome(),
            Some(Outcome::win(Color::Black, Reason::Connection))
        );
        let apart = game_after(in_reserve, RuleSet::Draw, &["a8-a7@f6"]);
        assert_eq!(apart.outcome(), None);
    }

    #[test]
    fn a_placement_far_away_blocks_the_opponents_win() {
        // White's d4 and d5 are one group with one piece in reserve. Black must place it.
        let start = para("7b/8/8/3w4/3w4/8/8/b7 b 0 1");
        let near = game_after(start, RuleSet::Draw, &["a1-b1@e5"]);
        assert_eq!(
            near.outcome(),
            Some(Outcome::win(Color::White, Reason::Connection))
        );
        let far = game_after(start, RuleSet::Draw, &["a1-b1@h1"]);
        assert_eq!(far.outcome(), None);
    }

    #[test]
    fn a_simultaneous_connection_follows_the_rule_set() {
        // a1-a2 joins Black's pieces; placing White's last piece at g8 joins White's.
        let start = para("7w/6w1/8/8/8/1b6/8/b7 b 0 1");
        let draw = game_after(start, RuleSet::Draw, &["a1-a2@g8"]);
        assert_eq!(
            draw.outcome(),
            Some(Outcome::draw(Reason::SimultaneousConnection))
        );
        let mover = game_after(start, RuleSet::MoverWins, &["a1-a2@g8"]);
        assert_eq!(
            mover.outcome(),
            Some(Outcome::win(Color::Black, Reason::SimultaneousConnection))
        );
        let apart = game_after(start, RuleSet::Draw, &["a1-a2@d5"]);
        assert_eq!(
            apart.outcome(),
            Some(Outcome::win(Color::Black, Reason::Connection))
        );
    }

    #[test]
    fn the_third_occurrence_is_a_draw() {
        let start = para("8/w6b/8/8/8/8/6w1/1b6 b 0 0");
        assert_third_occurrence_draws(start, &["b1-c1", "a7-a6", "c1-b1", "a6-a7"]);
    }

    #[test]
    fn bad_position_texts_say_what_is_wrong() {
        let err = |text: &str| text.parse::<ParachutePosition>().unwrap_err().to_string();
        assert!(err("8/w6b/b6w/w6b/b6w/w6b/b6w/8 b").contains("Black's reserve"));
        assert!(err("8/w6b/b6w/w6b/b6w/w6b/b6w/8 b 6").contains("White's reserve"));
        assert!(err("8/w6b/b6w/w6b/b6w/w6b/b6w/8 b 6 13").contains("0 to 12"));
        assert!(err("8/w6b/b6w/w6b/b6w/w6b/b6w/8 b x 6").contains("'x'"));
        assert!(err("8/w6b/b6w/w6b/b6w/w6b/b6w/8 b 6 6 6").contains("'6'"));
        // All of a side's pieces may be in reserve, but not none at all.
        assert!("8/8/8/8/8/8/8/w7 b 6 0"
            .parse::<ParachutePosition>()
            .is_ok());
        assert!(err("8/8/8/8/8/8/8/w7 b 0 0").contains("Black"));
        assert!(err("bbbbbbbb/bbbbb3/8/8/8/8/8/w7 b 0 0").contains("at most 12 in all"));
        // A turn without its placement is shown how to write it with one.
        let missing = ParachutePosition::start().parse_move("a6c6").unwrap_err();
        assert!(missing.to_string().contains("a6-c6@a1"), "{missing}");
    }
}
