use super::extract::Draft;
use super::*;
use crate::{Engine, Score, SearchLimits};
use loa_core::certificate::{verify_certificate, write_certificate};
use loa_core::{BoardSize, MoveList, Position, Variant};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

fn solve(pos: &VariantPosition, rules: RuleSet) -> Solution {
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new(64, rules, SolveLimits::default(), &stop).unwrap();
    solver.solve(pos, &[])
}

/// A pseudo-random index below `len`, from a linear congruential generator.
fn next_index(seed: &mut u64, len: usize) -> usize {
    *seed = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    (*seed >> 33) as usize % len
}

/// Positions of games played by a fixed sequence of pseudo-random moves on `size`.
fn playout_positions(size: BoardSize, games: u64) -> Vec<Position> {
    let mut positions = Vec::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    for _ in 0..games {
        let mut pos = Variant::Standard.standard_start(size).unwrap();
        for _ in 0..150 {
            let moves = GameState::moves(&pos);
            let mv = moves[next_index(&mut seed, moves.len())];
            GameState::play(&mut pos, mv);
            if pos.outcome_after(mv, RuleSet::Draw).is_some() {
                break;
            }
            positions.push(pos);
        }
    }
    positions
}

/// The search's verdict at `depth`: a connection found within it, or nothing.
fn search_mate(pos: &Position, rules: RuleSet, depth: u32) -> Option<i32> {
    let stop = AtomicBool::new(false);
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let mut engine = Engine::new(4);
    let mut score = None;
    engine.search(pos, &[], rules, &limits, &stop, |info| {
        score = Some(info.score);
    });
    match score? {
        Score::Mate(n) => Some(n),
        Score::Cp(_) => None,
    }
}

#[test]
fn wins_and_losses_the_search_finds_are_proved_and_the_proofs_check() {
    let mut checked = [0, 0];
    for pos in playout_positions(BoardSize::Eight, 12) {
        let Some(mate) = search_mate(&pos, RuleSet::Draw, 5) else {
            continue;
        };
        let solution = solve(&pos.into(), RuleSet::Draw);
        let expected = if mate > 0 {
            Verdict::Win
        } else {
            Verdict::Loss
        };
        assert_eq!(
            solution.verdict, expected,
            "{pos}: the search says mate {mate}"
        );
        let proof = solution.proof.expect("a proof");
        let winner = if mate > 0 {
            pos.side_to_move()
        } else {
            !pos.side_to_move()
        };
        assert_eq!(proof.winner, winner);
        proof.verify().unwrap_or_else(|e| panic!("{pos}: {e}"));
        checked[usize::from(mate < 0)] += 1;
    }
    assert!(
        checked[0] >= 10 && checked[1] >= 1,
        "too few positions: {checked:?}"
    );
}

#[test]
fn both_rule_sets_on_a_small_board() {
    for rules in [RuleSet::Draw, RuleSet::MoverWins] {
        let mut proved = 0;
        for pos in playout_positions(BoardSize::Six, 6) {
            let Some(mate) = search_mate(&pos, rules, 5) else {
                continue;
            };
            let solution = solve(&pos.into(), rules);
            let expected = if mate > 0 {
                Verdict::Win
            } else {
                Verdict::Loss
            };
            assert_eq!(solution.verdict, expected, "{pos} {rules}");
            let proof = solution.proof.unwrap();
            assert_eq!(proof.rules, rules);
            proof.verify().unwrap();
            proved += 1;
        }
        assert!(proved >= 3, "{rules}: {proved}");
    }
}

#[test]
fn a_stopped_solver_says_unknown() {
    let stop = AtomicBool::new(true);
    let start = Variant::Standard.start(BoardSize::Six).unwrap();
    let mut solver = Solver::new(4, RuleSet::Draw, SolveLimits::default(), &stop).unwrap();
    let solution = solver.solve(&start, &[]);
    assert_eq!(solution.verdict, Verdict::Unknown);
    assert!(solution.proof.is_none());
}

