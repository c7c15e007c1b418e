//! `loa engine` run as a GUI runs it: scripted sessions over pipes, read line by line.

use loa_core::{Game, Position, RuleSet};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use std::time::{Duration, Instant};

mod common;

use common::engine::Loa;

const ERROR: &str = "info string error: ";
const START: &str = "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b";
const SIX: &str = "1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b";
const SEVEN: &str = "1bbbbb1/w5w/w5w/w5w/w5w/w5w/1bbbbb1 b";
/// White wins with c2c5.
const WHITE_WINS_NEXT: &str = "8/8/1w1wb3/8/1bww4/1ww1b3/2w2b2/8 w";
/// c6a4 connects both sides at once.
const BOTH_CONNECT_NEXT: &str = "8/2w5/2b5/b7/w7/8/8/8 b";
/// Black has no move and must pass.
const BLACK_MUST_PASS: &str = "bw6/ww6/8/8/8/8/ww6/bw6 b";

/// The legal moves of a game in coordinate form, in generation order.
fn coordinates(game: &Game) -> Vec<String> {
    game.legal_moves().iter().map(|m| m.coordinate()).collect()
}

fn game(text: &str, moves: &[&str]) -> Game {
    let mut game = Game::new(text.parse::<Position>().unwrap(), RuleSet::Draw);
    for mv in moves {
        game.play_text(mv).unwrap();
    }
    game
}

/// Asserts that `command` prints exactly one error line holding `fragment`, and that
/// the engine still answers.
fn assert_error(loa: &mut Loa, command: &str, fragment: &str) {
    let lines = loa.ask(command);
    assert_eq!(lines.len(), 1, "{command}: {lines:?}");
    assert!(lines[0].starts_with(ERROR), "{command}: {}", lines[0]);
    assert!(lines[0].contains(fragment), "{command}: {}", lines[0]);
    assert!(loa.sync().is_empty());
}

/// The position text that `d` prints.
fn shown_position(loa: &mut Loa) -> String {
    let lines = loa.ask("d");
    let line = lines
        .iter()
        .find(|l| l.starts_with("position "))
        .unwrap_or_else(|| panic!("{lines:?}"));
    line["position ".len()..].to_string()
}

/// Checks an info line: every field in order, and a legal principal variation.
fn check_info(line: &str, game: &Game) {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[0], "info", "{line}");
    let keys = [
        "depth", "seldepth", "score", "nodes", "nps", "time", "hashfull",
    ];
    let mut i = 1;
    for key in keys {
        assert_eq!(words.get(i), Some(&key), "{line}");
        if key == "score" {
            assert!(matches!(words[i + 1], "cp" | "mate"), "{line}");
            words[i + 2].parse::<i32>().expect("score value");
            i += 3;
        } else {
            words[i + 1].parse::<u64>().expect("a number");
            i += 2;
        }
    }
    assert_eq!(words.get(i), Some(&"pv"), "{line}");
    // The principal variation is legal from the position.
    let mut game = game.clone();
    for mv in &words[i + 1..] {
        assert_eq!(mv.len(), 4, "coordinate form: {line}");
        game.play_text(mv)
            .unwrap_or_else(|e| panic!("{line}: {mv}: {e}"));
    }
}

/// Asserts that `best` is a legal move of `game` in coordinate form.
fn assert_legal(best: &str, game: &Game) {
    assert!(
        coordinates(game).iter().any(|m| m == best),
        "bestmove {best} is not legal in {}",
        game.position()
    );
}

