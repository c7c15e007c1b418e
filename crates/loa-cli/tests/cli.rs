//! The `loa` binary run as a user runs it.

mod common;

use common::{loa, loa_in, stdout, HANG};
use std::process::Output;

fn last_line(out: &Output) -> String {
    stdout(out).lines().last().unwrap_or_default().to_string()
}

#[test]
fn perft_last_line_is_the_count() {
    let out = loa(&["perft", "3"], "");
    assert!(out.status.success());
    assert_eq!(last_line(&out), "44952");
    let out = loa(
        &[
            "perft",
            "--variant",
            "scrambled-eggs",
            "--threads",
            "2",
            "4",
        ],
        "",
    );
    assert_eq!(last_line(&out), "1002260");
    let out = loa(&["perft", "--board", "6", "4"], "");
    assert_eq!(last_line(&out), "234560");
    let out = loa(&["perft", "--board", "7", "--threads", "2", "3"], "");
    assert_eq!(last_line(&out), "25012");
}

#[test]
fn perft_divide_lists_each_first_move() {
    let out = loa(&["perft", "--divide", "2"], "");
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 37);
    assert!(lines.contains(&"b1-b3: 34"), "{text}");
    assert_eq!(lines[36], "1244");
}

#[test]
fn perft_from_position_text() {
    let out = loa(
        &[
            "perft",
            "--position",
            "8/8/1w1wb3/8/1bww4/1ww1b3/2w2b2/8 w",
            "1",
        ],
        "",
    );
    assert_eq!(last_line(&out), "31");
}

