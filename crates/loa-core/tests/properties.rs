//! Property tests of the rules crate.
//!
//! The centre piece is a slow, obviously correct reference model written here from the
//! rule book alone: a plain 2-D array of squares (`Option<Color>` each), a move generator
//! that walks each line square by square, a flood fill for connection and a repetition
//! count over the history. The crate's bitboard code is checked against it on random
//! playouts from every start and board size and on random placements, together with the
//! invariants of hashing, undo, position text and move notation, and parsers that must
//! not panic on any input.

mod common;

use common::{mutate, text_edits, Edit};
use loa_core::{
    BoardSize, Color, Game, Move, MoveError, MoveText, Outcome, Position, PositionTextError,
    Reason, RuleSet, SetupError, Square, Variant,
};
use proptest::prelude::*;
use proptest::test_runner::Config;
use std::collections::BTreeSet;

// ---------------------------------------------------------------------------------------
// The reference model
// ---------------------------------------------------------------------------------------

type Cell = Option<Color>;

/// A board as a plain 2-D array: `cells[rank][file]`, rank 0 is rank 1, file 0 is file a.
/// Only the first `n` ranks and files are used; the rest stay empty.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Board {
    n: usize,
    cells: [[Cell; 8]; 8],
    side: Color,
}

/// A move of the reference model; squares are `(file, rank)`, counted from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum RefMove {
    Pass,
    Step {
        from: (u8, u8),
        to: (u8, u8),
        capture: bool,
    },
}

/// The eight directions as (file step, rank step).
const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

impl Board {
    fn inside(&self, f: i32, r: i32) -> bool {
        let n = self.n as i32;
        (0..n).contains(&f) && (0..n).contains(&r)
    }

    /// The square `(f, r)`, which must be on the board.
    fn at(&self, f: i32, r: i32) -> Cell {
        self.cells[r as usize][f as usize]
    }

    fn count(&self, color: Color) -> usize {
        self.cells
            .iter()
            .flatten()
            .filter(|&&c| c == Some(color))
            .count()
    }

    /// Every legal move of the side to move, or a lone pass when there is none.
    fn moves(&self) -> BTreeSet<RefMove> {
        let us = Some(self.side);
        let them = Some(!self.side);
        let n = self.n as i32;
        let mut out = BTreeSet::new();
        for r in 0..n {
            for f in 0..n {
                if self.at(f, r) != us {
                    continue;
                }
                for (df, dr) in DIRS {
                    // The pieces on the whole line: this one, and both ways to the edge.
                    let mut count = 1;
                    for sign in [1, -1] {
                        let (mut x, mut y) = (f + sign * df, r + sign * dr);
                        while self.inside(x, y) {
                            if self.at(x, y).is_some() {
                                count += 1;
                            }
                            x += sign * df;
                            y += sign * dr;
                        }
                    }
                    let (tx, ty) = (f + df * count, r + dr * count);
                    if !self.inside(tx, ty) {
                        continue;
                    }
                    if (1..count).any(|k| self.at(f + df * k, r + dr * k) == them) {
                        continue;
                    }
                    let target = self.at(tx, ty);
                    if target == us {
                        continue;
                    }
                    out.insert(RefMove::Step {
                        from: (f as u8, r as u8),
                        to: (tx as u8, ty as u8),
                        capture: target == them,
                    });
                }
            }
        }
        if out.is_empty() {
            out.insert(RefMove::Pass);
        }
        out
    }

    /// Plays a move mechanically (it is not checked).
    fn play(&mut self, mv: RefMove) {
        if let RefMove::Step { from, to, .. } = mv {
            let piece = self.cells[from.1 as usize][from.0 as usize].take();
            self.cells[to.1 as usize][to.0 as usize] = piece;
        }
        self.side = !self.side;
    }