#[test]
fn a_level_plays_as_the_sites_level_inside_the_clock() {
    let mut loa = Loa::start();
    let deepest = |infos: &[String]| {
        (infos.iter())
            .filter_map(|l| {
                l.strip_prefix("info depth ")?
                    .split(' ')
                    .next()?
                    .parse()
                    .ok()
            })
            .max()
    };
    assert!(loa.ask("setoption name Level value 5").is_empty());
    assert!(loa.ask("position startpos").is_empty());
    let (infos, _) = loa.go("go wtime 60000 btime 60000");
    assert_eq!(deepest(&infos), Some(3), "{infos:?}");
    // Level 1 draws its move among the first ply's moves: not always the same one.
    assert!(loa.ask("setoption name Level value 1").is_empty());
    let start = game(START, &[]);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..12 {
        let (infos, best) = loa.go("go movetime 1000");
        assert_eq!(deepest(&infos), Some(1), "{infos:?}");
        assert!(coordinates(&start).contains(&best), "{best}");
        seen.insert(best);
    }
    assert!(seen.len() > 1, "always {seen:?}");
    // Back to full strength: the depth asked is searched.
    assert!(loa.ask("setoption name Level value 0").is_empty());
    let (infos, _) = loa.go("go depth 5");
    assert_eq!(deepest(&infos), Some(5), "{infos:?}");
    assert_error(
        &mut loa,
        "setoption name Level value 9",
        "Level value 9 is out of range: it must be from 0 to 8",
    );
}

#[test]
fn handshake_ugi_and_uci() {
    let mut loa = Loa::start();
    let options = [
        "option name Hash type spin default 64 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 256",
        "option name MoveOverhead type spin default 10 min 0 max 10000",
        "option name SimultaneousConnection type combo default draw var draw var mover-wins",
        "option name UCI_Variant type combo default standard var standard var scrambled-eggs \
         var parachute var ambiloa var neighbors var fields-of-action var linesofaction",
        "option name Level type spin default 0 min 0 max 8",
        "option name Spread type spin default 0 min 0 max 10000",
        "option name RandomMoves type check default false",
        "option name Solver type check default false",
    ];
    for (command, ok) in [("ugi", "ugiok"), ("uci", "uciok")] {
        loa.send(command);
        let lines = loa.until(|l| l == ok);
        let mut expected = vec![
            format!("id name loa {}", env!("CARGO_PKG_VERSION")),
            "id author the loa developers".to_string(),
        ];
        expected.extend(options.iter().map(|s| s.to_string()));
        expected.push(ok.to_string());
        assert_eq!(lines, expected);
    }
    assert!(loa.sync().is_empty());
    assert!(loa.ask("uginewgame").is_empty());
    assert!(loa.ask("ucinewgame").is_empty());
    // Empty lines and blank lines are ignored.
    assert!(loa.ask("").is_empty());
    assert!(loa.ask("   \t").is_empty());
    loa.send("quit");
    assert!(loa.wait().success());
}

#[test]
fn startpos_moves_and_validmoves() {
    let mut loa = Loa::start();
    assert_eq!(
        loa.ask_one("validmoves"),
        coordinates(&game(START, &[])).join(" ")
    );
    assert_eq!(loa.ask_one("validmoves").split(' ').count(), 36);
    // Every accepted move notation; output is always the coordinate form.
    let moves = ["b1h1", "a2-b1", "c1:a3", "H2-F4", "h1xb1"];
    assert!(loa
        .ask(&format!("position startpos moves {}", moves.join(" ")))
        .is_empty());
    let expected = game(START, &moves);
    assert_eq!(shown_position(&mut loa), expected.position().to_string());
    assert_eq!(loa.ask_one("validmoves"), coordinates(&expected).join(" "));
    assert_eq!(loa.ask_one("query p1turn"), "response false");
    assert_eq!(loa.ask_one("query gameover"), "response false");
    assert_eq!(loa.ask_one("query result"), "response none");
    // A forced pass is `0000` and is accepted as `0000` or `pass`.
    for pass in ["0000", "pass", "PASS"] {
        assert!(loa
            .ask(&format!("position fen {BLACK_MUST_PASS}"))
            .is_empty());
        assert_eq!(loa.ask_one("validmoves"), "0000");
        assert!(loa
            .ask(&format!("position fen {BLACK_MUST_PASS} moves {pass}"))
            .is_empty());
        assert_eq!(loa.ask_one("query p1turn"), "response false");
    }
    assert!(loa
        .ask(&format!("position fen {BLACK_MUST_PASS}"))
        .is_empty());
    let (_, best) = loa.go("go depth 2");
    assert_eq!(best, "0000");
    // `position startpos` again starts over.
    assert!(loa.ask("position startpos").is_empty());
    assert_eq!(shown_position(&mut loa), START);
}

