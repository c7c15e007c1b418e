//! Inputs that once crashed, hung or misled `loa`: each gets a clear error or the right
//! answer, never a panic, an abort or a hang.

mod common;

use common::{loa, loa_in, stderr, stdout, HANG};
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A refusal of bad arguments: a message on standard error, no panic, no abort.
fn assert_refused(out: &Output, fragment: &str) {
    let err = stderr(out);
    assert!(
        out.status.code().is_some_and(|c| c == 1 || c == 2),
        "{:?}: {err}",
        out.status
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(fragment), "expected '{fragment}' in: {err}");
}

#[test]
fn huge_times_and_tables_are_refused() {
    for (args, input) in [
        (&["play", "--time", "1e308"][..], ""),
        (&["play", "--time", "1e19"][..], "b1-b3\n"),
        (&["analyze", "--time", "1e308"][..], ""),
        (&["analyze", "--time", "1e19"][..], ""),
        (&["analyze", "--time", "inf"][..], ""),
    ] {
        assert_refused(&loa(args, input), "is out of range");
    }
    assert_refused(
        &loa(&["analyze", "--hash", "100000"], ""),
        "expected a whole number from 1 to 65536",
    );
    assert_refused(
        &loa(
            &[
                "match", "--engine", "cmd=x", "--engine", "cmd=y", "--tc", "2e16+0",
            ],
            "",
        ),
        "is too long",
    );
    assert_refused(
        &loa(
            &["match", "--engine", "cmd=x", "--movetime", "99999999999999"],
            "",
        ),
        "is out of range",
    );
}

#[test]
fn negative_and_zero_numbers_say_what_is_expected() {
    for args in [
        &["play", "--time", "-1"][..],
        &["analyze", "--time", "-1"][..],
        &["analyze", "--time", "0"][..],
    ] {
        assert_refused(&loa(args, ""), "expected a number of seconds above 0");
    }
    // Depth 0 is refused the same way everywhere, as the protocol refuses it.
    for args in [
        &["play", "--depth", "0"][..],
        &["analyze", "--depth", "0"][..],
        &["bench", "0"][..],
        &["play", "--depth", "-3"][..],
    ] {
        assert_refused(&loa(args, ""), "expected a whole number from 1 to 127");
    }
    assert_refused(&loa(&["perft", "--threads", "0", "2"], ""), "from 1 to 256");
    assert_refused(&loa(&["perft", "-2"], ""), "is negative");
    assert_refused(
        &loa(&["match", "--engine", "cmd=x", "--tc", "-5+1"], ""),
        "must be a non-negative number of seconds",
    );
    assert_refused(
        &loa(&["match", "--engine", "cmd=x", "--games", "0"], ""),
        "from 1 to",
    );
}

/// Runs `loa`, reads one line of its output, closes the pipe and waits for the end.
fn first_line_then_close(args: &[&str]) -> (String, Output) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_loa"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(started.elapsed() < HANG, "loa {args:?} went on");
        std::thread::sleep(Duration::from_millis(5));
    };
    let mut err = Vec::new();
    child.stderr.take().unwrap().read_to_end(&mut err).unwrap();
    (
        first,
        Output {
            status,
            stdout: Vec::new(),
            stderr: err,
        },
    )
}

#[test]
fn a_closed_pipe_ends_the_program_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.pgn");
    let game = "[Result \"*\"]\n\n1. b1-d3 a2-c2 *\n\n";
    std::fs::write(&big, game.repeat(2_000)).unwrap();
    for args in [
        &["analyze", "--multipv", "100", "--depth", "3"][..],
        &["bench"][..],
        &["replay", big.to_str().unwrap()][..],
    ] {
        let (first, out) = first_line_then_close(args);
        assert!(!first.is_empty(), "{args:?}");
        assert!(out.status.success(), "{args:?}: {:?}", out.status);
        assert_eq!(stderr(&out), "", "{args:?}");
    }
}

#[test]
fn analysis_for_n_seconds_takes_n_seconds() {
    let started = Instant::now();
    let out = loa(&["analyze", "--time", "2", "--hash", "16"], "");
    let took = started.elapsed();
    assert!(out.status.success());
    assert!(
        took >= Duration::from_secs(2) && took < Duration::from_millis(2_900),
        "{took:?}"
    );
}

#[test]
fn lines_come_out_best_first_and_the_best_move_has_its_score() {
    let out = loa(
        &["analyze", "--multipv", "5", "--depth", "6", "--hash", "16"],
        "",
    );
    let text = stdout(&out);
    let score = |line: &str| -> i32 {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "cp").expect("a cp score");
        words[at + 1].parse().unwrap()
    };
    let last: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("depth  6 line"))
        .collect();
    assert_eq!(last.len(), 5, "{text}");
    let scores: Vec<i32> = last.iter().map(|l| score(l)).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    // The line ends with the time and then the moves: `time   0.12s  b1-d3 ...`.
    let (_, pv) = last[0].rsplit_once("s  ").unwrap();
    let best = pv.split_whitespace().next().unwrap();
    assert_eq!(
        text.lines().last().unwrap(),
        format!("best move {best} cp {} depth 6", scores[0]),
        "{text}"
    );
}

