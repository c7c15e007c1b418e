//! Parachute, AmbiLOA, Neighbors and Fields of Action against the reference model in
//! `model.rs`: perft from each start against the model and the rule book, and, on random
//! playouts from the starts and from random placements, the legal turns, the position
//! text, the hash, the end of the game (under both rule sets, repetition included) and
//! the notation of every turn. Parsers must not panic on any text.

#[path = "../common/mod.rs"]
mod common;
mod model;

use common::{mutate, text_edits, Edit};
use loa_core::perft::perft;
use loa_core::{
    Color, Game, GameState, Move, Outcome, Reason, RuleSet, Square, Variant, VariantPosition,
};
use model::{square_name, Model, Sq, Stone, Turn};
use proptest::prelude::*;
use proptest::test_runner::Config;
use std::collections::BTreeSet;

const VARIANTS: [Variant; 4] = [
    Variant::Parachute,
    Variant::AmbiLoa,
    Variant::Neighbors,
    Variant::FieldsOfAction,
];

/// The starts as the rule book writes them.
fn start_text(variant: Variant) -> &'static str {
    match variant {
        Variant::Parachute => "8/w6b/b6w/w6b/b6w/w6b/b6w/8 b 6 6",
        Variant::AmbiLoa => "1bbbbbb1/w6W/w6W/w6W/w6W/w6W/w6W/1BBBBBB1 B",
        Variant::Neighbors => "1bbbwww1/w6b/w6b/w6b/b6w/b6w/b6w/1wwwbbb1 b",
        Variant::FieldsOfAction => "HGFE4/4LKJI/DCBA4/8/8/4abcd/ijkl4/4efgh b",
        other => unreachable!("{other} is played by the standard rules"),
    }
}

fn sq(square: Square) -> Sq {
    (i32::from(square.file()), i32::from(square.rank()))
}

/// The crate's move as the model's turn.
fn turn_of(mv: Move) -> Turn {
    Turn {
        step: (!mv.is_pass()).then(|| (sq(mv.from()), sq(mv.to()))),
        capture: mv.is_capture(),
        drop: mv.drop().map(sq),
    }
}

fn crate_turns(pos: &VariantPosition) -> Vec<Move> {
    pos.moves()
}

// ---------------------------------------------------------------------------------------
// Perft from the starts
// ---------------------------------------------------------------------------------------