#[test]
fn small_boards_from_position_text() {
    let mut loa = Loa::start();
    for (text, moves) in [(SIX, "b1b3 a2c2"), (SEVEN, "c1c3 a2c2")] {
        let moves: Vec<&str> = moves.split(' ').collect();
        assert!(loa
            .ask(&format!("position fen {text} moves {}", moves.join(" ")))
            .is_empty());
        let expected = game(text, &moves);
        assert_eq!(shown_position(&mut loa), expected.position().to_string());
        assert_eq!(loa.ask_one("validmoves"), coordinates(&expected).join(" "));
        let (info, best) = loa.go("go depth 3");
        assert!(!info.is_empty());
        for line in &info {
            check_info(line, &expected);
        }
        assert_legal(&best, &expected);
        // Squares off the small board are refused.
        assert_error(
            &mut loa,
            &format!("position fen {text} moves h8h7"),
            "off the",
        );
    }
    assert_eq!(
        loa.ask(&format!("position fen {SIX}\nd")).len(),
        6 + 1 + 5,
        "6 ranks, the file letters, then five lines"
    );
}

#[test]
fn go_depth_prints_info_then_a_legal_bestmove() {
    let mut loa = Loa::start();
    assert!(loa.ask("position startpos moves b1d3").is_empty());
    let expected = game(START, &["b1d3"]);
    let (info, best) = loa.go("go depth 4");
    assert_eq!(info.len(), 4, "{info:?}");
    for (i, line) in info.iter().enumerate() {
        check_info(line, &expected);
        assert!(
            line.starts_with(&format!("info depth {} ", i + 1)),
            "{line}"
        );
    }
    assert_legal(&best, &expected);
    let (_, best) = loa.go("go nodes 500");
    assert_legal(&best, &expected);
    // A connection in one is found and reported as a mate score.
    assert!(loa
        .ask(&format!("position fen {WHITE_WINS_NEXT}"))
        .is_empty());
    let (info, best) = loa.go("go depth 3");
    assert_eq!(best, "c2c5");
    assert!(info.last().unwrap().contains("score mate 1"), "{info:?}");
}

#[test]
fn go_movetime_uses_the_time_to_the_end_and_never_more() {
    let mut loa = Loa::start();
    loa.sync();
    for target in [20, 50, 100, 200, 500] {
        let target_time = Duration::from_millis(target);
        // A busy machine can delay one reply: a few tries, one of which must be right.
        let mut tries = Vec::new();
        let fits = (0..5).any(|_| {
            loa.ask("position startpos moves b1d3 a2c2");
            let start = Instant::now();
            let (info, best) = loa.go(&format!("go movetime {target}"));
            let used = start.elapsed();
            assert!(!info.is_empty());
            assert_legal(&best, &game(START, &["b1d3", "a2c2"]));
            tries.push(used);
            used <= target_time && used >= target_time.mul_f64(0.9)
        });
        assert!(fits, "movetime {target}: used {tries:?}");
    }
}

#[test]
fn go_with_clocks_uses_the_movers_clock() {
    let mut loa = Loa::start();
    // Black to move: p1time / btime is Black's clock.
    for command in [
        "go p1time 2000 p2time 2000 p1inc 20 p2inc 20",
        "go btime 2000 wtime 2000 binc 0 winc 0",
        "go btime 2000 wtime 2000 movestogo 5",
        "go p1time 2000 p2time -100",
    ] {
        let start = Instant::now();
        let (_, best) = loa.go(command);
        assert_legal(&best, &game(START, &[]));
        assert!(start.elapsed() < Duration::from_millis(2000), "{command}");
    }
    // White to move with a tiny clock of its own and a huge one for Black: White's counts.
    assert!(loa.ask("position startpos moves b1d3").is_empty());
    for command in [
        "go p1time 100000000 p2time 300 p1inc 0 p2inc 0",
        "go btime 100000000 wtime 300",
    ] {
        let start = Instant::now();
        let (_, best) = loa.go(command);
        assert_legal(&best, &game(START, &["b1d3"]));
        assert!(start.elapsed() < Duration::from_millis(300), "{command}");
    }
}