    /// Whether `color`'s pieces form one 8-connected group (vacuously true for none).
    fn connected(&self, color: Color) -> bool {
        let n = self.n as i32;
        let mut seen = vec![vec![false; self.n]; self.n];
        let mut stack = Vec::new();
        'find: for r in 0..n {
            for f in 0..n {
                if self.at(f, r) == Some(color) {
                    stack.push((f, r));
                    seen[r as usize][f as usize] = true;
                    break 'find;
                }
            }
        }
        let mut reached = 0;
        while let Some((f, r)) = stack.pop() {
            reached += 1;
            for df in -1..=1 {
                for dr in -1..=1 {
                    let (x, y) = (f + df, r + dr);
                    if self.inside(x, y)
                        && !seen[y as usize][x as usize]
                        && self.at(x, y) == Some(color)
                    {
                        seen[y as usize][x as usize] = true;
                        stack.push((x, y));
                    }
                }
            }
        }
        reached == self.count(color)
    }

    /// The board read from a position, square by square.
    fn from_position(pos: &Position) -> Board {
        let n = pos.size() as usize;
        let mut cells = [[None; 8]; 8];
        for (r, row) in cells.iter_mut().enumerate().take(n) {
            for (f, cell) in row.iter_mut().enumerate().take(n) {
                *cell = pos.piece_at(Square::from_coords(f as u8, r as u8));
            }
        }
        let board = Board {
            n,
            cells,
            side: pos.side_to_move(),
        };
        assert_eq!(
            board.count(Color::Black) + board.count(Color::White),
            pos.occupied().count() as usize,
            "a piece off the {n}x{n} board in {pos}"
        );
        board
    }

    /// A minimal reader of well-formed position text, for the fixed start arrays.
    fn from_text(text: &str) -> Board {
        let (placement, side) = text.split_once(' ').unwrap();
        let rows: Vec<&str> = placement.split('/').collect();
        let n = rows.len();
        let mut cells = [[None; 8]; 8];
        for (i, row) in rows.iter().enumerate() {
            let rank = n - 1 - i;
            let mut file = 0;
            for ch in row.chars() {
                match ch {
                    'b' => cells[rank][file] = Some(Color::Black),
                    'w' => cells[rank][file] = Some(Color::White),
                    _ => {
                        file += ch.to_digit(10).unwrap() as usize;
                        continue;
                    }
                }
                file += 1;
            }
            assert_eq!(file, n, "{text}");
        }
        let side = if side == "b" {
            Color::Black
        } else {
            Color::White
        };
        Board { n, cells, side }
    }

    /// Position text written from the array.
    fn text(&self) -> String {
        let mut out = String::new();
        for rank in (0..self.n).rev() {
            let mut empty = 0;
            for file in 0..self.n {
                match self.cells[rank][file] {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(if c == Color::Black { 'b' } else { 'w' });
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(if self.side == Color::Black { 'b' } else { 'w' });
        out
    }
}

/// The result after a move by the side not to move in the last board of `history`
/// (the start first), from the rule book: connection first, then the third repetition.
fn ref_outcome(history: &[Board], rules: RuleSet) -> Option<Outcome> {
    let now = history.last().unwrap();
    let mover = !now.side;
    match (now.connected(mover), now.connected(now.side)) {
        (true, true) => {
            return Some(match rules {
                RuleSet::Draw => Outcome::draw(Reason::SimultaneousConnection),
                RuleSet::MoverWins => Outcome::win(mover, Reason::SimultaneousConnection),
            })
        }
        (true, false) => return Some(Outcome::win(mover, Reason::Connection)),
        (false, true) => return Some(Outcome::win(now.side, Reason::Connection)),
        (false, false) => {}
    }
    let occurrences = history.iter().filter(|b| *b == now).count();
    (occurrences >= 3).then_some(Outcome::draw(Reason::Repetition))
}

fn to_ref(mv: Move) -> RefMove {
    if mv.is_pass() {
        RefMove::Pass
    } else {
        RefMove::Step {
            from: (mv.from().file(), mv.from().rank()),
            to: (mv.to().file(), mv.to().rank()),
            capture: mv.is_capture(),
        }
    }
}

fn from_ref(mv: RefMove) -> Move {
    match mv {
        RefMove::Pass => Move::PASS,
        RefMove::Step { from, to, capture } => Move::new(
            Square::from_coords(from.0, from.1),
            Square::from_coords(to.0, to.1),
            capture,
        ),
    }
}

/// The square name written from coordinates, without the crate's `Display`.
fn name(f: u8, r: u8) -> String {
    format!("{}{}", (b'a' + f) as char, r + 1)
}

// ---------------------------------------------------------------------------------------
// Scenarios: random playouts from the starts and from random placements
// ---------------------------------------------------------------------------------------

/// The start arrays written out: the rule book (docs/rulebook.md) gives the 8x8 ones and
/// says how the smaller standard boards look; the smaller Scrambled Eggs continue the 8x8
/// pattern.
fn start_text(start: Variant, size: BoardSize) -> &'static str {
    match (start, size) {
        (Variant::Standard, BoardSize::Eight) => "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b",
        (Variant::Standard, BoardSize::Seven) => "1bbbbb1/w5w/w5w/w5w/w5w/w5w/1bbbbb1 b",
        (Variant::Standard, BoardSize::Six) => "1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b",
        (Variant::ScrambledEggs, BoardSize::Eight) => "1bwbwbw1/w6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 b",
        (Variant::ScrambledEggs, BoardSize::Seven) => "1bwbwb1/w5b/b5w/w5b/b5w/w5b/1wbwbw1 b",
        (Variant::ScrambledEggs, BoardSize::Six) => "1bwbw1/w4b/b4w/w4b/b4w/1wbwb1 b",
        (other, _) => unreachable!("{other} has rules of its own"),
    }
}

#[derive(Clone, Debug)]
enum Origin {
    Start(Variant, BoardSize),
    /// Arbitrary pieces (at least one of each colour), read by the crate from the text
    /// the model writes.
    Placement(Board),
}

#[derive(Clone, Debug)]
struct Scenario {
    origin: Origin,
    /// One number per ply: the move played is the reference move list's entry
    /// `choice % len` (games are not cut off at their end, as in perft).
    choices: Vec<u32>,
}

/// One ply of a playout: the crate's position and the model's board for it.
struct Ply {
    pos: Position,
    board: Board,
    /// The reference moves of `board`.
    moves: BTreeSet<RefMove>,
}

impl Scenario {
    fn start(&self) -> (Position, Board) {
        match &self.origin {
            Origin::Start(start, size) => {
                let pos = start.standard_start(*size).unwrap();
                let board = Board::from_text(start_text(*start, *size));
                assert_eq!(Board::from_position(&pos), board, "{start} {size}");
                (pos, board)
            }
            Origin::Placement(board) => {
                let pos: Position = board
                    .text()
                    .parse()
                    .unwrap_or_else(|e| panic!("{}: {e}", board.text()));
                (pos, board.clone())
            }
        }
    }

    /// The playout: the start and the position after every ply. Moves are chosen from
    /// the reference generator, and the model plays them on its own board.
    fn line(&self) -> Vec<Ply> {
        let (mut pos, mut board) = self.start();
        let mut line = Vec::with_capacity(self.choices.len() + 1);
        for ply in 0..=self.choices.len() {
            let moves = board.moves();
            line.push(Ply {
                pos,
                board: board.clone(),
                moves: moves.clone(),
            });
            if let Some(&choice) = self.choices.get(ply) {
                let mv = *moves.iter().nth(choice as usize % moves.len()).unwrap();
                board.play(mv);
                pos.play(from_ref(mv));
            }
        }
        line
    }
}

fn arb_size() -> impl Strategy<Value = BoardSize> {
    prop_oneof![
        Just(BoardSize::Six),
        Just(BoardSize::Seven),
        Just(BoardSize::Eight)
    ]
}

fn arb_start() -> impl Strategy<Value = Origin> {
    (
        prop_oneof![Just(Variant::Standard), Just(Variant::ScrambledEggs)],
        arb_size(),
    )
        .prop_map(|(start, size)| Origin::Start(start, size))
}

/// Random placements, from nearly empty to full boards (where passes are common).
fn arb_placement() -> impl Strategy<Value = Origin> {
    (6usize..=8, 0u32..=100, any::<bool>())
        .prop_flat_map(|(n, density, white)| {
            (
                Just(n),
                Just(density),
                Just(white),
                prop::collection::vec(any::<u32>(), n * n),
            )
        })
        .prop_map(|(n, density, white_to_move, raw)| {
            let mut flat: Vec<Cell> = raw
                .iter()
                .map(|&x| {
                    (x % 100 < density).then_some(if (x / 100) % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    })
                })
                .collect();
            if !flat.contains(&Some(Color::Black)) {
                flat[raw[0] as usize % (n * n)] = Some(Color::Black);
            }
            if !flat.contains(&Some(Color::White)) {
                let i = flat
                    .iter()
                    .position(|&c| c != Some(Color::Black))
                    .unwrap_or(0);
                flat[i] = Some(Color::White);
            }
            let mut cells = [[None; 8]; 8];
            for (i, &cell) in flat.iter().enumerate() {
                cells[i / n][i % n] = cell;
            }
            let side = if white_to_move {
                Color::White
            } else {
                Color::Black
            };
            Origin::Placement(Board { n, cells, side })
        })
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (
        prop_oneof![3 => arb_start(), 1 => arb_placement()],
        prop::collection::vec(any::<u32>(), 0..120),
    )
        .prop_map(|(origin, choices)| Scenario { origin, choices })
}