#[test]
fn perft_from_the_starts_matches_the_model_and_the_rule_book() {
    let book: [(Variant, &[u64]); 4] = [
        (Variant::Parachute, &[936, 1_057_326]),
        (Variant::AmbiLoa, &[18, 311, 5_363]),
        (Variant::Neighbors, &[44, 1_896, 79_860]),
        (Variant::FieldsOfAction, &[36, 1_285, 54_271]),
    ];
    for (variant, counts) in book {
        let start = variant.start(loa_core::BoardSize::Eight).unwrap();
        let model = Model::from_text(variant, start_text(variant));
        assert_eq!(start.to_string(), start_text(variant));
        assert_eq!(model.text(), start_text(variant));
        for (depth, &count) in (1..).zip(counts) {
            assert_eq!(
                model::perft(&model, depth),
                count,
                "model: {variant} perft {depth}"
            );
            assert_eq!(perft(&start, depth), count, "{variant} perft {depth}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Random playouts
// ---------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct Scenario {
    start: Model,
    /// One number per ply: the turn played is the model's entry `choice % len`.
    choices: Vec<u32>,
}

/// One ply of a playout: the crate's position and the model for it.
struct Ply {
    pos: VariantPosition,
    model: Model,
    turns: BTreeSet<Turn>,
}

impl Scenario {
    fn line(&self) -> Vec<Ply> {
        let variant = self.start.variant;
        let text = self.start.text();
        let mut pos = VariantPosition::parse(variant, &text)
            .unwrap_or_else(|e| panic!("{variant} '{text}': {e}"));
        let mut model = self.start.clone();
        let mut line = Vec::new();
        for ply in 0..=self.choices.len() {
            let turns = model.turns();
            let next = self.choices.get(ply).and_then(|&choice| {
                let n = turns.len();
                (n > 0).then(|| *turns.iter().nth(choice as usize % n).unwrap())
            });
            // A finished game goes no further: playing on could take a side's last piece.
            let over = model.judge(RuleSet::Draw).is_some();
            line.push(Ply {
                pos,
                model: model.clone(),
                turns,
            });
            let Some(turn) = next.filter(|_| !over) else {
                break;
            };
            let mv = crate_turns(&pos)
                .into_iter()
                .find(|&m| turn_of(m) == turn)
                .unwrap_or_else(|| panic!("{turn:?} is not generated in {pos}"));
            pos.play(mv);
            model.play(turn);
        }
        line
    }
}

fn arb_variant() -> impl Strategy<Value = Variant> {
    prop::sample::select(VARIANTS.to_vec())
}

/// Random pieces for `variant`: from nearly empty to full boards, at least one piece a
/// side (or, in Parachute, one in reserve).
fn arb_placement(variant: Variant) -> impl Strategy<Value = Model> {
    (
        0u32..=100,
        prop::collection::vec(any::<u32>(), 64),
        any::<u8>(),
        0u8..=6,
        0u8..=6,
    )
        .prop_map(move |(density, raw, due, black_reserve, white_reserve)| {
            let side = if due % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let mut model = Model::empty(variant, side);
            if variant == Variant::AmbiLoa {
                model.kind = (due / 2) % 2;
            }
            if variant == Variant::Parachute {
                model.reserve = [black_reserve, white_reserve];
            }
            let mut numbers = [1u8, 1u8];
            let mut counts = [0u8, 0u8];
            for (i, &x) in raw.iter().enumerate() {
                if x % 100 >= density {
                    continue;
                }
                let side = if (x / 100) % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let count = &mut counts[usize::from(side == Color::White)];
                // Parachute has twelve pieces a side, board and reserve together.
                if variant == Variant::Parachute
                    && *count + model.reserve[usize::from(side == Color::White)] >= 12
                {
                    continue;
                }
                *count += 1;
                let stone = match variant {
                    // Numbers rise along the board, some skipped (as if captured).
                    Variant::FieldsOfAction => {
                        let number = &mut numbers[usize::from(side == Color::White)];
                        if *number > 12 {
                            continue;
                        }
                        let stone = Stone {
                            side,
                            kind: 0,
                            number: *number,
                        };
                        *number += if (x / 400) % 3 == 0 { 2 } else { 1 };
                        stone
                    }
                    Variant::AmbiLoa => Stone {
                        side,
                        kind: ((x / 200) % 2) as u8,
                        number: 0,
                    },
                    _ => Stone::plain(side),
                };
                model.cells[i / 8][i % 8] = Some(stone);
            }
            for (k, side) in [Color::Black, Color::White].into_iter().enumerate() {
                let has = model
                    .cells
                    .iter()
                    .flatten()
                    .any(|c| c.is_some_and(|s| s.side == side));
                if !has && model.reserve[k] == 0 {
                    // On a full board, a square is taken from the other side, which then
                    // has plenty.
                    let free = (0..64).find(|&i| model.cells[i / 8][i % 8].is_none());
                    let i = free.unwrap_or(raw[0] as usize % 64);
                    let number = if variant == Variant::FieldsOfAction {
                        12
                    } else {
                        0
                    };
                    model.cells[i / 8][i % 8] = Some(Stone {
                        side,
                        kind: 0,
                        number,
                    });
                }
            }
            model
        })
}

fn scenario() -> impl Strategy<Value = Scenario> {
    let start = arb_variant().prop_flat_map(|variant| {
        prop_oneof![
            3 => Just(Model::from_text(variant, start_text(variant))),
            2 => arb_placement(variant),
        ]
    });
    (start, prop::collection::vec(any::<u32>(), 0..80))
        .prop_map(|(start, choices)| Scenario { start, choices })
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

/// Turns near the legal ones, mostly illegal: the placement dropped, added or moved onto
/// a piece, the capture flag flipped.
fn near_turns(model: &Model, legal: &BTreeSet<Turn>) -> Vec<Turn> {
    let occupied: Vec<Sq> = (0..64)
        .map(|i| (i % 8, i / 8))
        .filter(|&s| model.at(s).is_some())
        .collect();
    let mut out = Vec::new();
    for &turn in legal.iter().take(40) {
        out.push(Turn {
            capture: !turn.capture,
            ..turn
        });
        out.push(Turn {
            drop: match turn.drop {
                Some(_) => None,
                None => Some((3, 3)),
            },
            ..turn
        });
        if turn.drop.is_some() {
            for &s in occupied.iter().take(3) {
                out.push(Turn {
                    drop: Some(s),
                    ..turn
                });
            }
        }
    }
    out
}

fn move_of(turn: Turn) -> Option<Move> {
    let square = |(f, r): Sq| Square::from_coords(f as u8, r as u8);
    let base = match turn.step {
        None if turn.capture => return None,
        None => Move::PASS,
        Some((from, to)) => Move::new(square(from), square(to), turn.capture),
    };
    Some(match turn.drop {
        Some(s) => base.with_drop(square(s)),
        None => base,
    })
}

/// The checks on one position of a playout.
fn check_ply(ply: &Ply) {
    let Ply { pos, model, turns } = ply;
    let variant = model.variant;
    // Text and hash.
    assert_eq!(pos.to_string(), model.text(), "{variant}");
    let reread = VariantPosition::parse(variant, &model.text()).expect("the model's text");
    assert_eq!(&reread, pos, "{variant} {pos}");
    assert_eq!(reread.key(), pos.key(), "incremental hash of {pos}");
    // The legal turns.
    let moves = crate_turns(pos);
    let got: BTreeSet<Turn> = moves.iter().map(|&m| turn_of(m)).collect();
    assert_eq!(&got, turns, "legal turns of {variant} {pos}");
    assert_eq!(moves.len(), turns.len(), "duplicate turns in {pos}");
    assert_eq!(
        pos.count_moves(),
        turns.len() as u64,
        "count_moves of {pos}"
    );
    for near in near_turns(model, turns) {
        if let Some(mv) = move_of(near) {
            assert_eq!(pos.is_legal(mv), turns.contains(&near), "{mv} in {pos}");
        }
    }
    // The end of the game, as after a turn of the side not to move.
    for rules in [RuleSet::Draw, RuleSet::MoverWins] {
        assert_eq!(pos.outcome(rules), model.judge(rules), "{rules}: {pos}");
    }
    // The notation of every turn (a sample in Parachute, where there are thousands).
    let step = moves.len() / 60 + 1;
    for &mv in moves.iter().step_by(step) {
        assert_eq!(pos.parse_move(&mv.to_string()), Ok(mv), "'{mv}' in {pos}");
        assert_eq!(
            pos.parse_move(&mv.coordinate()),
            Ok(mv),
            "'{}' in {pos}",
            mv.coordinate()
        );
        let written = match (turn_of(mv).step, mv.drop()) {
            (None, None) => "pass".to_string(),
            (None, Some(d)) => format!("pass@{d}"),
            (Some((from, to)), drop) => {
                let sep = if mv.is_capture() { 'x' } else { '-' };
                let drop = drop.map(|d| format!("@{d}")).unwrap_or_default();
                format!("{}{sep}{}{drop}", square_name(from), square_name(to))
            }
        };
        assert_eq!(mv.to_string(), written);
    }
}

proptest! {
    #![proptest_config(config(400))]

    /// Legal turns, text, hash, outcome and notation agree with the model on every ply.
    #[test]
    fn every_ply_agrees_with_the_model(scn in scenario()) {
        let line = scn.line();
        for ply in &line {
            check_ply(ply);
        }
        // Each turn played: the end judged from what the turn changed.
        for pair in line.windows(2) {
            let (before, after) = (&pair[0], &pair[1]);
            let mv = before
                .pos
                .moves()
                .into_iter()
                .find(|&m| before.pos.after(m) == after.pos)
                .expect("the turn played");
            for rules in [RuleSet::Draw, RuleSet::MoverWins] {
                if before.model.judge(rules).is_none() {
                    prop_assert_eq!(
                        after.pos.outcome_after(mv, rules),
                        after.model.judge(rules),
                        "{} after {}", before.pos, mv
                    );
                }
            }
        }
        // Perft 2 by the crate and by the model, away from the start.
        let last = line.last().unwrap();
        if last.model.variant != Variant::Parachute {
            prop_assert_eq!(perft(&last.pos, 2), model::perft(&last.model, 2), "{}", last.pos);
        }
    }

    /// Whole games: the result of a game (repetition included) is the model's.
    #[test]
    fn games_end_as_the_model_says(
        scn in scenario(),
        rules in prop_oneof![Just(RuleSet::Draw), Just(RuleSet::MoverWins)],
    ) {
        let variant = scn.start.variant;
        let start = VariantPosition::parse(variant, &scn.start.text()).unwrap();
        let mut game = Game::new(start, rules);
        let mut history = vec![scn.start.clone()];
        prop_assert_eq!(game.outcome(), scn.start.judge(rules));
        for &choice in &scn.choices {
            if game.is_over() {
                break;
            }
            let moves = game.legal_moves();
            let mv = moves[choice as usize % moves.len()];
            game.play(mv).unwrap();
            let mut model = history.last().unwrap().clone();
            model.play(turn_of(mv));
            let occurrences = history.iter().filter(|m| **m == model).count() + 1;
            let expected = model
                .judge(rules)
                .or_else(|| (occurrences >= 3).then_some(Outcome::draw(Reason::Repetition)));
            prop_assert_eq!(game.outcome(), expected, "{} after {}", game.position(), mv);
            prop_assert_eq!(game.repetitions(), occurrences);
            history.push(model);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Parsers on any text
// ---------------------------------------------------------------------------------------

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    text_edits("bwBWAaLlMm0123456789/ @-x:pass\u{e9}\u{2003}")
}

proptest! {
    #![proptest_config(config(3000))]

    /// Whatever a position parser accepts prints and reads back the same; no text makes
    /// it panic.
    #[test]
    fn position_texts_never_panic_and_round_trip(variant in arb_variant(), edits in edits()) {
        let text = mutate(start_text(variant), &edits);
        if let Ok(pos) = VariantPosition::parse(variant, &text) {
            let again = VariantPosition::parse(variant, &pos.to_string()).unwrap();
            prop_assert_eq!(again, pos);
            prop_assert!(pos.pieces(Color::Black).any() || variant == Variant::Parachute);
        }
    }

    /// Whatever a turn parser accepts is legal; no text makes it panic.
    #[test]
    fn turn_texts_never_panic(variant in arb_variant(), edits in edits(), raw in ".{0,12}") {
        let start = variant.start(loa_core::BoardSize::Eight).unwrap();
        for text in [mutate("a6-c6@e5", &edits), mutate("b1-b3", &edits), raw] {
            if let Ok(mv) = start.parse_move(&text) {
                prop_assert!(start.is_legal(mv), "'{}' read as {}", text, mv);
            }
        }
    }
}