#[test]
fn bad_position_is_a_clear_error() {
    let out = loa(&["perft", "--position", "1bbbbbb1/w6w b", "1"], "");
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("2 ranks"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn moves_lists_legal_moves_or_pass() {
    let out = loa(&["moves", "8/8/1w1wb3/8/1bww4/1ww1b3/2w2b2/8", "w"], "");
    let text = stdout(&out);
    for mv in ["b6-a5", "b6-c7", "b6xe6", "c2-c5"] {
        assert!(text.split_whitespace().any(|m| m == mv), "{mv} in {text}");
    }
    // White's a8 and h8 pieces are boxed in by the lines' counts: every move jumps an
    // enemy piece.
    let out = loa(&["moves", "wb4bw/bb4bb/8/8/8/8/8/8 w"], "");
    assert_eq!(stdout(&out).trim(), "pass");
}

#[test]
fn moves_of_a_finished_position_say_who_won_and_list_nothing() {
    // Black's a1, b1 and b2 are one group; White's a3 and h1 are apart.
    let out = loa(&["moves", "8/8/8/8/8/w7/1b6/bb5w w"], "");
    assert!(out.status.success());
    assert_eq!(
        stdout(&out),
        "The game is over: Black wins by connection.\n"
    );
    // Both connected: a draw, or a win for the side that just moved.
    let both = "8/8/8/8/8/8/8/bb4ww b";
    assert_eq!(
        stdout(&loa(&["moves", both], "")),
        "The game is over: draw by simultaneous connection.\n"
    );
    assert_eq!(
        stdout(&loa(&["moves", "--rules", "mover-wins", both], "")),
        "The game is over: White wins by simultaneous connection.\n"
    );
}

#[test]
fn play_two_players_to_a_connection() {
    // White connects with c2-c5 in the seed position.
    let script = "b6-b7\nc2-c5\n";
    let out = loa(
        &[
            "play",
            "--two-players",
            "--position",
            "8/8/1w1wb3/8/1bww4/1ww1b3/2w2b2/8 w",
        ],
        script,
    );
    let text = stdout(&out);
    assert!(text.contains("Not played: 'b6-b7' is illegal"), "{text}");
    assert!(
        text.contains("Game over: White wins by connection (0-1)."),
        "{text}"
    );
}

#[test]
fn play_against_the_computer_and_undo() {
    let out = loa(&["play", "--depth", "2"], "b1-b3\nundo\nundo\nquit\n");
    let text = stdout(&out);
    assert!(
        text.contains("You play Black against loa (depth 2)."),
        "{text}"
    );
    assert!(text.contains("loa is thinking (depth 2)..."), "{text}");
    assert!(text.contains("1... loa plays"), "{text}");
    assert!(text.contains("Took back b1-b3."), "{text}");
    assert!(text.contains("Nothing to undo."), "{text}");
}

#[test]
fn playing_white_there_is_nothing_to_undo_before_the_first_move() {
    let out = loa(
        &["play", "--depth", "1", "--color", "white"],
        "undo\nhistory\nquit\n",
    );
    let text = stdout(&out);
    assert!(text.contains("Nothing to undo."), "{text}");
    assert_eq!(text.matches("loa plays").count(), 1, "played once: {text}");
    assert!(
        text.contains("  1. "),
        "the history lists Black's move: {text}"
    );
}

#[test]
fn play_words_hint_history_and_a_game_after_the_game() {
    // White connects with c2-c5; then a new game, a hint, and the history.
    let script = "hint\nc2-c5\nmoves\nnew\nb6-a5\nhistory\nquit\n";
    let out = loa(
        &[
            "play",
            "--two-players",
            "--depth",
            "2",
            "--no-save",
            "--position",
            "8/8/1w1wb3/8/1bww4/1ww1b3/2w2b2/8 w",
        ],
        script,
    );
    let text = stdout(&out);
    assert!(
        text.contains("Hint: c2-c5. White connects in 1 move."),
        "{text}"
    );
    assert!(
        text.contains("Game over: White wins by connection (0-1)."),
        "{text}"
    );
    assert!(text.contains("Type new for another game"), "{text}");
    assert!(text.contains("The game is over: no moves."), "{text}");
    assert!(text.contains("A new game."), "{text}");
    assert!(text.contains("  1. ...    b6-a5"), "{text}");
    assert!(!text.contains("Saved"), "--no-save: {text}");
}

#[test]
fn play_saves_the_game_and_loads_it_to_go_on() {
    let data = tempfile::tempdir().unwrap();
    let out = loa_in(
        data.path(),
        &["play", "--two-players"],
        "b1-b3\na2-c2\nquit\n",
        HANG,
    );
    let text = stdout(&out);
    let games = data.path().join("loa").join("games");
    let mut files: Vec<_> = std::fs::read_dir(&games)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 2, "{files:?}");
    for file in &files {
        assert!(text.contains(&file.display().to_string()), "{text}");
    }
    let pgn = std::fs::read_to_string(&files[0]).unwrap();
    assert!(pgn.contains("1. b1-b3 a2-c2 *"), "{pgn}");
    assert!(pgn.contains("[Termination \"unfinished\"]"), "{pgn}");

    // Go on from the SGF file, and save to a file of our choosing.
    let chosen = data.path().join("mine.pgn");
    let out = loa_in(
        data.path(),
        &[
            "play",
            "--two-players",
            "--load",
            files[1].to_str().unwrap(),
            "--save",
            chosen.to_str().unwrap(),
        ],
        "d1-d3\nhistory\nquit\n",
        HANG,
    );
    let text = stdout(&out);
    assert!(text.contains("Loaded a game of 2 moves."), "{text}");
    assert!(text.contains("2. d1-d3"), "{text}");
    let pgn = std::fs::read_to_string(&chosen).unwrap();
    assert!(pgn.contains("1. b1-b3 a2-c2 2. d1-d3 *"), "{pgn}");
}

#[test]
fn play_saves_each_new_game_to_a_file_of_its_own() {
    let data = tempfile::tempdir().unwrap();
    let chosen = data.path().join("mine.pgn");
    let out = loa_in(
        data.path(),
        &["play", "--two-players", "--save", chosen.to_str().unwrap()],
        "b1-b3\nnew\nc1-c3\nquit\n",
        HANG,
    );
    let text = stdout(&out);
    let second = data.path().join("mine-2.pgn");
    assert!(
        text.contains(&format!("Saved the game to {}.", chosen.display())),
        "{text}"
    );
    assert!(
        text.contains(&format!("Saved the game to {}.", second.display())),
        "{text}"
    );
    let first = std::fs::read_to_string(&chosen).unwrap();
    assert!(first.contains("1. b1-b3 *"), "{first}");
    let next = std::fs::read_to_string(&second).unwrap();
    assert!(next.contains("1. c1-c3 *"), "{next}");
}

#[test]
fn ctrl_c_in_play_saves_the_game() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let data = tempfile::tempdir().unwrap();
    let file = data.path().join("game.pgn");
    let mut child = Command::new(env!("CARGO_BIN_EXE_loa"))
        .args(["play", "--two-players", "--save", file.to_str().unwrap()])
        .env("XDG_DATA_HOME", data.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "b1-b3").unwrap();
    let (tx, lines) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let _ = tx.send(line);
        }
    });
    // Once the move is on the board, the game waits for White.
    let mut seen = Vec::new();
    while !seen.iter().any(|l: &String| l.contains("Last move: b1-b3")) {
        let line = lines.recv_timeout(HANG).expect("loa shows the move");
        seen.push(line);
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    seen.extend(lines.iter());
    assert_eq!(status.code(), Some(130), "{seen:?}");
    let said = format!("Saved the game to {}.", file.display());
    assert!(seen.iter().any(|l| l.ends_with(&said)), "{seen:?}");
    let pgn = std::fs::read_to_string(&file).unwrap();
    assert!(pgn.contains("1. b1-b3 *"), "{pgn}");
    drop(stdin);
}