#[test]
fn long_arguments_are_quoted_short() {
    // The longest single argument Linux passes is 128 KiB.
    let token = "x".repeat(100_000);
    for args in [
        vec!["moves", token.as_str()],
        vec!["perft", "--position", token.as_str(), "1"],
        vec!["analyze", "--moves", token.as_str()],
        vec!["play", "--time", token.as_str()],
        vec!["perft", token.as_str()],
        vec!["match", "--engine", token.as_str()],
    ] {
        let out = loa(&args, "");
        let err = stderr(&out);
        assert!(!out.status.success());
        assert!(err.len() < 1_000, "{:?}: {} bytes", &args[..1], err.len());
    }
    // And typed at the prompt of `loa play`.
    let out = loa(
        &["play", "--two-players", "--no-save"],
        format!("{}\nquit\n", "y".repeat(10 << 20)),
    );
    let text = stdout(&out);
    assert!(text.lines().all(|l| l.len() < 1_000), "a long line");
    assert!(text.contains("Not played"), "{}", &text[..200]);
}

#[test]
fn a_latin1_record_is_read_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("old.pgn");
    std::fs::write(
        &file,
        b"[Black \"Bj\xf6rnsson\"]\n[White \"Winands\"]\n[Result \"*\"]\n\n1. b1-d3 a2-c2 *\n",
    )
    .unwrap();
    let out = loa(&["replay", file.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("Björnsson (Black) - Winands (White)"));
    assert!(
        stderr(&out).contains("not UTF-8 (byte 0xf6 at line 1, column 11); read as Latin-1"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn impossible_random_openings_are_refused_at_once() {
    let data = tempfile::tempdir().unwrap();
    let loa_path = env!("CARGO_BIN_EXE_loa");
    let engine = format!("cmd={loa_path}");
    let out = loa_in(
        data.path(),
        &[
            "match",
            "--engine",
            &engine,
            "arg=engine",
            "--engine",
            &engine,
            "arg=engine",
            "--depth",
            "1",
            "--games",
            "2",
            "--random-openings",
            "1000",
        ],
        "",
        Duration::from_secs(10),
    );
    assert_refused(&out, "expected a whole number from 0 to 200");
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_game_goes_on() {
    let data = tempfile::tempdir().unwrap();
    let file = data.path().join("game.pgn");
    let out = loa_in(
        data.path(),
        &["play", "--two-players", "--save", file.to_str().unwrap()],
        b"b1-b3\nBj\xf6rn\na2-c2\nquit\n",
        HANG,
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        text.contains("Not read: the line is not UTF-8 text. Try again."),
        "{text}"
    );
    let pgn = std::fs::read_to_string(&file).unwrap();
    assert!(pgn.contains("1. b1-b3 a2-c2 *"), "{pgn}");
}

#[test]
fn a_save_file_that_cannot_be_written_is_refused_before_the_game() {
    let data = tempfile::tempdir().unwrap();
    let missing = data.path().join("no-such-folder").join("game.pgn");
    let out = loa(
        &["play", "--two-players", "--save", missing.to_str().unwrap()],
        "b1-b3\nquit\n",
    );
    assert_refused(&out, "does not exist");
    assert_eq!(stdout(&out), "", "the game did not start");
    let folder = data.path().to_str().unwrap();
    assert_refused(
        &loa(
            &["play", "--two-players", "--save", folder],
            "b1-b3\nquit\n",
        ),
        "that is a folder, not a file",
    );
}

#[test]
fn a_game_is_saved_when_its_output_is_closed() {
    use std::io::Write;
    let data = tempfile::tempdir().unwrap();
    let file = data.path().join("game.pgn");
    let mut child = Command::new(env!("CARGO_BIN_EXE_loa"))
        .args(["play", "--two-players", "--save", file.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Boards enough to fill any pipe once nobody reads them.
    let script = format!("b1-b3\n{}", "board\n".repeat(20_000));
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(script.as_bytes());
    });
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    while !lines.next().unwrap().unwrap().contains("Last move: b1-b3") {}
    drop(lines);
    let status = child.wait().unwrap();
    let _ = writer.join();
    assert!(status.success(), "{status:?}");
    let pgn = std::fs::read_to_string(&file).unwrap();
    assert!(pgn.contains("1. b1-b3 *"), "{pgn}");
}

#[test]
fn a_seat_named_twice_is_refused() {
    let out = loa(
        &["play", "--variant", "ambiloa", "--engine-seats", "B,w,B"],
        "quit\n",
    );
    assert_refused(&out, "--engine-seats names B twice");
    assert_eq!(stdout(&out), "", "the game did not start");
}

#[test]
fn board_port_and_engines_say_their_valid_values() {
    for args in [
        &["play", "--board", "9"][..],
        &["perft", "--board", "5", "1"][..],
        &["analyze", "--board", "-6"][..],
    ] {
        assert_refused(&loa(args, ""), "expected 6, 7 or 8");
    }
    for port in ["65536", "-1", "http"] {
        assert_refused(
            &loa(&["serve", "--port", port], ""),
            "expected a port from 1 to 65535, or 0 for any free port",
        );
    }
    for engines in ["0", "257", "-2"] {
        assert_refused(
            &loa(&["serve", "--engines", engines], ""),
            "expected a whole number from 1 to 256",
        );
    }
}

#[test]
fn a_bad_move_to_analyze_is_named_once() {
    let out = loa(
        &["analyze", "--moves", "b1-b3", "b1-b9", "--depth", "1"],
        "",
    );
    assert_refused(&out, "--moves, move 2: 'b1-b9': b9 is not a square");
    assert_eq!(stderr(&out).matches("b1-b9").count(), 1, "{}", stderr(&out));
}
