//! A slow, obviously correct model of the four variants with rules of their own, written
//! from the rule book alone (docs/rulebook.md, section Variants): a plain 2-D array of
//! squares, moves found by walking each line square by square, connection by a flood fill,
//! and its own reading and writing of position text. It shares no code with the crate.

use loa_core::{Color, Outcome, Reason, RuleSet, Variant};
use std::collections::BTreeSet;

/// A square as `(file, rank)`, both from 0: a1 is `(0, 0)`.
pub type Sq = (i32, i32);

/// A piece: its side, its kind (AmbiLOA: 0 for `B`/`W`, 1 for `b`/`w`) and its number
/// (Fields of Action: 1 to 12; 0 elsewhere).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stone {
    pub side: Color,
    pub kind: u8,
    pub number: u8,
}

impl Stone {
    pub fn plain(side: Color) -> Stone {
        Stone {
            side,
            kind: 0,
            number: 0,
        }
    }
}

/// A whole turn: a move (`None` for a pass), whether it captures, and the placement that
/// follows it in Parachute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Turn {
    pub step: Option<(Sq, Sq)>,
    pub capture: bool,
    pub drop: Option<Sq>,
}

/// A position of one of the four variants.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Model {
    pub variant: Variant,
    /// `cells[rank][file]`.
    pub cells: [[Option<Stone>; 8]; 8],
    /// The side to move.
    pub side: Color,
    /// AmbiLOA: which of the side's kinds is due (0 for `B`/`W`, 1 for `b`/`w`).
    pub kind: u8,
    /// Parachute: the pieces in reserve, Black's then White's.
    pub reserve: [u8; 2],
}

