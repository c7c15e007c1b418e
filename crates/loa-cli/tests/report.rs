//! `loa report` run as a user runs it, on the sample records in `crates/loa-core/tests/data/records/`.

mod common;

use common::loa;

fn data(name: &str) -> String {
    format!(
        "{}/../loa-core/tests/data/records/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn report(args: &[&str]) -> (bool, String, String) {
    let mut all = vec!["report"];
    all.extend_from_slice(args);
    let out = loa(&all, "");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_game_is_reported_and_written_with_its_comments() {
    let folder = tempfile::tempdir().unwrap();
    // The 11-move game where Black connects: game 2 of the PGN sample, 1 of the SGF.
    for (name, number, written) in [("games.pgn", "2", "out.pgn"), ("games.sgf", "1", "out.sgf")] {
        let out_file = folder.path().join(written);
        let out_path = out_file.to_str().unwrap();
        let (ok, out, err) = report(&[
            &data(name),
            "--game",
            number,
            "--nodes",
            "5000",
            "--out",
            out_path,
        ]);
        assert!(ok, "{name}: {err}");
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with(&format!("Game {number}: ")), "{out}");
        // A line a move, from "1." to the connection, then each side's accuracy.
        let moves: Vec<&str> = lines[1..12].to_vec();
        assert!(moves[0].trim_start().starts_with("1."), "{out}");
        assert!(moves[1].trim_start().starts_with("1..."), "{out}");
        assert!(moves[10].contains("#0"), "the connection: {out}");
        assert!(lines[12].starts_with("Black: accuracy "), "{out}");
        assert!(lines[13].starts_with("White: accuracy "), "{out}");
        assert_eq!(lines[14], format!("Written: {out_path}"));
        // The record written reads again, with a comment after every move.
        let text = std::fs::read_to_string(&out_file).unwrap();
        assert_eq!(text.matches("[%eval ").count(), 11, "{text}");
        let replayed = loa(&["replay", "-q", out_path], "");
        assert!(replayed.status.success());
        assert!(String::from_utf8(replayed.stdout)
            .unwrap()
            .contains("ok, 11 moves, 1-0 Black wins by connection"));
    }
}

#[test]
fn the_same_budget_gives_the_same_report() {
    let first = report(&[&data("games.pgn"), "--game", "2", "--nodes", "3000"]);
    let second = report(&[&data("games.pgn"), "--game", "2", "--nodes", "3000"]);
    assert!(first.0, "{}", first.2);
    assert_eq!(first.1, second.1);
}

#[test]
fn bad_requests_are_refused_with_a_reason() {
    let (ok, _, err) = report(&[&data("games.pgn"), "--game", "9"]);
    assert!(!ok);
    assert!(err.contains("holds 5 games; there is no game 9"), "{err}");
    let (ok, _, err) = report(&[&data("games.pgn"), "--nodes", "-5"]);
    assert!(!ok);
    assert!(
        err.contains("a whole number from 1000 to 1000000000"),
        "{err}"
    );
    let (ok, _, err) = report(&[&data("bad-illegal.pgn")]);
    assert!(!ok);
    assert!(err.contains("illegal"), "{err}");
    let (ok, _, err) = report(&[&data("games.pgn"), "--out", "/no/such/folder/x.pgn"]);
    assert!(!ok);
    assert!(err.contains("does not exist"), "{err}");
}