#[test]
fn an_unknown_result_reports_how_far_each_root_move_got() {
    let moves = Position::startpos().moves();
    let solution = Solution {
        verdict: Verdict::Unknown,
        best: None,
        proof: None,
        nodes: 100,
        elapsed: Duration::ZERO,
        proof_elapsed: Duration::ZERO,
        root_numbers: (Color::Black, 2, 9),
        root_moves: vec![(moves[0], 5, 0), (moves[1], 7, 3), (moves[2], 2, 4)],
    };
    assert_eq!(
        solution.root_moves_report(Color::Black, 5),
        format!(
            "root moves: 1 of 3 (the other 2 are their mirror images) shown not to win for \
             Black; open (proof/disproof numbers): {} 2/4, {} 7/3",
            moves[2], moves[1]
        )
    );
    // At the defender's turn every move has to lose: those proved so are the progress,
    // and the nearest to refuting the win come first.
    let defended = Solution {
        root_numbers: (Color::White, 9, 2),
        root_moves: vec![(moves[0], 0, INF), (moves[1], 7, 3), (moves[2], 2, 4)],
        ..solution.clone()
    };
    assert_eq!(
        defended.root_moves_report(Color::Black, 3),
        format!(
            "root moves: 1 of 3 shown to lose to White's win; open (proof/disproof numbers): \
             {} 7/3, {} 2/4",
            moves[1], moves[2]
        )
    );
    // Beyond twenty open moves, the rest are counted.
    let many = Solution {
        root_moves: Position::startpos()
            .moves()
            .iter()
            .map(|&mv| (mv, 5, 5))
            .collect(),
        ..solution
    };
    let report = many.root_moves_report(Color::Black, 36);
    assert_eq!(report.matches('/').count(), 21, "{report}");
    assert!(report.ends_with(", and 16 more"), "{report}");
}

#[test]
fn parachute_turns_beyond_a_move_lists_capacity_are_solved() {
    use loa_core::variants::ParachutePosition;
    // Black joins a1 and b3 with a1-a2 and places White's last piece anywhere empty.
    let win: ParachutePosition = "7w/6w1/8/8/8/1b6/8/b7 b 0 1".parse().unwrap();
    assert!(win.count_moves() > MoveList::CAPACITY as u64);
    let solution = solve(&win.into(), RuleSet::Draw);
    assert_eq!(solution.verdict, Verdict::Win);
    solution.proof.unwrap().verify().unwrap();
    // The start: every one of its 936 turns gets its numbers before the time runs out.
    let start = ParachutePosition::start();
    assert_eq!(start.count_moves(), 936);
    let stop = AtomicBool::new(false);
    let limits = SolveLimits {
        nodes: Some(1),
        ..SolveLimits::default()
    };
    let mut solver = Solver::new(4, RuleSet::Draw, limits, &stop).unwrap();
    let solution = solver.solve(&start.into(), &[]);
    assert_eq!(solution.verdict, Verdict::Unknown);
    assert_eq!(solution.root_moves.len(), 936);
}

#[test]
fn a_symmetric_position_searches_one_move_of_each_set_of_images_and_proves_them_all() {
    // Each keeps its shape upside down and left to right (the first two also with ranks
    // and files exchanged); the values were found without the symmetries.
    let cases = [
        ("b4b/1w2w1/6/6/1w2w1/b4b b", Verdict::Loss),
        ("b4b/1w2w1/6/6/1w2w1/b4b w", Verdict::Win),
        ("1b2b1/w4w/6/6/w4w/1b2b1 b", Verdict::Win),
        ("1b2b1/w4w/6/6/w4w/1b2b1 w", Verdict::Win),
        ("2bb2/6/w4w/w4w/6/2bb2 b", Verdict::Win),
    ];
    let stop = AtomicBool::new(false);
    for (text, verdict) in cases {
        let pos: Position = text.parse().unwrap();
        assert_ne!(pos.symmetries(), 0, "{text}");
        let mut nodes = Vec::new();
        // After a history the images are searched too: a repetition of a position before
        // the root need not look the same in an image.
        for history in [vec![], vec![Position::startpos().key()]] {
            let mut solver = Solver::new(8, RuleSet::Draw, SolveLimits::default(), &stop).unwrap();
            let solution = solver.solve(&pos.into(), &history);
            assert_eq!(solution.verdict, verdict, "{text}");
            // The proof answers every move, the images included.
            solution.proof.unwrap().verify().unwrap();
            nodes.push(solution.nodes);
        }
        assert!(nodes[0] < nodes[1], "{text}: {nodes:?}");
    }
}