fn arb_rules() -> impl Strategy<Value = RuleSet> {
    prop_oneof![Just(RuleSet::Draw), Just(RuleSet::MoverWins)]
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        // Do not write regression files next to the tests; a failure prints its input.
        failure_persistence: None,
        ..Config::default()
    }
}

// ---------------------------------------------------------------------------------------
// Checks used by the properties
// ---------------------------------------------------------------------------------------

/// The fast generator against the reference, on one position.
fn check_generator(ply: &Ply, all_squares: bool) {
    let Ply {
        pos,
        board,
        moves: expected,
    } = ply;
    assert_eq!(&Board::from_position(pos), board, "{pos}");
    let fast = pos.legal_moves();
    let got: BTreeSet<RefMove> = fast.iter().map(|&m| to_ref(m)).collect();
    assert_eq!(&got, expected, "legal moves of {pos}");
    assert_eq!(fast.len(), expected.len(), "duplicate moves in {pos}");
    let pass = expected.contains(&RefMove::Pass);
    assert_eq!(pos.must_pass(), pass, "must_pass of {pos}");
    // targets_from, for every piece of the side to move (and, when asked, every other
    // square, where it must be empty).
    let mut targets = [[false; 64]; 64];
    for m in expected {
        if let RefMove::Step { from, to, .. } = *m {
            targets[usize::from(from.1 * 8 + from.0)][usize::from(to.1 * 8 + to.0)] = true;
        }
    }
    let us = pos.pieces(pos.side_to_move());
    for sq in Square::all().filter(|&sq| all_squares || us.contains(sq)) {
        let want: BTreeSet<(u8, u8)> = Square::all()
            .filter(|to| targets[sq.index()][to.index()])
            .map(|to| (to.file(), to.rank()))
            .collect();
        let have: BTreeSet<(u8, u8)> = pos.targets_from(sq).map(|t| (t.file(), t.rank())).collect();
        assert_eq!(have, want, "targets_from({sq}) in {pos}");
    }
}