/// The eight directions as (file step, rank step).
const DIRECTIONS: [Sq; 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

fn inside((f, r): Sq) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

fn step((f, r): Sq, (df, dr): Sq, k: i32) -> Sq {
    (f + k * df, r + k * dr)
}

fn side_index(side: Color) -> usize {
    match side {
        Color::Black => 0,
        Color::White => 1,
    }
}

pub fn square_name((f, r): Sq) -> String {
    format!("{}{}", char::from(b'a' + f as u8), r + 1)
}

impl Model {
    pub fn empty(variant: Variant, side: Color) -> Model {
        Model {
            variant,
            cells: [[None; 8]; 8],
            side,
            kind: 0,
            reserve: [0, 0],
        }
    }

    pub fn at(&self, (f, r): Sq) -> Option<Stone> {
        self.cells[r as usize][f as usize]
    }

    fn set(&mut self, (f, r): Sq, stone: Option<Stone>) {
        self.cells[r as usize][f as usize] = stone;
    }

    fn squares() -> impl Iterator<Item = Sq> {
        (0..8).flat_map(|r| (0..8).map(move |f| (f, r)))
    }

    fn stones_of(&self, side: Color) -> Vec<Sq> {
        Model::squares()
            .filter(|&sq| self.at(sq).is_some_and(|s| s.side == side))
            .collect()
    }

    /// Pieces of either colour on the eight squares around `sq`, not counting `skip`.
    fn neighbours(&self, sq: Sq, skip: Option<Sq>) -> usize {
        DIRECTIONS
            .iter()
            .map(|&d| step(sq, d, 1))
            .filter(|&n| inside(n) && Some(n) != skip && self.at(n).is_some())
            .count()
    }

    /// Pieces on the whole line through `sq` in direction `d`, `sq` included.
    fn line_count(&self, sq: Sq, d: Sq) -> usize {
        let mut count = 1;
        for sign in [1, -1] {
            let mut k = 1;
            loop {
                let s = step(sq, (d.0 * sign, d.1 * sign), k);
                if !inside(s) {
                    break;
                }
                count += usize::from(self.at(s).is_some());
                k += 1;
            }
        }
        count
    }

    /// Whether the piece on `from` is one that moves now.
    fn moves_now(&self, from: Sq) -> bool {
        self.at(from).is_some_and(|s| {
            s.side == self.side && (self.variant != Variant::AmbiLoa || s.kind == self.kind)
        })
    }

    /// The landing squares of the piece on `from`, with whether each is a capture.
    fn targets(&self, from: Sq) -> Vec<(Sq, bool)> {
        let us = self.side;
        let own = |sq: Sq| self.at(sq).is_some_and(|s| s.side == us);
        let enemy = |sq: Sq| self.at(sq).is_some_and(|s| s.side != us);
        let mut out = Vec::new();
        for d in DIRECTIONS {
            match self.variant {
                Variant::Neighbors | Variant::FieldsOfAction => {
                    let n = self.neighbours(from, None) as i32;
                    if n > 0 {
                        let to = step(from, d, n);
                        if inside(to) && !own(to) {
                            out.push((to, enemy(to)));
                        }
                    } else if self.variant == Variant::FieldsOfAction {
                        let mut k = 1;
                        while inside(step(from, d, k)) {
                            let to = step(from, d, k);
                            if self.at(to).is_none() && self.neighbours(to, Some(from)) >= 2 {
                                out.push((to, false));
                            }
                            k += 1;
                        }
                    }
                }
                _ => {
                    let n = self.line_count(from, d) as i32;
                    let to = step(from, d, n);
                    // Inside the board, so is every square before it.
                    if inside(to) && !(1..n).any(|k| enemy(step(from, d, k))) && !own(to) {
                        out.push((to, enemy(to)));
                    }
                }
            }
        }
        out
    }

    /// The moves without placements; a lone pass when there is none, except in Fields of
    /// Action, which has no pass.
    fn steps(&self) -> Vec<(Option<(Sq, Sq)>, bool)> {
        let mut out = Vec::new();
        for from in Model::squares().filter(|&sq| self.moves_now(sq)) {
            for (to, capture) in self.targets(from) {
                out.push((Some((from, to)), capture));
            }
        }
        if out.is_empty() && self.variant != Variant::FieldsOfAction {
            out.push((None, false));
        }
        out
    }

    /// Every legal turn.
    pub fn turns(&self) -> BTreeSet<Turn> {
        let mut turns = BTreeSet::new();
        let drop_due =
            self.variant == Variant::Parachute && self.reserve[side_index(!self.side)] > 0;
        for (step, capture) in self.steps() {
            let base = Turn {
                step,
                capture,
                drop: None,
            };
            if !drop_due {
                turns.insert(base);
                continue;
            }
            let mut after = self.clone();
            after.move_piece(step);
            for sq in Model::squares().filter(|&sq| after.at(sq).is_none()) {
                turns.insert(Turn {
                    drop: Some(sq),
                    ..base
                });
            }
        }
        turns
    }

    fn move_piece(&mut self, step: Option<(Sq, Sq)>) {
        if let Some((from, to)) = step {
            let stone = self.at(from);
            self.set(from, None);
            self.set(to, stone);
        }
    }

    pub fn play(&mut self, turn: Turn) {
        self.move_piece(turn.step);
        if let Some(sq) = turn.drop {
            let owner = !self.side;
            self.set(sq, Some(Stone::plain(owner)));
            self.reserve[side_index(owner)] -= 1;
        }
        // AmbiLOA's rotation B, W, b, w: after White's kind, Black's other kind is due.
        if self.variant == Variant::AmbiLoa && self.side == Color::White {
            self.kind = 1 - self.kind;
        }
        self.side = !self.side;
    }

    /// All of `side`'s pieces in one group (and, in Parachute, none in reserve).
    fn connected(&self, side: Color) -> bool {
        let stones = self.stones_of(side);
        if stones.is_empty()
            || (self.variant == Variant::Parachute && self.reserve[side_index(side)] > 0)
        {
            return false;
        }
        let mut seen = vec![stones[0]];
        let mut todo = vec![stones[0]];
        while let Some(sq) = todo.pop() {
            for d in DIRECTIONS {
                let n = step(sq, d, 1);
                if inside(n) && self.at(n).is_some_and(|s| s.side == side) && !seen.contains(&n) {
                    seen.push(n);
                    todo.push(n);
                }
            }
        }
        seen.len() == stones.len()
    }

    /// Whether five of `side`'s numbers in a row are no longer on the board.
    fn five_captured(&self, side: Color) -> bool {
        let on_board: Vec<u8> = self
            .stones_of(side)
            .iter()
            .map(|&sq| self.at(sq).unwrap().number)
            .collect();
        (1..=8).any(|first| (first..first + 5).all(|n| !on_board.contains(&n)))
    }

    /// The end of the game as the position stands after a turn of the side not to move.
    pub fn judge(&self, rules: RuleSet) -> Option<Outcome> {
        let mover = !self.side;
        if self.variant == Variant::FieldsOfAction {
            if self.five_captured(self.side) {
                return Some(Outcome::win(mover, Reason::FiveCaptured));
            }
            if self.five_captured(mover) {
                return Some(Outcome::win(self.side, Reason::FiveCaptured));
            }
            return self
                .turns()
                .is_empty()
                .then_some(Outcome::win(mover, Reason::NoMove));
        }
        match (self.connected(mover), self.connected(!mover)) {
            (true, true) => Some(match rules {
                RuleSet::Draw => Outcome::draw(Reason::SimultaneousConnection),
                RuleSet::MoverWins => Outcome::win(mover, Reason::SimultaneousConnection),
            }),
            (true, false) => Some(Outcome::win(mover, Reason::Connection)),
            (false, true) => Some(Outcome::win(!mover, Reason::Connection)),
            (false, false) => None,
        }
    }

    /// The letter of a piece in position text.
    fn letter(&self, stone: Stone) -> char {
        let base = match (self.variant, stone.side) {
            (Variant::FieldsOfAction, Color::Black) => return char::from(b'A' + stone.number - 1),
            (Variant::FieldsOfAction, Color::White) => return char::from(b'a' + stone.number - 1),
            (_, Color::Black) => 'b',
            (_, Color::White) => 'w',
        };
        if self.variant == Variant::AmbiLoa && stone.kind == 0 {
            base.to_ascii_uppercase()
        } else {
            base
        }
    }

    fn stone_of(variant: Variant, ch: char) -> Option<Stone> {
        let side = if ch.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        match variant {
            Variant::FieldsOfAction => {
                let number = ch.to_ascii_uppercase() as u8;
                ('A'..='L')
                    .contains(&ch.to_ascii_uppercase())
                    .then(|| Stone {
                        side,
                        kind: 0,
                        number: number - b'A' + 1,
                    })
            }
            Variant::AmbiLoa => {
                let (side, kind) = match ch {
                    'B' => (Color::Black, 0),
                    'W' => (Color::White, 0),
                    'b' => (Color::Black, 1),
                    'w' => (Color::White, 1),
                    _ => return None,
                };
                Some(Stone {
                    side,
                    kind,
                    number: 0,
                })
            }
            _ => match ch {
                'b' => Some(Stone::plain(Color::Black)),
                'w' => Some(Stone::plain(Color::White)),
                _ => None,
            },
        }
    }

    /// The position text: the placement from rank 8 down, then the side to move (the kind
    /// due in AmbiLOA) and, in Parachute, the reserves.
    pub fn text(&self) -> String {
        let mut rows = Vec::new();
        for r in (0..8).rev() {
            let mut row = String::new();
            let mut gap = 0;
            for f in 0..8 {
                match self.at((f, r)) {
                    None => gap += 1,
                    Some(stone) => {
                        if gap > 0 {
                            row.push_str(&gap.to_string());
                            gap = 0;
                        }
                        row.push(self.letter(stone));
                    }
                }
            }
            if gap > 0 {
                row.push_str(&gap.to_string());
            }
            rows.push(row);
        }
        let side = match (self.variant, self.side) {
            (Variant::AmbiLoa, side) => self.letter(Stone {
                side,
                kind: self.kind,
                number: 0,
            }),
            (_, Color::Black) => 'b',
            (_, Color::White) => 'w',
        };
        let mut text = format!("{} {side}", rows.join("/"));
        if self.variant == Variant::Parachute {
            text.push_str(&format!(" {} {}", self.reserve[0], self.reserve[1]));
        }
        text
    }

    /// Reads a well-formed position text (the model only reads what it is given by the
    /// tests, so it panics on anything else).
    pub fn from_text(variant: Variant, text: &str) -> Model {
        let fields: Vec<&str> = text.split(' ').collect();
        let mut model = Model::empty(variant, Color::Black);
        for (i, row) in fields[0].split('/').enumerate() {
            let r = 7 - i as i32;
            let mut f = 0;
            for ch in row.chars() {
                if let Some(gap) = ch.to_digit(10) {
                    f += gap as i32;
                } else {
                    let stone = Model::stone_of(variant, ch).expect("a piece letter");
                    model.set((f, r), Some(stone));
                    f += 1;
                }
            }
            assert_eq!(f, 8, "row {row}");
        }
        let due = fields[1].chars().next().unwrap();
        if variant == Variant::AmbiLoa {
            let stone = Model::stone_of(variant, due).unwrap();
            model.side = stone.side;
            model.kind = stone.kind;
        } else {
            model.side = if due == 'w' {
                Color::White
            } else {
                Color::Black
            };
        }
        if variant == Variant::Parachute {
            model.reserve = [fields[2].parse().unwrap(), fields[3].parse().unwrap()];
        }
        model
    }
}

/// Perft by the model: every sequence of turns, never stopping at a finished game.
pub fn perft(model: &Model, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let turns = model.turns();
    if depth == 1 {
        return turns.len() as u64;
    }
    turns
        .into_iter()
        .map(|turn| {
            let mut next = model.clone();
            next.play(turn);
            perft(&next, depth - 1)
        })
        .sum()
}