#[test]
fn the_start_of_6x6_has_six_first_moves_up_to_its_symmetries() {
    let start: Position = "1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b".parse().unwrap();
    let moves = GameState::moves(&start);
    assert_eq!(moves.len(), 24);
    let distinct = distinct_up_to(start.symmetries(), &moves, BoardSize::Six);
    assert_eq!(distinct.len(), 6);
    // Every move is one of them, or one of them seen through a symmetry of the start.
    let symmetries = (1..8).filter(|i| start.symmetries() & 1 << i != 0);
    for mv in moves {
        assert!(
            distinct.contains(&mv)
                || (symmetries.clone()).any(|i| distinct.contains(&symmetry::move_image(
                    mv,
                    i,
                    BoardSize::Six
                ))),
            "{mv}"
        );
    }
}

/// The shipped test set: positions of self-play games won for the side to move, each
/// with the search's distance to the connection and the proof found when it was made.
const TEST_SET: &str = include_str!("../../tests/data/solver-wins.txt");
/// Positions won in 5 or 6 moves.
const DEEP_TEST_SET: &str = include_str!("../../tests/data/solver-wins-deep.txt");

fn test_set() -> Vec<(Position, String)> {
    read_set(TEST_SET)
}

fn read_set(text: &str) -> Vec<(Position, String)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (text, rest) = l.split_once(';').unwrap();
            (text.trim().parse().unwrap(), rest.trim().to_string())
        })
        .collect()
}

/// Proves every position of a set, checks each proof and that its size and longest line
/// are the ones recorded, and each proof's certificate; returns the certificates' entries
/// in all.
fn prove_set(set: &[(Position, String)]) -> u64 {
    let mut entries = 0;
    for (pos, recorded) in set {
        let solution = solve(&(*pos).into(), RuleSet::Draw);
        assert_eq!(solution.verdict, Verdict::Win, "{pos}");
        let proof = solution.proof.unwrap();
        let summary = proof.verify().unwrap();
        let size = format!(
            "proof {} nodes, {} moves, longest line {}",
            summary.nodes, summary.moves, summary.depth
        );
        assert!(
            recorded.contains(&size),
            "{pos}: {size}, recorded {recorded}"
        );
        let mut certificate = Vec::new();
        let written = write_certificate(&proof, &mut certificate).unwrap();
        let (_, checked) = verify_certificate(&mut &certificate[..], None, &mut |_, _| {}).unwrap();
        assert_eq!(checked, written, "{pos}");
        // Wins at once are left out, so no line is longer than the proof's.
        assert!(checked.depth <= summary.depth as u32, "{pos}");
        entries += checked.entries;
    }
    entries
}

#[test]
fn the_test_set_is_proved_with_proofs_of_the_recorded_size() {
    let set = test_set();
    assert!(set.len() >= 200, "{} positions", set.len());
    assert_eq!(prove_set(&set), 1820, "the certificates' entries");
}

#[test]
fn two_threads_prove_what_one_proves() {
    // The helpers share the table: whatever they store must keep proofs sound.
    let stop = AtomicBool::new(false);
    for (pos, _) in read_set(DEEP_TEST_SET).iter().take(8) {
        let mut solver = Solver::new(8, RuleSet::Draw, SolveLimits::default(), &stop).unwrap();
        solver.set_threads(2);
        let solution = solver.solve(&(*pos).into(), &[]);
        assert_eq!(solution.verdict, Verdict::Win, "{pos}");
        solution.proof.unwrap().verify().unwrap();
    }
}