/// The plies the expensive checks look at: every `step`-th one and the last.
fn sample(line: &[Ply], step: usize) -> impl Iterator<Item = &Ply> {
    let last = line.len() - 1;
    line.iter()
        .enumerate()
        .filter(move |(i, _)| i % step == 0 || *i == last)
        .map(|(_, ply)| ply)
}

/// Moves near the legal ones: the capture flag flipped, one square short or long.
fn near_moves(board: &Board, legal: &BTreeSet<RefMove>) -> Vec<RefMove> {
    let mut out = Vec::new();
    for &m in legal {
        if let RefMove::Step { from, to, capture } = m {
            out.push(RefMove::Step {
                from,
                to,
                capture: !capture,
            });
            let (df, dr) = (
                (i32::from(to.0) - i32::from(from.0)).signum(),
                (i32::from(to.1) - i32::from(from.1)).signum(),
            );
            for k in [-1, 1] {
                let (x, y) = (i32::from(to.0) + k * df, i32::from(to.1) + k * dr);
                if (0..8).contains(&x) && (0..8).contains(&y) && (x, y) != from_i32(from) {
                    let capture = board.inside(x, y) && board.at(x, y) == Some(!board.side);
                    out.push(RefMove::Step {
                        from,
                        to: (x as u8, y as u8),
                        capture,
                    });
                }
            }
        }
    }
    out
}

