//! Search finds game ends exactly and scores them by distance.

use loa_core::{Position, RuleSet};
use loa_engine::{Engine, Limits, Score};
use std::sync::atomic::AtomicBool;

fn search(text: &str, rules: RuleSet, depth: u32) -> (String, Score) {
    let pos: Position = text.parse().unwrap();
    let mut engine = Engine::new(16, rules);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut last = None;
    let result = engine.search(&pos, &[], &limits, &stop, |info| last = Some(info.score));
    (result.best.unwrap().to_string(), last.unwrap())
}

#[test]
fn connects_at_once_at_depth_one() {
    // The seed example: c2-c5 joins White's pieces.
    let (mv, score) = search("8/8/1w1wb3/8/1bww4/1ww1b3/2w2b2/8 w", RuleSet::Draw, 1);
    assert_eq!(mv, "c2-c5");
    assert_eq!(score, Score::Mate(1));
}

#[test]
fn game_over_at_the_root_has_no_move() {
    let pos: Position = "8/8/8/3bb3/3ww3/8/8/8 b".parse().unwrap();
    let mut engine = Engine::new(1, RuleSet::Draw);
    let result = engine.search(
        &pos,
        &[],
        &Limits::default(),
        &AtomicBool::new(false),
        |_| {},
    );
    assert_eq!(result.best, None);
}

#[test]
fn two_threads_find_the_same_connection_and_stop() {
    let pos: Position = "8/8/1w1wb3/8/1bww4/1ww1b3/2w2b2/8 w".parse().unwrap();
    let mut engine = Engine::new(16, RuleSet::Draw);
    engine.set_threads(2);
    assert_eq!(engine.threads(), 2);
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let result = engine.search(&pos, &[], &limits, &AtomicBool::new(false), |_| {});
    assert_eq!(result.best.unwrap().to_string(), "c2-c5");
    // An infinite search with helpers ends when stopped from outside.
    let start = Position::startpos();
    let stop = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        let handle = scope.spawn(|| engine.search(&start, &[], &Limits::default(), &stop, |_| {}));
        std::thread::sleep(std::time::Duration::from_millis(200));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        handle.join().unwrap()
    });
    assert!(start.is_legal(result.best.unwrap()));
    assert!(result.depth >= 2, "searched {} plies", result.depth);
}

#[test]
fn a_third_repetition_scores_as_a_draw() {
    // After b1-b3 a2-c2 b3-b1 c2-a2 b1-b3 a2-c2 b3-b1 the start has occurred twice, and
    // c2-a2 would bring it back a third time: a draw, whatever the board says.
    let mut game = loa_core::Game::new(Position::startpos(), RuleSet::Draw);
    for mv in [
        "b1-b3", "a2-c2", "b3-b1", "c2-a2", "b1-b3", "a2-c2", "b3-b1",
    ] {
        game.play_text(mv).unwrap();
    }
    let mut keys = Vec::new();
    let mut pos = *game.start();
    for mv in game.moves() {
        keys.push(pos.hash());
        pos.play(mv);
    }
    let root = *game.position();
    let c2a2 = root.parse_move("c2-a2").unwrap();
    let mut engine = Engine::new(16, RuleSet::Draw);
    let limits = Limits {
        depth: Some(1),
        multipv: 64,
        ..Limits::default()
    };
    let mut scores = Vec::new();
    engine.search(&root, &keys, &limits, &AtomicBool::new(false), |info| {
        scores.push((info.pv[0], info.score));
    });
    assert_eq!(scores.len(), root.legal_moves().len());
    let draw: Vec<_> = scores.iter().filter(|(_, s)| *s == Score::Cp(0)).collect();
    assert_eq!(draw, [&(c2a2, Score::Cp(0))]);
}
