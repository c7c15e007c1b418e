//! Search finds game ends exactly and scores them by distance.

use loa_core::variants::ParachutePosition;
use loa_core::{Color, GameState, Move, Position, RuleSet};
use loa_engine::solver::{SolveLimits, Solver, Verdict};
use loa_engine::{Engine, Score, SearchLimits, SearchResult};
use std::sync::atomic::AtomicBool;

fn search(text: &str, rules: RuleSet, depth: u32) -> (String, Score) {
    let pos: Position = text.parse().unwrap();
    let mut engine = Engine::new(16);
    let stop = AtomicBool::new(false);
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let mut last = None;
    let result = engine.search(&pos, &[], rules, &limits, &stop, |info| {
        last = Some(info.score);
    });
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
    let mut engine = Engine::new(1);
    let result = engine.search(
        &pos,
        &[],
        RuleSet::Draw,
        &SearchLimits::default(),
        &AtomicBool::new(false),
        |_| {},
    );
    assert_eq!(result.best, None);
}

#[test]
fn two_threads_find_the_same_connection_and_stop() {
    let pos: Position = "8/8/1w1wb3/8/1bww4/1ww1b3/2w2b2/8 w".parse().unwrap();
    let mut engine = Engine::new(16);
    engine.set_threads(2);
    assert_eq!(engine.threads(), 2);
    let limits = SearchLimits {
        depth: Some(6),
        ..SearchLimits::default()
    };
    let result = engine.search(
        &pos,
        &[],
        RuleSet::Draw,
        &limits,
        &AtomicBool::new(false),
        |_| {},
    );
    assert_eq!(result.best.unwrap().to_string(), "c2-c5");
    // An infinite search with helpers ends when stopped from outside.
    let start = Position::startpos();
    let stop = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        let handle = scope.spawn(|| {
            engine.search(
                &start,
                &[],
                RuleSet::Draw,
                &SearchLimits::default(),
                &stop,
                |_| {},
            )
        });
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
    let limits = SearchLimits {
        depth: Some(1),
        multipv: 64,
        ..SearchLimits::default()
    };
    // Every root move's score, given the positions played before the root.
    let scores = |history: &[u64]| {
        let mut engine = Engine::new(16);
        let mut scores = Vec::new();
        engine.search(
            &root,
            history,
            RuleSet::Draw,
            &limits,
            &AtomicBool::new(false),
            |info| scores.push((info.pv[0], info.score)),
        );
        assert_eq!(scores.len(), root.legal_moves().len());
        scores
    };
    let score_of = |scores: &[(Move, Score)], mv| scores.iter().find(|(m, _)| *m == mv).unwrap().1;
    // With the game's history c2-a2 is a draw; without it the same move is scored by the
    // board, so the draw comes from the repetition.
    assert_eq!(score_of(&scores(&keys), c2a2), Score::Cp(0));
    assert_ne!(score_of(&scores(&[]), c2a2), Score::Cp(0));
}

/// Whether the side to move can force a connection within `plies` plies, by brute force:
/// every move of ours, every reply of theirs, no pruning and nothing from the engine.
fn forced_win(pos: &Position, plies: u32, rules: RuleSet) -> bool {
    let us = pos.side_to_move();
    pos.legal_moves()
        .iter()
        .any(|&mv| winning_move(pos, mv, plies, rules, us))
}

fn winning_move(pos: &Position, mv: Move, plies: u32, rules: RuleSet, us: Color) -> bool {
    let child = pos.after(mv);
    match child.outcome(rules) {
        Some(outcome) => outcome.winner == Some(us),
        None if plies >= 3 => child.legal_moves().iter().all(|&reply| {
            let grandchild = child.after(reply);
            match grandchild.outcome(rules) {
                Some(outcome) => outcome.winner == Some(us),
                None => forced_win(&grandchild, plies - 2, rules),
            }
        }),
        None => false,
    }
}