fn from_i32(sq: (u8, u8)) -> (i32, i32) {
    (i32::from(sq.0), i32::from(sq.1))
}

/// Every accepted way of writing `mv` reads back as `mv`; wrong capture marks do not.
fn check_notation(pos: &Position, mv: Move) {
    let ok = |text: &str| {
        assert_eq!(pos.parse_move(text), Ok(mv), "'{text}' in {pos}");
    };
    ok(&mv.to_string());
    ok(&mv.coordinate());
    ok(&mv.to_string().to_uppercase());
    ok(&format!("  {mv}\t"));
    assert_eq!(Move::from_bits(mv.to_bits()), Some(mv));
    if mv.is_pass() {
        assert_eq!(mv.to_string(), "pass");
        assert_eq!(mv.coordinate(), "0000");
        ok("PASS");
        assert_eq!(MoveText::parse(&mv.to_string()), Ok(MoveText::Pass));
        return;
    }
    let (from, to) = (
        name(mv.from().file(), mv.from().rank()),
        name(mv.to().file(), mv.to().rank()),
    );
    let sep = if mv.is_capture() { 'x' } else { '-' };
    assert_eq!(mv.to_string(), format!("{from}{sep}{to}"));
    assert_eq!(mv.coordinate(), format!("{from}{to}"));
    assert_eq!(
        MoveText::parse(&mv.to_string()),
        Ok(MoveText::Step {
            from: mv.from(),
            to: mv.to(),
            capture: Some(mv.is_capture()),
        })
    );
    if mv.is_capture() {
        ok(&format!("{from}:{to}"));
        ok(&format!("{from}X{to}"));
        // A capture may be written with '-'.
        ok(&format!("{from}-{to}"));
    } else {
        for text in [format!("{from}x{to}"), format!("{from}:{to}")] {
            assert_eq!(
                pos.parse_move(&text),
                Err(MoveError::NotACapture {
                    text: text.clone(),
                    square: mv.to()
                }),
                "{pos}"
            );
        }
    }
}

/// What the parsers must do with any text: not panic, and whatever they accept must be
/// consistent.
fn check_parsers(pos: &Position, text: &str) {
    if let Ok(parsed) = text.parse::<Position>() {
        let again: Position = parsed.to_string().parse().expect("printed text parses");
        assert_eq!(again, parsed, "'{text}'");
        assert!(parsed.pieces(Color::Black).any() && parsed.pieces(Color::White).any());
        assert_eq!(parsed.hash(), parsed.compute_hash());
    }
    if let Ok(MoveText::Step { from, to, .. }) = MoveText::parse(text) {
        assert!(from.index() < 64 && to.index() < 64);
    }
    if let Ok(mv) = pos.parse_move(text) {
        assert!(pos.is_legal(mv), "'{text}' read as {mv} in {pos}");
        assert!(pos.legal_moves().contains(&mv), "'{text}' in {pos}");
    }
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    text_edits("bwBW0123456789/ \t-x:X0pasPASShéß\u{2003}")
}