#[test]
fn one_move_is_one_move() {
    let data = tempfile::tempdir().unwrap();
    let record = data.path().join("one.pgn");
    std::fs::write(&record, "[Result \"*\"]\n\n1. b1-b3 *\n").unwrap();
    let out = loa(
        &[
            "play",
            "--two-players",
            "--no-save",
            "--load",
            record.to_str().unwrap(),
        ],
        "quit\n",
    );
    let text = stdout(&out);
    assert!(text.contains("Loaded a game of 1 move."), "{text}");
    // White connects with c2-c5.
    let out = loa(
        &[
            "analyze",
            "--position",
            "8/8/1w1wb3/8/1bww4/1ww1b3/2w2b2/8 w",
            "--time",
            "0.5",
            "--hash",
            "16",
            "--solve",
        ],
        "",
    );
    let text = stdout(&out);
    assert!(
        text.contains("proved: c2-c5 wins, in at most 1 move (proof of 1 node, checked;"),
        "{text}"
    );
}

#[test]
fn the_version_names_the_commit_it_was_built_from() {
    let out = loa(&["--version"], "");
    assert!(out.status.success());
    let line = stdout(&out).trim().to_string();
    let version = concat!("loa ", env!("CARGO_PKG_VERSION"));
    // Built in a git checkout (as here, and in CI), the commit follows the version.
    let in_git = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .is_ok_and(|out| out.status.success());
    if in_git {
        let commit = line
            .strip_prefix(&format!("{version} (commit "))
            .and_then(|rest| rest.strip_suffix(')'))
            .unwrap_or_else(|| panic!("{line}"));
        assert_eq!(commit.len(), 9, "{line}");
        assert!(commit.chars().all(|c| c.is_ascii_hexdigit()), "{line}");
    } else {
        assert_eq!(line, version);
    }
}

#[test]
fn analyze_on_a_finished_position_shows_it_and_says_who_won() {
    let out = loa(&["analyze", "--position", "8/8/8/8/8/7w/8/bb5w w"], "");
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 11, "{text}");
    assert_eq!(
        lines[7].split_whitespace().collect::<Vec<_>>(),
        ["1", "b", "b", ".", ".", ".", ".", ".", "w"]
    );
    assert_eq!(lines[9], "8/8/8/8/8/7w/8/bb5w w");
    assert_eq!(lines[10], "The game is over: Black wins by connection.");
}