#[test]
fn stop_ends_an_infinite_search_at_once() {
    let mut loa = Loa::start();
    for setup in [
        "position startpos",
        "position startpos moves b1d3 a2c2",
        "position fen 1bbbbb1/w5w/w5w/w5w/w5w/w5w/1bbbbb1 b",
    ] {
        assert!(loa.ask(setup).is_empty());
        loa.send("go infinite");
        // No bestmove before stop; isready and queries are answered while it searches.
        let deadline = Instant::now() + Duration::from_millis(400);
        while let Some(line) = loa.try_recv(deadline.saturating_duration_since(Instant::now())) {
            assert!(line.starts_with("info depth"), "{line}");
        }
        let asked = Instant::now();
        loa.send("isready");
        loa.until(|l| l == "readyok");
        assert!(asked.elapsed() < Duration::from_millis(200));
        loa.send("query gameover");
        loa.until(|l| l == "response false");
        // Commands that change the state are refused during the search.
        loa.send("position startpos moves b1b3");
        loa.until(|l| {
            l.starts_with("info string error: 'position' is refused while a search or perft runs")
        });
        // Stop: the bestmove comes within 50 ms.
        let stopped = Instant::now();
        loa.send("stop");
        let lines = loa.until(|l| l.starts_with("bestmove"));
        let elapsed = stopped.elapsed();
        assert!(elapsed < Duration::from_millis(50), "stop took {elapsed:?}");
        let best = &lines.last().unwrap()["bestmove ".len()..];
        let text = shown_position(&mut loa);
        assert_legal(best, &game(&text, &[]));
    }
    // A search that ends by itself (a connection in one) still waits for stop.
    assert!(loa
        .ask(&format!("position fen {WHITE_WINS_NEXT}"))
        .is_empty());
    loa.send("go infinite");
    let deadline = Instant::now() + Duration::from_millis(300);
    while let Some(line) = loa.try_recv(deadline.saturating_duration_since(Instant::now())) {
        assert!(line.starts_with("info depth"), "{line}");
    }
    let stopped = Instant::now();
    loa.send("stop");
    let lines = loa.until(|l| l.starts_with("bestmove"));
    assert!(stopped.elapsed() < Duration::from_millis(50));
    assert_eq!(lines.last().unwrap(), "bestmove c2c5");
    // A stop with no search is ignored.
    assert!(loa.ask("stop").is_empty());
}

#[test]
fn a_search_stopped_before_its_first_move_is_searched_reports_no_line() {
    let mut loa = Loa::start();
    assert!(loa.ask("position startpos").is_empty());
    // The node limit stops it at the root: no move has a value, so no info line says
    // one has; the move given is still legal.
    let (info, best) = loa.go("go nodes 1");
    assert_eq!(info, Vec::<String>::new());
    assert_legal(&best, &game(START, &[]));
    // After a search of the position, the move it found best is given.
    let (_, searched) = loa.go("go depth 3");
    let (info, best) = loa.go("go nodes 1");
    assert_eq!(info, Vec::<String>::new());
    assert_eq!(best, searched);
}

