//! The `loa` binary run as a user runs it.

mod common;

use common::loa;
use std::process::Output;

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn last_line(out: &Output) -> String {
    stdout(out).lines().last().unwrap_or_default().to_string()
}

#[test]
fn perft_last_line_is_the_count() {
    let out = loa(&["perft", "3"], "");
    assert!(out.status.success());
    assert_eq!(last_line(&out), "44952");
    let out = loa(
        &["perft", "--start", "scrambled-eggs", "--threads", "2", "4"],
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
    // White's a8 piece is boxed in by the lines' counts: every move leaves the board or
    // jumps an enemy piece.
    let out = loa(&["moves", "wb6/bb6/8/8/8/8/8/7b w"], "");
    assert_eq!(stdout(&out).trim(), "pass");
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
    assert!(text.contains("Computer plays"), "{text}");
    assert!(text.contains("Took back b1-b3."), "{text}");
    assert!(text.contains("Nothing to undo."), "{text}");
}