/// The engine's score and move at `depth`, with the brute-force distance to the win.
fn check_forced_win(text: &str, moves: i32, rules: RuleSet) {
    let pos: Position = text.parse().unwrap();
    let shortest = (1..=moves as u32).find(|&n| forced_win(&pos, 2 * n - 1, rules));
    assert_eq!(shortest, Some(moves as u32), "brute force on {text}");
    let mut engine = Engine::new(16);
    let limits = SearchLimits {
        depth: Some(2 * moves as u32 + 1),
        ..SearchLimits::default()
    };
    let result = engine.search(&pos, &[], rules, &limits, &AtomicBool::new(false), |_| {});
    assert_eq!(result.score, Score::Mate(moves), "{text}");
    let best = result.best.unwrap();
    assert!(
        winning_move(&pos, best, 2 * moves as u32 - 1, rules, pos.side_to_move()),
        "{best} does not win in {moves} on {text}"
    );
}

#[test]
fn forced_wins_in_two_are_found_at_the_right_distance() {
    for text in [
        "3b4/3w1bb1/3ww3/4ww2/3b1w2/ww4w1/2b4b/4b2b w",
        "8/8/3b1wb1/w1wbwb2/2w1b1b1/1b6/w7/8 b",
        "8/6b1/3ww3/4b3/3b4/2bbb1w1/2w5/8 b",
    ] {
        check_forced_win(text, 2, RuleSet::Draw);
    }
}

#[test]
fn forced_wins_in_three_are_found_at_the_right_distance() {
    for text in [
        "8/2w5/2w1w3/1wbwb3/2ww4/2bbb3/3b1w2/8 w",
        "8/4w3/3b1w1b/4w2w/3wb3/2b1bw2/2bw4/5w2 w",
        "3w2w1/5bb1/5bbw/w5b1/b4w2/3bb3/8/2w5 b",
    ] {
        check_forced_win(text, 3, RuleSet::Draw);
    }
}

#[test]
fn a_simultaneous_connection_is_avoided_under_draw_and_taken_under_mover_wins() {
    // In each position one capture connects both sides at once, and a clean connection
    // takes two moves.
    for (text, simultaneous) in [
        ("8/1w6/8/3www2/2b1b3/3ww1w1/5w2/8 w", "b7xe4"),
        ("6w1/6w1/5w2/4ww2/b1b3ww/2bb4/2w5/1bb5 b", "a4xc2"),
        ("2b5/2b5/8/3wb3/3w1w2/3w4/1w6/8 w", "b2xe5"),
    ] {
        let pos: Position = text.parse().unwrap();
        let simultaneous = pos.parse_move(simultaneous).unwrap();
        // Under draw: the clean win in two, never the draw.
        check_forced_win(text, 2, RuleSet::Draw);
        let (best, score) = search(text, RuleSet::Draw, 5);
        assert_ne!(best, simultaneous.to_string(), "{text}");
        assert_eq!(score, Score::Mate(2));
        // Under mover-wins: the simultaneous connection wins at once.
        let (best, score) = search(text, RuleSet::MoverWins, 5);
        assert_eq!(best, simultaneous.to_string(), "{text}");
        assert_eq!(score, Score::Mate(1));
    }
}

/// A search with the solver beside it, to the end (a proved result or a connection the
/// search finds ends it) or to `depth`.
fn search_with_solver(pos: &Position, depth: Option<u32>) -> (SearchResult, Vec<Score>) {
    let mut engine = Engine::new(16);
    engine.set_solver(true);
    let limits = SearchLimits {
        depth,
        ..SearchLimits::default()
    };
    let mut scores = Vec::new();
    let result = engine.search(
        pos,
        &[],
        RuleSet::Draw,
        &limits,
        &AtomicBool::new(false),
        |info| {
            scores.push(info.score);
        },
    );
    (result, scores)
}