#[test]
fn the_end_of_input_or_quit_ends_a_search_cleanly() {
    // The end of the input stops the search, which still prints bestmove.
    let mut loa = Loa::start();
    loa.send("go infinite");
    loa.sync();
    assert!(loa.close().success());
    let rest = loa.rest();
    assert!(rest.last().unwrap().starts_with("bestmove "), "{rest:?}");
    // So does quit.
    let mut loa = Loa::start();
    loa.send("go infinite");
    loa.sync();
    loa.send("quit");
    assert!(loa.wait().success());
    let rest = loa.rest();
    assert!(rest.last().unwrap().starts_with("bestmove "), "{rest:?}");
    // And the end of the input with nothing running.
    let mut loa = Loa::start();
    loa.send("isready");
    assert!(loa.close().success());
    assert_eq!(loa.rest(), ["readyok"]);
}

#[test]
fn a_finished_game_answers_the_queries_and_has_no_bestmove() {
    let mut loa = Loa::start();
    assert_eq!(loa.ask_one("query gameover"), "response false");
    assert_eq!(loa.ask_one("query p1turn"), "response true");
    assert_eq!(loa.ask_one("query result"), "response none");
    assert!(loa
        .ask(&format!("position fen {WHITE_WINS_NEXT} moves c2c5"))
        .is_empty());
    assert_eq!(loa.ask_one("query gameover"), "response true");
    assert_eq!(loa.ask_one("query p1turn"), "response true");
    assert_eq!(loa.ask_one("query result"), "response p2win");
    assert_eq!(loa.ask_one("validmoves"), "");
    let (info, best) = loa.go("go depth 3");
    assert!(info.is_empty());
    assert_eq!(best, "(none)");
    let (_, best) = loa.go("go infinite");
    assert_eq!(best, "(none)");
    let d = loa.ask("d");
    assert!(
        d.contains(&"game over: yes, White wins by connection".to_string()),
        "{d:?}"
    );
    // No move can follow the end of the game.
    assert_error(
        &mut loa,
        &format!("position fen {WHITE_WINS_NEXT} moves c2c5 e6e5"),
        "the game is over",
    );
    // A position that is over from the start.
    assert!(loa.ask("position fen 8/8/8/3bb3/3ww3/8/8/8 b").is_empty());
    assert_eq!(loa.ask_one("query gameover"), "response true");
    assert_eq!(loa.ask_one("query result"), "response draw");
    // Threefold repetition.
    let shuffle = "b1b3 a2c2 b3b1 c2a2";
    assert!(loa
        .ask(&format!("position startpos moves {shuffle} {shuffle}"))
        .is_empty());
    assert_eq!(loa.ask_one("query gameover"), "response true");
    assert_eq!(loa.ask_one("query result"), "response draw");
    assert_eq!(loa.go("go depth 2").1, "(none)");
}

#[test]
fn the_simultaneous_connection_rule_is_an_option() {
    let mut loa = Loa::start();
    let both = format!("position fen {BOTH_CONNECT_NEXT} moves c6a4");
    assert!(loa.ask(&both).is_empty());
    assert_eq!(loa.ask_one("query result"), "response draw");
    // Changing the rule set judges the same moves again.
    assert!(loa
        .ask("setoption name SimultaneousConnection value mover-wins")
        .is_empty());
    assert_eq!(loa.ask_one("query result"), "response p1win");
    assert!(loa.ask(&both).is_empty());
    assert_eq!(loa.ask_one("query result"), "response p1win");
    assert!(loa
        .ask("setoption name simultaneousconnection value DRAW")
        .is_empty());
    assert_eq!(loa.ask_one("query result"), "response draw");
    // The other options take their values.
    for command in [
        "setoption name Hash value 16",
        "setoption name hash value 1",
        "setoption name Threads value 4",
        "setoption name MoveOverhead value 0",
        "setoption name MOVEOVERHEAD value 10000",
    ] {
        assert!(loa.ask(command).is_empty(), "{command}");
    }
    assert!(loa.ask("position startpos").is_empty());
    assert_legal(&loa.go("go depth 3").1, &game(START, &[]));
}

