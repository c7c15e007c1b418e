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
        out.contains("Game 1: Random A (Black) - Random B (White), Test games, 2026.11.22"),
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
    assert!(
        out.ends_with("\n5 games: 5 ok, 0 with a result against the board, 0 wrong\n"),
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
        out.starts_with("Game 2: Random C (Black) - Random D (White)"),
        "{out}"
    );
    assert!(!out.contains("Game 1:"), "{out}");
    assert!(!out.contains("games:"), "no summary for one game: {out}");

    let (ok, _, err) = replay(&["--game", "6", &data("games.pgn")]);
    assert!(!ok);
    assert!(err.contains("holds 5 games; there is no game 6"), "{err}");
    for (n, why) in [("0", "0 is out of range"), ("-1", "'-1' is negative")] {
        let (ok, _, err) = replay(&["--game", n, &data("games.pgn")]);
        assert!(!ok);
        assert!(
            err.contains(&format!("{why}: expected a game's number, counting from 1")),
            "{err}"
        );
    }
}

#[test]
fn wrong_records_fail_and_say_where() {
    let cases = [
        (
            "bad-illegal.pgn",
            "game 1 (An illegal move): move 2 (Black, ply 3) d1-b3: 'd1-b3' is illegal: the line from d1 towards b3 holds 3 pieces",
        ),
        (
            "bad-after-end.pgn",
            "game 1 (Moves after the end): move 6 (White, ply 12) a6-b6: the game was already over after move 6 (Black): Black wins by connection",
        ),
        (
            "bad-unterminated.sgf",
            "SGF line 2, column 12: the value of property W is never closed",
        ),
        (
            "bad-result.pgn",
            "PGN game 1 (Unknown result), line 2, column 1: tag Result: unknown result '2-0'",
        ),
        (
            "bad-fen.pgn",
            "PGN game 1 (Bad FEN), line 2, column 1: tag FEN: bad position text",
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
        lines[7].starts_with("game 8: wrong: PGN game 8 (Unknown result), line 61, column 1: "),
        "{stdout}"
    );
    assert_eq!(
        lines[8],
        "8 games: 5 ok, 1 with a result against the board, 2 wrong"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.ends_with("error: -: 2 of 8 games are wrong\n"),
        "each error once, on its game's line: {stderr}"
    );
}

#[test]
fn archives_from_other_sites_and_programs() {
    let (ok, out, err) = replay(&["-q", &data("archive.sgf")]);
    assert!(ok, "{err}");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "game 1: ok, 4 moves, 0-1 White wins (resignation), not decided on the board",
            "game 2: ok, 15 moves, 1-0 Black wins (forfeit), not decided on the board",
            "game 3: ok, 2 moves, 0-1 White wins (resignation), not decided on the board",
            "3 games: 3 ok, 0 with a result against the board, 0 wrong",
        ]
    );
    let (_, out, _) = replay(&["--game", "2", &data("archive.sgf")]);
    assert!(
        out.contains(
            "Start: scrambled-eggs 8x8, its array reflected top to bottom (as some sites set \
             it up): 1wbwbwb1/b6w/w6b/b6w/w6b/b6w/w6b/1bwbwbw1 b, rules draw"
        ),
        "{out}"
    );

    // Game 2 has an illegal move at move 7; games 1 and 3 are read.
    let path = data("archive.pgn");
    let (ok, out, err) = replay(&["-q", &path]);
    assert!(!ok);
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "game 1: ok, 3 moves, 1-0 Black wins (resignation), not decided on the board",
            "game 2: wrong: move 7 (Black, ply 13) b1-b2: 'b1-b2' is illegal: the line from b1 \
             towards b2 holds 3 pieces, so the piece moves 3 squares, not 1",
            "game 3: ok, 15 moves, 1-0 Black wins (forfeit), not decided on the board",
            "3 games: 2 ok, 0 with a result against the board, 1 wrong",
        ]
    );
    assert_eq!(err, format!("error: {path}: 1 of 3 games are wrong\n"));
    let (_, _, err) = replay(&[&path]);
    assert_eq!(
        err,
        format!(
            "error: {path}: 1 of 3 games are wrong; the first: game 2 (Random A - Random B, Club \
             night): move 7 (Black, ply 13) b1-b2: 'b1-b2' is illegal: the line from b1 towards \
             b2 holds 3 pieces, so the piece moves 3 squares, not 1\n"
        )
    );
}

#[test]
fn quiet_says_each_error_once() {
    let path = data("bad-illegal.pgn");
    let (ok, out, err) = replay(&["-q", &path]);
    assert!(!ok);
    let error = "move 2 (Black, ply 3) d1-b3: 'd1-b3' is illegal";
    assert_eq!(
        (out + &err).matches(error).count(),
        1,
        "the game's line says it, the exit message does not repeat it"
    );
    assert_eq!(err, format!("error: {path}: 1 of 1 game is wrong\n"));
}

#[test]
fn control_characters_from_records_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("escapes.pgn");
    std::fs::write(
        &file,
        "[Event \"\u{1b}]0;title\u{7}\"]\n[Black \"\u{1b}[31mRed\"]\n[Termination \"x\u{9b}2J\"]\n\
         [Result \"1-0\"]\n\n1. b1-b3 1-0\n\n[White \"\u{1b}[2J\"]\n1. b1-b2 *\n\n\
         [Result \"\u{1b}[5m\"]\n*\n",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    for args in [vec![file], vec!["-q", file]] {
        let (ok, out, err) = replay(&args);
        assert!(!ok);
        for text in [&out, &err] {
            assert!(
                !text.chars().any(|c| c.is_control() && c != '\n'),
                "{text:?}"
            );
        }
        assert!(out.contains("unknown result '\\u{1b}[5m'"), "{out}");
        if args.len() == 1 {
            assert!(
                out.contains("Game 1: \\u{1b}[31mRed (Black) - ? (White), \\u{1b}]0;title\\u{7}"),
                "{out}"
            );
            assert!(out.contains("(x\\u{9b}2J), not decided"), "{out}");
            assert!(
                err.contains("the first: game 2 (? - \\u{1b}[2J): move 1"),
                "{err}"
            );
        }
    }
}

#[test]
fn latin1_records_are_read_with_one_warning() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("latin1.pgn");
    std::fs::write(
        &file,
        b"[Black \"Bj\xf6rn\"]\n1. b1-b3 *\n[Black \"S\xf8ren\"]\n1. b1-b3 *\n",
    )
    .unwrap();
    let (ok, out, err) = replay(&[file.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains("Game 1: Björn (Black)"), "{out}");
    assert!(out.contains("Game 2: Søren (Black)"), "{out}");
    assert_eq!(
        err,
        format!(
            "warning: {}: not UTF-8 (byte 0xf6 at line 1, column 11); read as Latin-1\n",
            file.display()
        )
    );
}

#[test]
fn a_value_never_closed_ends_the_file_after_the_games_before_it() {
    let out = loa(
        &["replay", "-q", "-"],
        "(;GM[9];B[b1-b3])\n(;GM[9]PB[never closed",
    );
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "game 1: ok, 1 move, * unfinished\nthe rest cannot be read: SGF line 2, column 10: \
         the value of property PB is never closed: missing ']'\n"
    );
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: -: the rest cannot be read\n"
    );
    let out = loa(&["replay", "-"], "");
    assert!(!out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "");
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: -: PGN line 1, column 1: no game found: expected tags [Name \"value\"] or moves\n"
    );
}
