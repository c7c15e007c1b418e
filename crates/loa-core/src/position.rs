use crate::zobrist::{self, WHITE_TO_MOVE};
use crate::{Bitboard, BoardSize, Color, Move, Outcome, Reason, RuleSet, Square};

/// A position of the standard rules on a 6x6, 7x7 or 8x8 board: where the pieces are
/// and who is to move. Copying it is cheap; search and perft copy-make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pieces: [Bitboard; 2],
    /// The squares of the board; everything outside is off the board.
    board: Bitboard,
    side: Color,
    size: BoardSize,
    hash: u64,
}

/// Why a set of pieces cannot make a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("{0} has no piece: a position needs at least one piece of each colour")]
    NoPieces(Color),
    #[error("{0} is occupied by both colours")]
    Overlap(Square),
    #[error("{square} is off the {size} board")]
    OffBoard { square: Square, size: BoardSize },
}

impl Position {
    /// The standard starting position on the 8x8 board.
    pub fn startpos() -> Position {
        crate::Variant::Standard
            .standard_start(BoardSize::Eight)
            .expect("the standard game is played on 8x8")
    }

    /// A position from its pieces, checked: both colours present, no square twice, all on
    /// the board.
    pub fn from_parts(
        black: Bitboard,
        white: Bitboard,
        side: Color,
        size: BoardSize,
    ) -> Result<Position, SetupError> {
        let pos = Position::with_pieces(black, white, side, size)?;
        for color in Color::ALL {
            if pos.pieces(color).is_empty() {
                return Err(SetupError::NoPieces(color));
            }
        }
        Ok(pos)
    }

    /// A position from pieces that lie on the board and overlap nowhere, where a side may
    /// have no piece (Parachute: its pieces are all in reserve).
    pub(crate) fn with_pieces(
        black: Bitboard,
        white: Bitboard,
        side: Color,
        size: BoardSize,
    ) -> Result<Position, SetupError> {
        if let Some(sq) = (black & white).first() {
            return Err(SetupError::Overlap(sq));
        }
        if let Some(square) = ((black | white) & !size.mask()).first() {
            return Err(SetupError::OffBoard { square, size });
        }
        let mut pos = Position {
            pieces: [black, white],
            board: size.mask(),
            side,
            size,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// Puts a piece of `color` on the empty square `sq` (Parachute's placement).
    pub(crate) fn put(&mut self, color: Color, sq: Square) {
        debug_assert!(!self.occupied().contains(sq));
        self.pieces[color.index()] = self.pieces[color.index()].with(sq);
        self.hash ^= zobrist::piece_key(color, sq);
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The squares of the board.
    #[inline]
    pub fn board(&self) -> Bitboard {
        self.board
    }

    #[inline]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.pieces[color.index()]
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.pieces[0] | self.pieces[1]
    }

    /// The colour of the piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|&c| self.pieces(c).contains(sq))
    }

    /// The Zobrist hash, kept up to date move by move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist hash computed from scratch.
    pub fn compute_hash(&self) -> u64 {
        let mut hash = if self.side == Color::White {
            WHITE_TO_MOVE
        } else {
            0
        };
        for color in Color::ALL {
            for sq in self.pieces(color) {
                hash ^= zobrist::piece_key(color, sq);
            }
        }
        hash
    }

    /// Plays a move produced by this position's move generation (or checked by
    /// [`Position::parse_move`]); the move is not checked again here.
    #[inline]
    pub fn play(&mut self, mv: Move) {
        *self = self.after(mv);
    }

    /// The position after `mv`. Built whole from values rather than changed field by
    /// field in a copy: narrow stores followed by a wide copy of the same bytes stall
    /// the processor's store forwarding, which the solver, making every child, felt.
    #[inline]
    pub fn after(&self, mv: Move) -> Position {
        let us = self.side;
        let mut ours = self.pieces[us.index()].0;
        let mut theirs = self.pieces[(!us).index()].0;
        let mut hash = self.hash ^ WHITE_TO_MOVE;
        if !mv.is_pass() {
            let (from, to) = (mv.from(), mv.to());
            ours ^= from.bit() | to.bit();
            hash ^= zobrist::piece_key(us, from) ^ zobrist::piece_key(us, to);
            if mv.is_capture() {
                theirs ^= to.bit();
                hash ^= zobrist::piece_key(!us, to);
            }
        }
        let pieces = match us {
            Color::Black => [Bitboard(ours), Bitboard(theirs)],
            Color::White => [Bitboard(theirs), Bitboard(ours)],
        };
        Position {
            pieces,
            board: self.board,
            side: !us,
            size: self.size,
            hash,
        }
    }

    /// Whether `color`'s pieces form one 8-connected group.
    #[inline]
    pub fn is_connected(&self, color: Color) -> bool {
        self.pieces(color).is_connected()
    }

    /// The end of the game by connection, judged as after a move by the side not to move.
    /// Repetition is a matter of the game's history and is judged by [`crate::Game`].
    pub fn outcome(&self, rules: RuleSet) -> Option<Outcome> {
        let mover = !self.side;
        judge(
            mover,
            self.is_connected(mover),
            self.is_connected(self.side),
            rules,
        )
    }

    /// The end of the game after `mv`, played into this position from one where the game
    /// went on. Only the pieces the move changed can have become connected: the mover's
    /// (unless it passed), and the opponent's after a capture.
    #[inline]
    pub fn outcome_after(&self, mv: Move, rules: RuleSet) -> Option<Outcome> {
        let mover = !self.side;
        judge(
            mover,
            !mv.is_pass() && self.is_connected(mover),
            mv.is_capture() && self.is_connected(self.side),
            rules,
        )
    }
}

/// Rule 7: who wins when the mover, the opponent or both are connected.
#[inline]
pub(crate) fn judge(
    mover: Color,
    mover_connected: bool,
    opponent_connected: bool,
    rules: RuleSet,
) -> Option<Outcome> {
    match (mover_connected, opponent_connected) {
        (false, false) => None,
        (true, false) => Some(Outcome::win(mover, Reason::Connection)),
        (false, true) => Some(Outcome::win(!mover, Reason::Connection)),
        (true, true) => Some(match rules {
            RuleSet::Draw => Outcome::draw(Reason::SimultaneousConnection),
            RuleSet::MoverWins => Outcome::win(mover, Reason::SimultaneousConnection),
        }),
    }
}