#[test]
fn perft_counts_every_sequence() {
    let mut loa = Loa::start();
    let lines = loa.perft("perft 2");
    assert_eq!(lines.len(), 37, "{lines:?}");
    assert_eq!(lines[36], "1244");
    assert!(lines.contains(&"b1b3: 34".to_string()), "{lines:?}");
    assert_eq!(loa.perft("perft 3").last().unwrap(), "44952");
    assert_eq!(loa.perft("perft 0"), ["1"]);
    assert!(loa.ask(&format!("position fen {SIX}")).is_empty());
    assert_eq!(loa.perft("perft 4").last().unwrap(), "234560");
    assert!(loa.ask(&format!("position fen {SEVEN}")).is_empty());
    assert_eq!(loa.perft("perft 3").last().unwrap(), "25012");
}

#[test]
fn stop_and_quit_end_a_long_perft_at_once() {
    let mut loa = Loa::start();
    loa.send("perft 9");
    std::thread::sleep(Duration::from_millis(100));
    assert_error(
        &mut loa,
        "go depth 1",
        "refused while a search or perft runs",
    );
    let asked = Instant::now();
    loa.send("stop");
    assert_eq!(loa.recv(), "info string perft 9 stopped");
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "{:?}",
        asked.elapsed()
    );
    assert_eq!(loa.perft("perft 2").last().unwrap(), "1244");

    loa.send("perft 9");
    std::thread::sleep(Duration::from_millis(100));
    let asked = Instant::now();
    loa.send("quit");
    assert!(loa.wait().success());
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "{:?}",
        asked.elapsed()
    );
}

#[test]
fn huge_tokens_are_quoted_short() {
    let mut loa = Loa::start();
    // Within the cap on a line's length (below).
    let token = "x".repeat(512 << 10);
    for command in [
        token.clone(),
        format!("position fen {token} b"),
        format!("position fen 8/8/8/8/8/8/8/{token} b"),
        format!("position startpos moves {token}"),
        format!("position {token}"),
        format!("go {token}"),
        format!("go depth {token}"),
        format!("setoption name {token} value 1"),
        format!("setoption name Hash value {token}"),
        format!("setoption name SimultaneousConnection value {token}"),
        format!("perft {token}"),
        format!("isready {token}"),
        format!("query {token}"),
    ] {
        loa.send(&command);
        let lines = loa.sync();
        assert_eq!(lines.len(), 1, "{}", &command[..30]);
        assert!(lines[0].starts_with(ERROR), "{}", &lines[0][..80]);
        assert!(
            lines[0].len() < 400,
            "{}: {} bytes",
            &command[..30],
            lines[0].len()
        );
    }
    // A line beyond 1 MB is not kept: it is refused whole, and the session goes on.
    loa.send(&format!(
        "position startpos moves {}",
        "b1d3 ".repeat(1 << 20)
    ));
    assert_eq!(
        loa.sync(),
        [format!(
            "{ERROR}a line longer than 1048576 bytes (1 MB) is ignored; it starts 'position \
             startpos moves b1d3 b1d'"
        )]
    );
    assert_eq!(shown_position(&mut loa), START);
}

#[test]
fn d_draws_the_board() {
    let mut loa = Loa::start();
    assert!(loa.ask("position startpos moves b1d3").is_empty());
    let lines = loa.ask("d");
    assert_eq!(lines.len(), 8 + 1 + 5, "{lines:?}");
    assert_eq!(lines[0], " 8  .  b  b  b  b  b  b  . ");
    assert_eq!(lines[5], " 3  w  .  . [b] .  .  .  w ");
    assert_eq!(lines[7], " 1  . [.] b  b  b  b  b  . ");
    assert_eq!(lines[8], "    a  b  c  d  e  f  g  h ");
    assert_eq!(
        lines[9],
        format!("position {}", game(START, &["b1d3"]).position())
    );
    assert_eq!(
        lines[10],
        "fen 1pppppp1/P6P/P6P/P6P/P6P/P2p3P/P6P/2ppppp1 w - - 0 1"
    );
    assert_eq!(lines[11], "side to move White (p2)");
    assert_eq!(lines[12], "moves played 1, last b1d3");
    assert_eq!(lines[13], "game over: no");
}

