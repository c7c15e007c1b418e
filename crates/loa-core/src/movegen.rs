//! Move generation: a piece moves along one of its four lines exactly as many squares as
//! the line holds pieces, over friendly pieces but not enemy ones, onto an empty square or
//! an enemy piece.

use crate::{Bitboard, Color, Move, MoveList, Position, Square};

/// Square steps of the eight directions, paired by line: N/S (file), E/W (rank),
/// NE/SW (diagonal), NW/SE (anti-diagonal).
const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (-1, -1),
    (-1, 1),
    (1, -1),
];

/// The squares a move of `distance` in one direction lands on and passes over.
#[derive(Clone, Copy)]
struct Step {
    /// The landing square as a bitboard; empty when it is off the 8x8 grid.
    target: u64,
    /// The squares strictly between the start and the landing square.
    between: u64,
}

struct Tables {
    /// `lines[sq][l]`: every square of line `l` through `sq`, `sq` included.
    lines: [[u64; 4]; 64],
    /// `steps[sq][dir][distance]`, distance 0 to 8 (a full line sends every piece off the grid).
    steps: [[[Step; 9]; 8]; 64],
}

const fn build_tables() -> Tables {
    let mut lines = [[0u64; 4]; 64];
    let mut steps = [[[Step {
        target: 0,
        between: 0,
    }; 9]; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut dir = 0;
        while dir < 8 {
            let (df, dr) = DIRECTIONS[dir];
            let mut between = 0u64;
            let mut distance = 1;
            while distance < 8 {
                let (f, r) = (file + df * distance as i8, rank + dr * distance as i8);
                if f < 0 || f > 7 || r < 0 || r > 7 {
                    break;
                }
                let bit = 1u64 << (r * 8 + f);
                steps[sq][dir][distance] = Step {
                    target: bit,
                    between,
                };
                lines[sq][dir / 2] |= bit;
                between |= bit;
                distance += 1;
            }
            dir += 1;
        }
        let mut line = 0;
        while line < 4 {
            lines[sq][line] |= 1u64 << sq;
            line += 1;
        }
        sq += 1;
    }
    Tables { lines, steps }
}

static TABLES: Tables = build_tables();

/// The squares the piece on `from` can reach by line count without jumping an enemy
/// piece, before own pieces and the board's edge are taken off.
#[inline(always)]
pub(crate) fn piece_targets(from: Square, occupied: u64, them: u64) -> u64 {
    let lines = &TABLES.lines[from.index()];
    let steps = &TABLES.steps[from.index()];
    let mut targets = 0u64;
    for (line, &mask) in lines.iter().enumerate() {
        let distance = (occupied & mask).count_ones() as usize;
        for dir in [2 * line, 2 * line + 1] {
            let step = steps[dir][distance];
            let clear = step.between & them == 0;
            targets |= step.target & (clear as u64).wrapping_neg();
        }
    }
    targets
}

/// The squares exactly `distance` steps from `from` along each of the eight queen
/// directions, leaping whatever lies between (Neighbors, Fields of Action); before the
/// board's edge and own pieces are taken off.
#[inline]
pub(crate) fn leap_targets(from: Square, distance: u32) -> u64 {
    if distance == 0 || distance > 8 {
        return 0;
    }
    TABLES.steps[from.index()].iter().fold(0, |targets, steps| {
        targets | steps[distance as usize].target
    })
}

/// Every square on the four lines through `from`, `from` itself excluded.
#[inline]
pub(crate) fn queen_lines(from: Square) -> u64 {
    TABLES.lines[from.index()]
        .iter()
        .fold(0, |all, &line| all | line)
        & !from.bit()
}

impl Position {
    /// Calls `f(from, targets)` for each piece of `color` that has a move, with the set of
    /// its landing squares, as if `color` were to move (evaluation counts both sides'
    /// mobility).
    #[inline(always)]
    pub fn for_each_move_set(&self, color: Color, mut f: impl FnMut(Square, Bitboard)) {
        self.for_each_piece_targets_of(color, |from, targets| f(from, Bitboard(targets)));
    }

    #[inline(always)]
    fn for_each_piece_targets(&self, f: impl FnMut(Square, u64)) {
        self.for_each_piece_targets_of(self.side_to_move(), f);
    }

    #[inline(always)]
    fn for_each_piece_targets_of(&self, color: Color, mut f: impl FnMut(Square, u64)) {
        let us = self.pieces(color).0;
        let them = self.pieces(!color).0;
        let open = self.board().0 & !us;
        for from in Bitboard(us) {
            let targets = piece_targets(from, us | them, them) & open;
            if targets != 0 {
                f(from, targets);
            }
        }
    }

    /// The legal moves of the side to move, or a lone pass when it has none.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves
    }

    /// Fills `moves` with the legal moves, or a lone pass when there are none.
    #[inline]
    pub fn generate_moves(&self, moves: &mut MoveList) {
        moves.clear();
        let them = self.pieces(!self.side_to_move()).0;
        self.for_each_piece_targets(|from, targets| {
            for to in Bitboard(targets) {
                moves.push(Move::new(from, to, them & to.bit() != 0));
            }
        });
        if moves.is_empty() {
            moves.push(Move::PASS);
        }
    }

    /// The number of legal moves, counting a forced pass as one.
    #[inline]
    pub fn count_moves(&self) -> u64 {
        let mut count = 0u64;
        self.for_each_piece_targets(|_, targets| count += u64::from(targets.count_ones()));
        count.max(1)
    }

    /// Whether the side to move has no legal move and must pass.
    pub fn must_pass(&self) -> bool {
        let mut any = false;
        self.for_each_piece_targets(|_, _| any = true);
        !any
    }

    /// The landing squares of the piece on `from`, if it belongs to the side to move.
    pub fn targets_from(&self, from: Square) -> Bitboard {
        let us = self.pieces(self.side_to_move()).0;
        if us & from.bit() == 0 {
            return Bitboard::EMPTY;
        }
        let them = self.pieces(!self.side_to_move()).0;
        Bitboard(piece_targets(from, us | them, them) & self.board().0 & !us)
    }

    /// Whether `mv` is legal here (a pass only when there is no other move).
    pub fn is_legal(&self, mv: Move) -> bool {
        if mv.drop().is_some() {
            return false;
        }
        if mv.is_pass() {
            return self.must_pass();
        }
        let them = self.pieces(!self.side_to_move());
        self.pieces(self.side_to_move()).contains(mv.from())
            && self.targets_from(mv.from()).contains(mv.to())
            && them.contains(mv.to()) == mv.is_capture()
    }
}