/// The solver's verdict, on its own.
fn solved(pos: &Position) -> Verdict {
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new(16, RuleSet::Draw, SolveLimits::default(), &stop).unwrap();
    solver.solve(&(*pos).into(), &[]).verdict
}

#[test]
fn with_the_solver_a_won_position_is_played_and_reported_as_a_win() {
    // Won in 6 moves (from the solver's test set); then the loser's side of it. The
    // search may see the connection before the solver proves it: this checks that with
    // the solver on, the answer is a win whose move the solver alone confirms (the
    // merge of a proof the search did not see is tested in the search's unit tests).
    let pos: Position = "1b2bbb1/2w5/2b2w2/2bb3w/1w1bw3/3b4/2w2w2/5w2 b"
        .parse()
        .unwrap();
    let (result, scores) = search_with_solver(&pos, None);
    assert!(
        matches!(scores.last(), Some(Score::Mate(n)) if *n > 0),
        "{scores:?}"
    );
    let after = pos.after(result.best.unwrap());
    assert_eq!(solved(&after), Verdict::Loss, "the move played wins");
    let (lost, scores) = search_with_solver(&after, None);
    assert!(lost.best.is_some());
    assert!(
        matches!(scores.last(), Some(Score::Mate(n)) if *n < 0),
        "{scores:?}"
    );
}

#[test]
fn the_solver_stops_with_the_search() {
    // The search ends at depth 1 at once; the solver is stopped with it, before a proof.
    let pos: Position = "1b2bbb1/2w5/2b2w2/2bb3w/1w1bw3/3b4/2w2w2/5w2 b"
        .parse()
        .unwrap();
    let (result, scores) = search_with_solver(&pos, Some(1));
    assert_eq!(result.depth, 1);
    assert_eq!(result.proven, None);
    assert_eq!(scores.len(), 1);
}

#[test]
fn the_solver_beside_the_search_takes_whole_parachute_turns() {
    // Black joins a1 and b3 with a1-a2 and places White's last piece on one of the
    // empty squares: some 600 turns, more than a move list holds.
    let pos: ParachutePosition = "7w/6w1/8/8/8/1b6/8/b7 b 0 1".parse().unwrap();
    let (stop, halt) = (AtomicBool::new(false), AtomicBool::new(false));
    let prove =
        |only| loa_engine::solver::beside::prove(&pos, &[], RuleSet::Draw, only, &stop, &halt);
    // Asked for the other side's win only (as on a clock), it proves nothing.
    assert_eq!(prove(Some(!pos.side_to_move())), None);
    assert!(!halt.load(std::sync::atomic::Ordering::Relaxed));
    assert_eq!(prove(Some(pos.side_to_move())).map(|p| p.win), Some(true));
    let proven = prove(None).expect("a proved result");
    assert!(proven.win);
    let best = proven.best.unwrap();
    let outcome = pos.after(best).outcome_after(best, RuleSet::Draw);
    assert_eq!(outcome.and_then(|o| o.winner), Some(pos.side_to_move()));
}

#[test]
fn a_search_stopped_before_any_root_move_is_searched_reports_no_line() {
    let start = Position::startpos();
    let mut engine = Engine::new(16);
    // Stopped from outside before it starts, or by a node limit at the root itself.
    let stopped = AtomicBool::new(true);
    let one_node = SearchLimits {
        nodes: Some(1),
        ..SearchLimits::default()
    };
    for (limits, stop) in [
        (SearchLimits::default(), &stopped),
        (one_node, &AtomicBool::new(false)),
    ] {
        let mut lines = Vec::new();
        let result = engine.search(&start, &[], RuleSet::Draw, &limits, stop, |info| {
            lines.push(info.clone());
        });
        assert_eq!(lines, []);
        assert_eq!(result.depth, 0);
        assert!(start.is_legal(result.best.unwrap()));
    }
    // After a search of the position, its best move is the answer.
    let depth_three = SearchLimits {
        depth: Some(3),
        ..SearchLimits::default()
    };
    let searched = engine.search(
        &start,
        &[],
        RuleSet::Draw,
        &depth_three,
        &AtomicBool::new(false),
        |_| {},
    );
    let again = engine.search(
        &start,
        &[],
        RuleSet::Draw,
        &SearchLimits::default(),
        &stopped,
        |_| {},
    );
    assert_eq!(again.best, searched.best);
}