#[test]
fn a_kept_table_goes_on_from_the_last_solve_of_the_game() {
    // As beside a search on a clock: the winner's next position, after the proof's move
    // and a reply, is proved from what the first solve left in the table.
    let stop = AtomicBool::new(false);
    let table = Arc::new(Table::new(16).unwrap());
    let prove = |pos: &Position, history: &[u64], table: Arc<Table>| {
        let limits = SolveLimits::default();
        let mut solver = Solver::over(table, true, RuleSet::Draw, limits, &stop);
        solver.prove_only(pos.side_to_move());
        solver.solve(&(*pos).into(), history)
    };
    let (start, _) = read_set(DEEP_TEST_SET)[0];
    let first = prove(&start, &[], Arc::clone(&table));
    assert_eq!(first.verdict, Verdict::Win);
    let after = start.after(first.best.unwrap());
    let history = [start.key(), after.key()];
    // The reply that leaves the hardest win to prove afresh.
    let (fresh, next) = (GameState::moves(&after).into_iter())
        .filter(|&mv| after.after(mv).outcome_after(mv, RuleSet::Draw).is_none())
        .map(|mv| after.after(mv))
        .map(|next| {
            (
                prove(&next, &history, Arc::new(Table::new(16).unwrap())),
                next,
            )
        })
        .max_by_key(|(fresh, _)| fresh.nodes)
        .unwrap();
    let kept = prove(&next, &history, Arc::clone(&table));
    assert_eq!((kept.verdict, fresh.verdict), (Verdict::Win, Verdict::Win));
    kept.proof.unwrap().verify().unwrap();
    assert!(
        fresh.nodes > 100 && kept.nodes * 10 < fresh.nodes,
        "{} nodes with the kept table, {} without",
        kept.nodes,
        fresh.nodes
    );
}

#[test]
fn wins_in_5_and_6_moves_are_proved() {
    let set = read_set(DEEP_TEST_SET);
    assert!(set.len() >= 20, "{} positions", set.len());
    assert_eq!(prove_set(&set), 5488, "the certificates' entries");
}

/// A self-play game: the engine at depth 3 against itself after four random moves; the
/// positions after each move, the end excepted.
fn self_play_game(engine: &mut Engine, seed: &mut u64) -> Vec<Position> {
    let stop = AtomicBool::new(false);
    let mut pos = Position::startpos();
    let mut line = Vec::new();
    for ply in 0..300 {
        let mv = if ply < 4 {
            let moves = GameState::moves(&pos);
            moves[next_index(seed, moves.len())]
        } else {
            let limits = SearchLimits {
                depth: Some(3),
                ..SearchLimits::default()
            };
            engine
                .search(&pos, &[], RuleSet::Draw, &limits, &stop, |_| {})
                .best
                .unwrap()
        };
        GameState::play(&mut pos, mv);
        if pos.outcome_after(mv, RuleSet::Draw).is_some() {
            break;
        }
        line.push(pos);
    }
    line
}

/// Writes the test set from self-play: the engine at depth 3 against itself after four
/// random moves; every position where a depth-6 search sees the side to move connect
/// two or more moves ahead (`--ignored --nocapture`, then into the data file).
#[test]
#[ignore = "writes the test set"]
fn make_the_test_set() {
    let mut engine = Engine::new(16);
    let mut seed = 2026_u64;
    let mut found = 0;
    let mut game = 0;
    while found < 240 {
        game += 1;
        for (ply, pos) in self_play_game(&mut engine, &mut seed)
            .into_iter()
            .enumerate()
        {
            let Some(n) = search_mate(&pos, RuleSet::Draw, 6).filter(|&n| n >= 2) else {
                continue;
            };
            let solution = solve(&pos.into(), RuleSet::Draw);
            if solution.verdict == Verdict::Win {
                let s = solution.proof.unwrap().verify().unwrap();
                println!(
                    "SET {pos}; game {game} ply {}; mate {n}; proof {} nodes, {} moves, longest line {}",
                    ply + 1,
                    s.nodes,
                    s.moves,
                    s.depth
                );
                found += 1;
            }
        }
    }
}