// ---------------------------------------------------------------------------------------
// The properties
// ---------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(3000))]

    /// `legal_moves` (and `targets_from`, `must_pass`) equal the reference generator as
    /// sets of (from, to, capture), at every ply of the playout; `play` moves the pieces
    /// exactly as the model does.
    #[test]
    fn fast_generator_equals_reference(scn in scenario()) {
        let line = scn.line();
        for (i, ply) in line.iter().enumerate() {
            // targets_from of every square (not only the mover's pieces) at the last ply.
            check_generator(ply, i + 1 == line.len());
        }
    }

    /// `count_moves` is the number of legal moves (a pass counting one), and `is_legal`
    /// accepts every generated move and refuses random and near-miss non-moves.
    #[test]
    fn count_and_is_legal_agree(
        scn in scenario(),
        random in prop::collection::vec((0u8..64, 0u8..64, any::<bool>()), 0..24),
        bits in prop::collection::vec(0u32..(1 << 21), 0..24),
    ) {
        let line = scn.line();
        for Ply { pos, board, moves: legal } in sample(&line, 8) {
            let (pos, board) = (*pos, board);
            let moves = pos.legal_moves();
            prop_assert_eq!(pos.count_moves(), moves.len() as u64, "{}", pos);
            prop_assert_eq!(loa_core::perft::perft(&pos, 1), moves.len() as u64);
            for &mv in moves.iter() {
                prop_assert!(pos.is_legal(mv), "{} in {}", mv, pos);
            }
            prop_assert_eq!(pos.is_legal(Move::PASS), legal.contains(&RefMove::Pass));
            let mut candidates = near_moves(board, legal);
            candidates.extend(random.iter().map(|&(from, to, capture)| RefMove::Step {
                from: (from % 8, from / 8),
                to: (to % 8, to / 8),
                capture,
            }));
            for m in candidates {
                let mv = from_ref(m);
                prop_assert_eq!(pos.is_legal(mv), legal.contains(&m), "{:?} in {}", m, pos);
            }
            for &b in &bits {
                if let Some(mv) = Move::from_bits(b) {
                    let expected = mv.drop().is_none() && legal.contains(&to_ref(mv));
                    prop_assert_eq!(pos.is_legal(mv), expected, "{} in {}", mv, pos);
                }
            }
        }
    }

}

proptest! {
    #![proptest_config(config(2000))]

    /// The hash kept up to date by `play` equals the hash computed from scratch, and a
    /// pass changes only the side-to-move part.
    #[test]
    fn incremental_hash_equals_computed(scn in scenario()) {
        let line = scn.line();
        for ply in &line {
            prop_assert_eq!(ply.pos.hash(), ply.pos.compute_hash(), "{}", ply.pos);
            let passed = ply.pos.after(Move::PASS);
            prop_assert_eq!(passed.hash(), passed.compute_hash());
            prop_assert_ne!(passed.hash(), ply.pos.hash());
            prop_assert_eq!(passed.after(Move::PASS), ply.pos);
        }
        // Equal positions reached by different routes are equal, hashes included.
        let mut seen = std::collections::HashMap::new();
        for ply in &line {
            let first = *seen.entry(ply.board.text()).or_insert(ply.pos);
            prop_assert_eq!(first, ply.pos);
            prop_assert_eq!(first.hash(), ply.pos.hash());
        }
    }

    /// Position text round-trips, and is the text the model writes.
    #[test]
    fn position_text_round_trips(scn in scenario()) {
        for Ply { pos, board, .. } in scn.line() {
            let text = pos.to_string();
            prop_assert_eq!(&text, &board.text());
            let parsed = text.parse::<Position>();
            // Games are not cut off at their end, so a playout can capture a side's last
            // piece; such a board is not a position, and its text says so.
            match Color::ALL.into_iter().find(|&c| board.count(c) == 0) {
                None => prop_assert_eq!(parsed, Ok(pos), "{}", text),
                Some(c) => prop_assert_eq!(
                    parsed,
                    Err(PositionTextError::Setup(SetupError::NoPieces(c))),
                    "{}", text
                ),
            }
        }
    }
}