#[test]
fn a_first_iteration_cut_short_reports_the_moves_it_searched_through() {
    // Black joins a1 and c1 with a1-b2 or a1-d1, and no other move; the search is
    // stopped within its first iteration, after it has searched some root moves.
    let pos: Position = "8/8/8/8/8/7w/8/b1b4w b".parse().unwrap();
    let connects = |mv: Move| {
        let outcome = pos.after(mv).outcome_after(mv, RuleSet::Draw);
        outcome.is_some_and(|o| o.winner == Some(Color::Black))
    };
    let legal = pos.legal_moves().len() as u64;
    let mut engine = Engine::new(16);
    let mut reported = 0;
    for nodes in 2..legal {
        engine.clear();
        let limits = SearchLimits {
            nodes: Some(nodes),
            ..SearchLimits::default()
        };
        let mut lines = Vec::new();
        let result = engine.search(
            &pos,
            &[],
            RuleSet::Draw,
            &limits,
            &AtomicBool::new(false),
            |info| {
                lines.push(info.clone());
            },
        );
        // Each line reported is a move searched through, with its true value: a
        // connection for a winning move, a lesser score for any other.
        for info in &lines {
            assert_eq!(info.depth, 1);
            assert_eq!(
                info.score == Score::Mate(1),
                connects(info.pv[0]),
                "{nodes}: {info:?}"
            );
            reported += 1;
        }
        assert!(pos.is_legal(result.best.unwrap()));
    }
    assert!(reported > 0);
}

/// Positions of self-play games won for the side to move in 5 or 6 moves.
const DEEP_WINS: &str = include_str!("data/solver-wins-deep.txt");

/// Whether the side to move at `pos` wins with `mv`: the solver proves the opponent's
/// position lost within 5 million nodes (a move that connects at once wins outright).
fn wins(pos: &Position, mv: Move, rules: RuleSet) -> bool {
    let after = pos.after(mv);
    if let Some(outcome) = after.outcome_after(mv, rules) {
        return outcome.winner == Some(pos.side_to_move());
    }
    let stop = AtomicBool::new(false);
    let limits = SolveLimits {
        nodes: Some(5_000_000),
        time: None,
    };
    let mut solver = Solver::new(64, rules, limits, &stop).unwrap();
    solver.solve(&after.into(), &[]).verdict == Verdict::Loss
}

/// The engine at a node budget it covers in about a tenth of a second plays a winning
/// move in each of the 21 positions won in 5 or 6 moves (the solver proves 20 of them
/// in under 0.6 s, the last in 4.3 s, as recorded in the file).
#[test]
fn the_engine_plays_a_winning_move_where_a_win_is_forced() {
    let mut missed = Vec::new();
    for line in DEEP_WINS.lines().filter(|l| !l.starts_with('#')) {
        let pos: Position = line.split(';').next().unwrap().trim().parse().unwrap();
        let mut engine = Engine::new(16);
        let stop = AtomicBool::new(false);
        let limits = SearchLimits {
            nodes: Some(150_000),
            ..SearchLimits::default()
        };
        let best = engine
            .search(&pos, &[], RuleSet::Draw, &limits, &stop, |_| {})
            .best
            .unwrap();
        if !wins(&pos, best, RuleSet::Draw) {
            missed.push(format!("{pos}: {best}"));
        }
    }
    assert!(missed.is_empty(), "winning moves missed: {missed:#?}");
}