/// The solver against the alpha-beta search on the test set: the time each takes to
/// show the win (the search's first connection score, the solver's proof). Prints the
/// figures of docs/solver.md (`--release --ignored --nocapture`).
#[test]
#[ignore = "measures the solver against the search"]
fn compare_with_the_search_on_the_test_set() {
    let mut search_times = Vec::new();
    let mut solver_times = Vec::new();
    let mut solver_nodes = 0;
    for (pos, _) in test_set() {
        let stop = AtomicBool::new(false);
        let mut engine = Engine::new(16);
        let limits = SearchLimits {
            time: Some(crate::TimeLimit::Fixed(std::time::Duration::from_secs(10))),
            ..SearchLimits::default()
        };
        let started = Instant::now();
        let mut found = None;
        engine.search(&pos, &[], RuleSet::Draw, &limits, &stop, |info| {
            if found.is_none() && matches!(info.score, Score::Mate(n) if n > 0) {
                found = Some(started.elapsed());
                stop.store(true, Ordering::Relaxed);
            }
        });
        search_times.push(found.unwrap_or(Duration::from_secs(10)));
        let started = Instant::now();
        let solution = solve(&pos.into(), RuleSet::Draw);
        solver_times.push(started.elapsed());
        solver_nodes += solution.nodes;
        assert_eq!(solution.verdict, Verdict::Win);
    }
    search_times.sort();
    solver_times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let total = |v: &[Duration]| v.iter().map(|d| ms(*d)).sum::<f64>();
    let n = search_times.len();
    println!(
        "{n} positions; search to its first connection score: median {:.2} ms, slowest {:.1} ms, total {:.0} ms; \
         solver to a checked proof: median {:.2} ms, slowest {:.1} ms, total {:.0} ms, {} nodes",
        ms(search_times[n / 2]),
        ms(search_times[n - 1]),
        total(&search_times),
        ms(solver_times[n / 2]),
        ms(solver_times[n - 1]),
        total(&solver_times),
        solver_nodes
    );
}

/// Positions won in 5 or 6 moves: in the self-play games of [`make_the_test_set`],
/// the positions two and four plies before one won in 4, checked by a depth-11 search
/// (`--release --ignored --nocapture`, then into `solver-wins-deep.txt`).
#[test]
#[ignore = "writes the deep part of the test set"]
fn make_the_deep_test_set() {
    let mut engine = Engine::new(16);
    let mut seed = 2026_u64;
    let mut found = 0;
    for game in 1..=60 {
        let line = self_play_game(&mut engine, &mut seed);
        for (i, pos) in line.iter().enumerate() {
            if search_mate(pos, RuleSet::Draw, 6) != Some(4) {
                continue;
            }
            for back in [2, 4] {
                let Some(earlier) = i.checked_sub(back).map(|j| line[j]) else {
                    continue;
                };
                let Some(mate) = search_mate(&earlier, RuleSet::Draw, 11) else {
                    continue;
                };
                if !(5..=6).contains(&mate) {
                    continue;
                }
                let started = Instant::now();
                let solution = solve(&earlier.into(), RuleSet::Draw);
                let took = started.elapsed();
                if solution.verdict == Verdict::Win {
                    let s = solution.proof.unwrap().verify().unwrap();
                    println!(
                        "DEEP {earlier}; game {game} ply {}; mate {mate}; proof {} nodes, {} moves, longest line {}; {:.0} ms",
                        i + 1 - back,
                        s.nodes,
                        s.moves,
                        s.depth,
                        took.as_secs_f64() * 1e3
                    );
                    found += 1;
                }
            }
        }
        if found >= 30 {
            break;
        }
    }
}