proptest! {
    #![proptest_config(config(1500))]

    /// `parse_move` reads back every legal move from its notation and coordinate form.
    #[test]
    fn move_notation_round_trips(scn in scenario()) {
        let line = scn.line();
        for Ply { pos, .. } in sample(&line, 10) {
            let pos = *pos;
            for &mv in pos.legal_moves().iter() {
                check_notation(&pos, mv);
            }
            if !pos.must_pass() {
                let refused = pos.parse_move("pass");
                prop_assert!(
                    matches!(refused, Err(MoveError::PassNotAllowed { .. })),
                    "{:?} in {}", refused, pos
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(config(2000))]

    /// A game follows the rule book (the model's connection and repetition judgement
    /// after every move), and undoing the moves one by one restores every position,
    /// outcome and repetition count exactly.
    #[test]
    fn game_outcomes_match_reference_and_undo_restores(
        scn in scenario(),
        rules in arb_rules(),
        choices in prop::collection::vec(any::<u32>(), 0..200),
    ) {
        let (start, board) = scn.start();
        let mut game = Game::new(start, rules);
        let mut boards = vec![board];
        prop_assert_eq!(game.outcome(), ref_outcome(&boards, rules), "start {}", start);
        struct Snapshot {
            pos: Position,
            outcome: Option<Outcome>,
            repetitions: usize,
            legal: Vec<Move>,
        }
        let mut snapshots = Vec::new();
        let mut played = Vec::new();
        for &choice in &choices {
            if game.is_over() {
                prop_assert!(game.legal_moves().is_empty());
                break;
            }
            let legal = game.legal_moves();
            let mv = legal[choice as usize % legal.len()];
            let before = *game.position();
            snapshots.push(Snapshot {
                pos: before,
                outcome: game.outcome(),
                repetitions: game.repetitions(),
                legal: legal.to_vec(),
            });
            prop_assert_eq!(game.play(mv), Ok(()));
            played.push(mv);
            let mut next = boards.last().unwrap().clone();
            next.play(to_ref(mv));
            prop_assert_eq!(&Board::from_position(game.position()), &next);
            boards.push(next);
            prop_assert_eq!(*game.position(), before.after(mv));
            prop_assert_eq!(game.ply(), played.len());
            prop_assert_eq!(game.last_move(), Some(mv));
            let now = boards.last().unwrap();
            prop_assert_eq!(game.repetitions(), boards.iter().filter(|b| *b == now).count());
            let expected = ref_outcome(&boards, rules);
            prop_assert_eq!(game.outcome(), expected, "after {} from {}", mv, before);
        }
        prop_assert!(game.moves().eq(played.iter().copied()));
        if let Some(outcome) = game.outcome() {
            prop_assert_eq!(game.play(Move::PASS), Err(loa_core::PlayError::GameOver(outcome)));
            prop_assert_eq!(game.play_text("pass"), Err(loa_core::PlayError::GameOver(outcome)));
        }
        while let Some(snap) = snapshots.pop() {
            let mv = played.pop().unwrap();
            prop_assert_eq!(game.undo(), Some(mv));
            prop_assert_eq!(*game.position(), snap.pos);
            prop_assert_eq!(game.position().hash(), snap.pos.hash());
            prop_assert_eq!(game.outcome(), snap.outcome);
            prop_assert_eq!(game.repetitions(), snap.repetitions);
            prop_assert_eq!(game.ply(), played.len());
            prop_assert_eq!(game.legal_moves().to_vec(), snap.legal);
        }
        prop_assert_eq!(game.undo(), None);
        prop_assert_eq!(*game.position(), start);
        prop_assert_eq!(game.outcome(), start.outcome(rules));
    }
}

proptest! {
    #![proptest_config(config(2000))]

    /// No string makes a parser panic, and whatever is accepted is consistent.
    #[test]
    fn parsers_never_panic_on_any_string(
        scn in scenario(),
        any_text in any::<String>(),
        board_like in "[bwBW0-9/ ]{0,80}",
        move_like in "[a-jA-J0-9x:X\\- ]{0,7}|pass|PASS|0000",
    ) {
        let pos = scn.line().last().unwrap().pos;
        for text in [&any_text, &board_like, &move_like] {
            check_parsers(&pos, text);
        }
    }

    /// Mutated valid position texts and move texts do not make a parser panic either.
    #[test]
    fn parsers_never_panic_on_mutated_texts(
        scn in scenario(),
        position_edits in edits(),
        move_edits in edits(),
        pick in any::<u32>(),
    ) {
        let pos = scn.line().last().unwrap().pos;
        let text = mutate(&pos.to_string(), &position_edits);
        check_parsers(&pos, &text);
        let moves = pos.legal_moves();
        let mv = moves[pick as usize % moves.len()];
        for form in [mv.to_string(), mv.coordinate()] {
            check_parsers(&pos, &mutate(&form, &move_edits));
        }
    }
}

// ---------------------------------------------------------------------------------------
// The model itself, on the rule book's examples (so that a wrong model cannot hide a
// wrong generator)
// ---------------------------------------------------------------------------------------

/// Perft of the model: every move sequence, games not cut off, a pass counting one.
fn ref_perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    board
        .moves()
        .into_iter()
        .map(|m| {
            let mut next = board.clone();
            next.play(m);
            ref_perft(&next, depth - 1)
        })
        .sum()
}

#[test]
fn reference_model_follows_the_rule_book() {
    // The rule book's reference counts.
    let start = Board::from_text(start_text(Variant::Standard, BoardSize::Eight));
    assert_eq!(
        (1..=3).map(|d| ref_perft(&start, d)).collect::<Vec<_>>(),
        [36, 1_244, 44_952]
    );
    let eggs = Board::from_text(start_text(Variant::ScrambledEggs, BoardSize::Eight));
    assert_eq!(
        (1..=3).map(|d| ref_perft(&eggs, d)).collect::<Vec<_>>(),
        [32, 992, 32_000]
    );
    assert!(!start.connected(Color::Black));
    let seed = Board::from_text("8/8/1w1wb3/8/1bww4/1ww1b3/2w2b2/8 w");
    let b6: BTreeSet<String> = seed
        .moves()
        .into_iter()
        .filter_map(|m| match m {
            RefMove::Step { from, to, capture } if from == (1, 5) => Some(format!(
                "{}{}{}",
                name(from.0, from.1),
                if capture { 'x' } else { '-' },
                name(to.0, to.1)
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        b6,
        ["b6-a5", "b6-c7", "b6xe6"]
            .into_iter()
            .map(String::from)
            .collect()
    );
    let mut won = seed.clone();
    won.play(RefMove::Step {
        from: (2, 1),
        to: (2, 4),
        capture: false,
    });
    assert!(seed.moves().contains(&RefMove::Step {
        from: (2, 1),
        to: (2, 4),
        capture: false
    }));
    assert!(won.connected(Color::White) && !won.connected(Color::Black));
    assert_eq!(
        ref_outcome(&[won], RuleSet::Draw),
        Some(Outcome::win(Color::White, Reason::Connection))
    );
    let full = Board::from_text("bwbwbw/wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb b");
    assert_eq!(full.moves(), BTreeSet::from([RefMove::Pass]));
}

/// The crate's starting arrays are the rule book's.
#[test]
fn starts_match_the_model() {
    for start in [Variant::Standard, Variant::ScrambledEggs] {
        for size in BoardSize::ALL {
            let pos = start.standard_start(size).unwrap();
            assert_eq!(pos.to_string(), start_text(start, size));
            assert_eq!(
                Board::from_position(&pos),
                Board::from_text(start_text(start, size))
            );
        }
    }
}
