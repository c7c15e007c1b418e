//! `loa replay` run as a user runs it, on the sample records in `crates/loa-core/tests/data/records/`.

mod common;

use common::loa;

fn data(name: &str) -> String {
    format!(
        "{}/../loa-core/tests/data/records/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn replay(args: &[&str]) -> (bool, String, String) {
    let mut all = vec!["replay"];
    all.extend_from_slice(args);
    let out = loa(&all, "");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn the_expert_game_in_both_formats() {
    for name in ["expert.pgn", "expert.sgf"] {
        let (ok, out, err) = replay(&[&data(name)]);
        assert!(ok, "{name}: {err}");
        assert!(out.contains("Moves: 4, all legal"), "{out}");
        assert!(
            out.contains("Position: 1bbbbbb1/w6w/w6w/w6w/b7/wb5w/w3ww2/2b1bbb1 b"),
            "{out}"
        );
        assert!(
            out.contains(" 4  b  .  .  .  .  .  .  . "),
            "diagram: {out}"
        );
        assert!(out.contains("Result: * unfinished"), "{out}");
    }
}

#[test]
fn records_of_every_variant() {
    for name in ["variants.pgn", "variants.sgf"] {
        let (ok, out, err) = replay(&[&data(name)]);
        assert!(ok, "{name}: {err}");
        for shown in [
            "Start: parachute 8x8",
            "Reserves: Black 5, White 5",
            "Position: 8/w6b/2b2w2/w3w2b/b2b3w/w6b/b6w/8 b 5 5",
            "Start: ambiloa 8x8",
            "Position: 2bbbbb1/w6W/wb5W/w6W/w6W/wB5W/w4W2/2BBBBB1 w",
            "Start: neighbors 8x8",
            "Start: fields-of-action 8x8",
            "Position: HGFE4/4LKJI/1CBA4/D7/8/4abcd/ijkl3h/4efg1 b",
        ] {
            assert!(out.contains(shown), "{name}: no '{shown}' in {out}");
        }
    }
    // A record that names no variant is read as the one given, else as the standard game.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("untagged.pgn");
    std::fs::write(&file, "[Event \"untagged\"]\n\n1. a6-a5 h1-h2 *\n").unwrap();
    let file = file.to_str().unwrap();
    let (ok, out, err) = replay(&["--variant", "fields-of-action", file]);
    assert!(ok, "{err}");
    assert!(
        out.contains("Position: HGFE4/4LKJI/1CBA4/D7/8/4abcd/ijkl3h/4efg1 b"),
        "{out}"
    );
    let (ok, _, err) = replay(&[file]);
    assert!(!ok);
    assert!(err.contains("a6-a5"), "{err}");
}

#[test]
fn a_file_of_games() {
    let (ok, out, err) = replay(&[&data("games.pgn")]);
    assert!(ok, "{err}");
    assert!(
        out.contains("Game 1 of 5: Random A (Black) - Random B (White), Test games, 2026.11.22"),
        "{out}"
    );
    assert!(
        out.contains("Result: 0-1 White wins by connection"),
        "{out}"
    );
    assert!(
        out.contains("Result: 1-0 Black wins by connection"),
        "{out}"
    );
    assert!(
        out.contains("Start: scrambled-eggs 8x8, rules mover-wins"),
        "{out}"
    );

    let (ok, out, _) = replay(&["--quiet", &data("games.sgf")]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "game 1: ok, 11 moves, 1-0 Black wins by connection",
            "game 2: ok, 1 move, * unfinished",
            "game 3: ok, 4 moves, * unfinished",
            "3 games: 3 ok, 0 with a result against the board, 0 wrong",
        ]
    );

    let (ok, out, _) = replay(&["--game", "2", &data("games.pgn")]);
    assert!(ok);
    assert!(
        out.starts_with("Game 2 of 5: Random C (Black) - Random D (White)"),
        "{out}"
    );
    assert!(!out.contains("Game 1 of 5"), "{out}");

    let (ok, _, err) = replay(&["--game", "6", &data("games.pgn")]);
    assert!(!ok);
    assert!(err.contains("holds 5 games; there is no game 6"), "{err}");
}

#[test]
fn wrong_records_fail_and_say_where() {
    let cases = [
        (
            "bad-illegal.pgn",
            "game 1: move 2 (Black, ply 3) d1-b3: 'd1-b3' is illegal: the line from d1 towards b3 holds 3 pieces",
        ),
        (
            "bad-after-end.pgn",
            "game 1: move 6 (White, ply 12) a6-b6: the game was already over after move 6 (Black): Black wins by connection",
        ),
        (
            "bad-unterminated.sgf",
            "SGF line 2, column 12: the value of property W is never closed",
        ),
        (
            "bad-result.pgn",
            "PGN game 1, line 2, column 1: tag Result: unknown result '2-0'",
        ),
        (
            "bad-fen.pgn",
            "PGN game 1, line 2, column 1: tag FEN: bad position text",
        ),
    ];
    for (name, expected) in cases {
        let path = data(name);
        let (ok, _, err) = replay(&[&path]);
        assert!(!ok, "{name} must fail");
        assert!(
            err.starts_with(&format!("error: {path}: {expected}")),
            "{name}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    // The position before the illegal move is shown.
    let (_, out, _) = replay(&[&data("bad-illegal.pgn")]);
    assert!(out.contains("Position before that move:"), "{out}");
    assert!(
        out.contains("Position: 1bbbbbb1/w6w/w6w/w6w/w7/wb5w/w4w1w/2bbbbb1 b"),
        "{out}"
    );
}

#[test]
fn a_result_against_the_board_is_a_warning() {
    let path = data("mismatch.pgn");
    let (ok, out, err) = replay(&[&path]);
    assert!(ok, "{err}");
    assert!(
        out.contains("Result: 1-0 Black wins by connection on the board, but the record says 0-1"),
        "{out}"
    );
    assert!(
        err.contains("warning: game 1: the record says 0-1 (White wins) but on the board Black wins by connection (1-0)"),
        "{err}"
    );
    let (ok, _, err) = replay(&["--strict", &path]);
    assert!(!ok);
    assert!(err.contains("--strict"), "{err}");
}

#[test]
fn many_games_from_standard_input_with_a_summary() {
    let mut text = String::new();
    for name in [
        "games.pgn",
        "bad-illegal.pgn",
        "mismatch.pgn",
        "bad-result.pgn",
    ] {
        text.push_str(&std::fs::read_to_string(data(name)).unwrap());
        text.push('\n');
    }
    let out = loa(&["replay", "-q", "-"], &text);
    assert!(!out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 9, "{stdout}");
    assert!(
        lines[5].starts_with("game 6: wrong: move 2 (Black, ply 3) d1-b3"),
        "{stdout}"
    );
    assert!(
        lines[6].starts_with("game 7: warning, 11 moves"),
        "{stdout}"
    );
    assert!(
        lines[7].starts_with("game 8: wrong: PGN game 8, line "),
        "{stdout}"
    );
    assert_eq!(
        lines[8],
        "8 games: 5 ok, 1 with a result against the board, 2 wrong"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr
            .contains("error: -: 2 of 8 games are wrong; the first: game 6: move 2 (Black, ply 3)"),
        "{stderr}"
    );
}