/// Two threads against one, side by side, on 6x6 positions a few random plies from the
/// start that take one thread seconds: the threads figure of docs/solver.md
/// (`--release --ignored --nocapture`, nothing else running).
#[test]
#[ignore = "measures two threads against one"]
fn measure_two_threads_on_6x6_middle_games() {
    let set = read_set(include_str!("../../tests/data/solver-threads-6x6.txt"));
    // Whole solves and, of them, the proofs' writing, on one thread
    // and on two.
    let (mut seconds, mut writing) = ([0.0; 2], [0.0; 2]);
    let mut log_ratio = 0.0;
    for (pos, rest) in &set {
        let expected = if rest.starts_with("win") {
            Verdict::Win
        } else {
            Verdict::Loss
        };
        let (mut taken, mut written) = ([0.0; 2], [0.0; 2]);
        for (index, threads) in [1, 2].into_iter().enumerate() {
            let stop = AtomicBool::new(false);
            let mut solver =
                Solver::new(256, RuleSet::Draw, SolveLimits::default(), &stop).unwrap();
            solver.set_threads(threads);
            let started = Instant::now();
            let solution = solver.solve(&(*pos).into(), &[]);
            taken[index] = started.elapsed().as_secs_f64();
            written[index] = solution.proof_elapsed.as_secs_f64();
            assert_eq!(solution.verdict, expected, "{pos} on {threads} threads");
        }
        println!(
            "{pos}: {:.2} s on one thread, {:.2} s on two (of them writing the proof {:.2} s and {:.2} s)",
            taken[0], taken[1], written[0], written[1]
        );
        for index in 0..2 {
            seconds[index] += taken[index];
            writing[index] += written[index];
        }
        log_ratio += (taken[0] / taken[1]).ln();
    }
    println!(
        "{} positions: {:.1} s on one thread, {:.1} s on two ({:.2}x; {:.2}x the geometric mean of the positions' ratios); the searches alone {:.1} s and {:.1} s ({:.2}x)",
        set.len(),
        seconds[0],
        seconds[1],
        seconds[0] / seconds[1],
        (log_ratio / set.len() as f64).exp(),
        seconds[0] - writing[0],
        seconds[1] - writing[1],
        (seconds[0] - writing[0]) / (seconds[1] - writing[1]),
    );
}

#[test]
fn a_proof_whose_positions_are_proved_again_beyond_their_budget_is_written_on_a_larger_one() {
    let root = read_set(DEEP_TEST_SET)[9].0;
    for threads in [1, 2] {
        let stop = AtomicBool::new(false);
        let mut solver = Solver::new(16, RuleSet::Draw, SolveLimits::default(), &stop).unwrap();
        solver.set_threads(threads);
        assert_eq!(solver.solve(&root.into(), &[]).verdict, Verdict::Win);
        // The table lost all it knew: the root is proved again, in more than 1,024 nodes.
        Arc::get_mut(&mut solver.table).unwrap().clear();
        let mut draft = Draft::new(&[], 1);
        assert_eq!(solver.extract_node(&root, &mut draft), None);
        assert!(draft.gave_up && !solver.stopped, "{threads} threads");
        Arc::get_mut(&mut solver.table).unwrap().clear();
        let proof = solver.extract_within(&root, &[], 1).unwrap();
        proof.verify().unwrap();
    }
}

/// Writes the lines of `tests/data/solver-threads-6x6.txt`: 6x6 positions 4 to 6
/// pseudo-random plies from the start (no move ending the game) that one thread solves,
/// its proof written, in 2 to 20 million nodes with a 256 MB table (`--release --ignored
/// --nocapture`).
#[test]
#[ignore = "writes the threads set"]
fn write_the_threads_set() {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut found = 0;
    while found < 27 {
        let mut pos = Variant::Standard.standard_start(BoardSize::Six).unwrap();
        let plies = 4 + next_index(&mut seed, 3);
        let mut over = false;
        for _ in 0..plies {
            let moves = GameState::moves(&pos);
            let mv = moves[next_index(&mut seed, moves.len())];
            GameState::play(&mut pos, mv);
            over |= pos.outcome_after(mv, RuleSet::Draw).is_some();
        }
        if over {
            continue;
        }
        let stop = AtomicBool::new(false);
        let limits = SolveLimits {
            time: None,
            nodes: Some(20_000_000),
        };
        let mut solver = Solver::new(256, RuleSet::Draw, limits, &stop).unwrap();
        let solution = solver.solve(&pos.into(), &[]);
        let verdict = match solution.verdict {
            Verdict::Win => "win",
            Verdict::Loss => "loss",
            _ => continue,
        };
        // A proof cut short by the limit as it was written: more nodes than counted.
        if solution.proof.is_none() || solution.nodes < 2_000_000 {
            continue;
        }
        found += 1;
        let digits = solution.nodes.to_string();
        let mut nodes = String::new();
        for (i, digit) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                nodes.push(',');
            }
            nodes.push(digit);
        }
        println!("{pos}; {verdict}; one thread {nodes} nodes");
    }
}