#[test]
fn eval_lists_the_features_and_the_total() {
    use loa_engine::eval::{self, weights, TERMS};
    let mut loa = Loa::start();
    assert!(loa.ask("position startpos moves b1d3").is_empty());
    let lines = loa.ask("eval");
    let pos = *game(START, &["b1d3"]).position();
    assert!(
        lines[0]
            .split_whitespace()
            .eq(["feature", "Black", "White", "weight"]),
        "{lines:?}"
    );
    // One row per feature: its name, Black's value, White's value and the weight.
    let [(_, black), (_, white)] = eval::terms(&pos);
    let phase = eval::phase_of(&pos);
    for (i, term) in TERMS.iter().enumerate() {
        let weight = term.weight.at(phase);
        let expected = format!("{} {} {} {weight}", term.name, black[i], white[i]);
        let row: Vec<&str> = lines[1 + i].split_whitespace().collect();
        assert_eq!(row.join(" "), expected, "{lines:?}");
    }
    assert_eq!(
        lines[1 + TERMS.len()]
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["tempo", &weights::TEMPO.at(phase).to_string()]
    );
    assert_eq!(
        lines.last().unwrap(),
        &format!(
            "total {} (for White, the side to move)",
            eval::evaluate(&pos)
        )
    );
}

#[test]
fn every_error_is_one_line_and_keeps_the_state() {
    let mut loa = Loa::start();
    assert!(loa.ask("position startpos moves b1d3").is_empty());
    let before = shown_position(&mut loa);
    let cases = [
        // Unknown commands and arguments where there are none.
        ("foo", "unknown command 'foo'"),
        ("go-go", "unknown command 'go-go'"),
        ("isready now", "'isready' takes no arguments"),
        ("validmoves all", "'validmoves' takes no arguments"),
        // Position: illegal moves, bad notation, bad text, bad structure.
        ("position startpos moves a2a4", "move 1 'a2a4' cannot be played"),
        (
            "position startpos moves b1d3 b1b3",
            "move 2 'b1b3' cannot be played: 'b1b3': there is no piece of the side to move (White) on b1",
        ),
        (
            "position startpos moves b1b4",
            "'b1b4' is illegal: the line from b1 towards b4 holds 2 pieces",
        ),
        ("position startpos moves b1-b9", "b9 is not a square"),
        ("position startpos moves b1b3 zz", "'zz' is not a move"),
        ("position startpos moves pass", "pass is only legal when"),
        ("position startpos moves c1xc3", "written as a capture but c3 is empty"),
        ("position fen 1bbbbbb1/w6w b", "bad position text '1bbbbbb1/w6w b'"),
        ("position fen 1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1", "missing side to move"),
        ("position fen 1bbbbbb1/w6w/w6w/w6q/w6w/w6w/w6w/1bbbbbb1 b", "unknown character 'q'"),
        ("position fen 1bbbbbb1/w6w/w7w/w6w/w6w/w6w/w6w/1bbbbbb1 b", "covers 9 squares"),
        ("position fen 8/8/8/8/8/8/8/1bbbbbb1 w", "White has no piece"),
        ("position fen 1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 x", "must be 'b' or 'w'"),
        ("position fen", "empty position text"),
        ("position", "expected 'position startpos"),
        ("position middle", "unknown kind 'middle'"),
        ("position startpos b1d3", "expected 'moves' after the position, found 'b1d3'"),
        // setoption.
        ("setoption name Foo value 1", "unknown option 'Foo'"),
        ("setoption name Hash value abc", "Hash value 'abc' is not a whole number"),
        ("setoption name Hash value 0", "Hash value 0 is out of range"),
        ("setoption name Hash value 65537", "out of range"),
        ("setoption name Threads value 0", "out of range"),
        ("setoption name MoveOverhead value -1", "MoveOverhead value -1 is out of range"),
        ("setoption name SimultaneousConnection value sometimes", "unknown rule set 'sometimes'"),
        ("setoption name Hash", "needs a value"),
        ("setoption Hash value 1", "expected 'setoption name"),
        ("setoption", "expected 'setoption name"),
        // go.
        ("go depth x", "depth value 'x' is not a whole number"),
        ("go depth 0", "depth must be at least 1"),
        ("go depth", "'depth' needs a value"),
        ("go nodes -5", "not a whole number"),
        ("go movetime soon", "movetime value 'soon'"),
        ("go p1time 1s", "p1time value '1s' is not a whole number of milliseconds"),
        ("go fast", "unknown argument 'fast'"),
        ("go ponder", "unknown argument 'ponder'"),
        // White to move here: a clock without White's time.
        ("go p1time 1000", "not the time of the side to move (White: p2time or wtime)"),
        ("go btime 1000 binc 10", "not the time of the side to move"),
        // query and perft.
        ("query", "expected 'query gameover'"),
        ("query score", "unknown query 'score'"),
        ("query gameover now", "expected 'query gameover'"),
        ("perft", "expected 'perft <depth>'"),
        ("perft x", "depth 'x' is not a whole number"),
        ("perft -1", "not a whole number"),
        ("perft 65", "depth 65 is out of range"),
        ("go p1time 18446744073709551615", "p1time value '18446744073709551615' is out of range"),
        ("go nodes 18446744073709551616", "out of range"),
        ("go depth 128", "depth must be at most 127"),
    ];
    for (command, fragment) in cases {
        assert_error(&mut loa, command, fragment);
        assert_eq!(shown_position(&mut loa), before, "after {command}");
    }
    // Bytes that are not UTF-8, and control characters, are errors like any other.
    loa.send_bytes(b"\xff\xfe go\n");
    let lines = loa.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with(ERROR));
    loa.send_bytes(b"position startpos moves b1\x07d3\n");
    let lines = loa.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with(ERROR));
    assert_eq!(shown_position(&mut loa), before);
    // The options kept their values: the search still runs with them.
    assert_legal(&loa.go("go depth 2").1, &game(START, &["b1d3"]));
}

#[test]
fn random_positions_get_legal_moves() {
    let mut loa = Loa::start();
    let mut rng = ChaCha8Rng::seed_from_u64(0x9E37_79B9_7F4A_7C15);
    let starts = [START, START, SIX, SEVEN];
    for round in 0..200 {
        let start = starts[round % starts.len()];
        let mut game = game(start, &[]);
        let plies = rng.random_range(0..80);
        let mut played = Vec::new();
        for _ in 0..plies {
            if game.is_over() {
                break;
            }
            let moves = game.legal_moves();
            let mv = moves[rng.random_range(0..moves.len())];
            game.play(mv).unwrap();
            played.push(mv);
        }
        // Half from the start with the moves (in any notation), half from the text.
        let command = if round % 2 == 0 {
            let moves: Vec<String> = played
                .iter()
                .enumerate()
                .map(|(i, mv)| match i % 3 {
                    0 => mv.coordinate(),
                    1 => mv.to_string(),
                    _ => mv.to_string().replace('x', ":"),
                })
                .collect();
            if start == START {
                format!("position startpos moves {}", moves.join(" "))
            } else {
                format!("position fen {start} moves {}", moves.join(" "))
            }
        } else {
            format!("position fen {}", game.position())
        };
        let fresh = if round % 2 == 0 {
            game.clone()
        } else {
            Game::new(*game.position(), RuleSet::Draw)
        };
        assert!(loa.ask(&command).is_empty(), "{command}");
        let go = if round % 3 == 0 {
            "go nodes 500"
        } else {
            "go depth 2"
        };
        let (info, best) = loa.go(go);
        if fresh.is_over() {
            assert_eq!(best, "(none)", "{command}");
        } else {
            assert_legal(&best, &fresh);
            for line in &info {
                check_info(line, &fresh);
            }
        }
        assert_eq!(
            loa.ask_one("query gameover"),
            format!("response {}", fresh.is_over())
        );
    }
}
