//! `loa match` as a user runs it: the front end of the match runner library, whose own
//! tests (crates/loa-match/tests) cover the matches themselves.

use loa_core::record::{read_games, GameError, GameRecord};
use std::process::{Command, Output};

const LOA: &str = env!("CARGO_BIN_EXE_loa");

/// Every game of a record file the match wrote, each read and played through.
fn read_records(text: &str) -> Result<Vec<GameRecord>, GameError> {
    read_games(text)
        .map(|game| game.map(|game| game.record))
        .collect()
}

fn run_match(args: &[&str]) -> Output {
    Command::new(LOA)
        .arg("match")
        .args(args)
        .output()
        .expect("loa match runs")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn a_match_from_the_command_line_reports_and_writes_records() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let engine = format!("cmd={LOA}");
    let out = run_match(&[
        "--engine",
        &engine,
        "arg=engine",
        "name=d2",
        "depth=2",
        "--engine",
        &engine,
        "arg=engine",
        "name=d1",
        "depth=1",
        "--each",
        "option.Hash=1",
        "--games",
        "2",
        "--seed",
        "3",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let report = text(&out);
    assert!(out.status.success(), "{report}");
    assert!(report.contains("Results of d2 vs d1:"), "{report}");
    // Not a terminal: one line per game.
    assert_eq!(report.matches("game ").count(), 2, "{report}");
    let records = read_records(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    assert_eq!(records.len(), 2);
}

#[test]
fn a_match_in_every_variant_with_loa_engines() {
    let engine = format!("cmd={LOA}");
    for variant in [
        "scrambled-eggs",
        "parachute",
        "ambiloa",
        "neighbors",
        "fields-of-action",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let pgn = dir.path().join("games.pgn");
        let out = run_match(&[
            "--variant",
            variant,
            "--engine",
            &engine,
            "arg=engine",
            "name=a",
            "--engine",
            &engine,
            "arg=engine",
            "name=b",
            "--depth",
            "1",
            "--games",
            "2",
            "--seed",
            "5",
            "--pgn",
            pgn.to_str().unwrap(),
        ]);
        let report = text(&out);
        assert!(out.status.success(), "{variant}: {report}");
        assert!(report.contains("Engine failures: none"), "{report}");
        let records = read_records(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
        assert_eq!(records.len(), 2);
        for record in records {
            assert_eq!(record.variant().name(), variant);
            record.replay().unwrap();
        }
    }
}

#[test]
fn mistakes_on_the_command_line_are_explained() {
    let engine = format!("cmd={LOA}");
    let out = run_match(&["--engine", &engine, "arg=engine", "--engine", &engine]);
    assert!(!out.status.success());
    assert!(text(&out).contains("no limit"), "{}", text(&out));
    let out = run_match(&[
        "--engine",
        &engine,
        "arg=engine",
        "--engine",
        "cmd=/no/such/engine",
        "--depth",
        "1",
    ]);
    assert!(!out.status.success());
    assert!(text(&out).contains("/no/such/engine"), "{}", text(&out));
    let out = run_match(&[
        "--engine",
        &engine,
        "arg=engine",
        "--engine",
        &engine,
        "arg=engine",
        "--engine",
        &engine,
        "arg=engine",
        "--depth",
        "1",
        "--sprt",
    ]);
    assert!(!out.status.success());
    assert!(text(&out).contains("two engines"), "{}", text(&out));
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.txt");
    std::fs::write(&book, "b1-d3\nb1-b4\n").unwrap();
    let out = run_match(&[
        "--engine",
        &engine,
        "arg=engine",
        "--engine",
        &engine,
        "arg=engine",
        "--depth",
        "1",
        "--openings",
        book.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(text(&out).contains("line 2"), "{}", text(&out));
}

#[test]
fn record_files_are_checked_before_any_engine_starts() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-folder");
    let file = missing.join("games.txt");
    let file = file.to_str().unwrap();
    let engine = format!("cmd={LOA}");
    for option in ["--pgn", "--sgf", "--make-book"] {
        // The second engine cannot start: the record file is named first.
        let out = run_match(&[
            "--engine",
            &engine,
            "arg=engine",
            "--engine",
            "cmd=/no/such/engine",
            "--depth",
            "1",
            option,
            file,
        ]);
        assert!(!out.status.success());
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).trim(),
            format!(
                "error: {option} {file}: the folder {} does not exist",
                missing.display()
            )
        );
    }
}

/// A bash engine that answers the handshake (declaring a `Hash` option) and `isready`,
/// and misbehaves as its first argument says: `long` answers `go` with a line of 2 MB,
/// `endless` writes 3 MB with no newline and then waits, `wide` answers `bestmove` with
/// a 600 KB word, `picky` answers every `setoption` with an error.
const FAKE_ENGINE: &str = r#"#!/usr/bin/env bash
mode=$1
while IFS= read -r line; do
  case $line in
    ugi|uci)
      echo "id name fake"
      echo "option name Hash type spin default 1 min 1 max 64"
      echo "${line}ok" ;;
    isready) echo readyok ;;
    setoption*)
      if [ "$mode" = picky ]; then echo "info string error: unknown option"; fi ;;
    go*)
      case $mode in
        long) head -c 2000000 /dev/zero | tr '\0' x; echo ;;
        endless) head -c 3000000 /dev/zero | tr '\0' x; sleep 100 ;;
        wide) echo "bestmove $(head -c 600000 /dev/zero | tr '\0' x)" ;;
      esac ;;
    quit) exit 0 ;;
  esac
done
"#;

fn write_fake_engine(dir: &std::path::Path) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("fake.sh");
    std::fs::write(&path, FAKE_ENGINE).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("cmd={}", path.display())
}

#[test]
fn an_engine_writing_huge_lines_loses_with_a_short_termination() {
    let dir = tempfile::tempdir().unwrap();
    let fake = write_fake_engine(dir.path());
    let engine = format!("cmd={LOA}");
    for (mode, termination) in [
        (
            "long",
            "malformed reply: a line longer than 1048576 bytes (1 MB)".to_string(),
        ),
        (
            "endless",
            "malformed reply: a line longer than 1048576 bytes (1 MB)".to_string(),
        ),
        (
            "wide",
            format!(
                "malformed reply 'bestmove {}... (600009 bytes)'",
                "x".repeat(83)
            ),
        ),
    ] {
        let pgn = dir.path().join(format!("{mode}.pgn"));
        let started = std::time::Instant::now();
        let out = run_match(&[
            "--engine",
            &engine,
            "arg=engine",
            "name=good",
            "--engine",
            &fake,
            &format!("arg={mode}"),
            "name=broken",
            "--depth",
            "1",
            "--games",
            "2",
            "--timeout",
            "20000",
            "--pgn",
            pgn.to_str().unwrap(),
        ]);
        let report = text(&out);
        assert!(out.status.success(), "{mode}: {report}");
        assert!(started.elapsed().as_secs() < 15, "{mode}: {report}");
        assert!(
            report.contains("broken: malformed reply 2"),
            "{mode}: {report}"
        );
        let records = read_records(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
        assert_eq!(records.len(), 2);
        for record in records {
            assert_eq!(record.termination.as_deref(), Some(termination.as_str()));
        }
    }
}

#[test]
fn options_the_engine_refuses_or_does_not_declare_and_a_missing_folder_stop_the_match() {
    let dir = tempfile::tempdir().unwrap();
    let fake = write_fake_engine(dir.path());
    let script = &fake["cmd=".len()..];
    let engine = format!("cmd={LOA}");
    let missing = dir.path().join("no-such-folder");
    let cases = [
        (
            vec![fake.clone(), "name=fake".into(), "option.Colour=red".into()],
            format!(
                "error: engine 'fake' ({script}): option.Colour: the engine declares no such \
                 option (it declares Hash)"
            ),
        ),
        (
            vec![
                fake.clone(),
                "name=picky".into(),
                "arg=picky".into(),
                "option.Hash=8".into(),
            ],
            format!(
                "error: engine 'picky' ({script}): 'setoption name Hash value 8': the engine \
                 answered 'info string error: unknown option'"
            ),
        ),
        (
            vec![
                engine.clone(),
                "arg=engine".into(),
                "name=loa".into(),
                "option.Hsah=8".into(),
            ],
            format!(
                "error: engine 'loa' ({LOA}): option.Hsah: the engine declares no such option \
                 (it declares Hash, Threads, MoveOverhead, SimultaneousConnection, UCI_Variant, \
                 Level, Spread, RandomMoves, Solver)"
            ),
        ),
        (
            vec![
                engine.clone(),
                "arg=engine".into(),
                "name=elsewhere".into(),
                format!("dir={}", missing.display()),
            ],
            format!(
                "error: engine 'elsewhere' ({LOA}): could not be started: its working \
                 directory dir={} is not a folder that exists",
                missing.display()
            ),
        ),
    ];
    for (words, expected) in cases {
        let mut args = vec!["--engine", &engine, "arg=engine", "name=good", "--engine"];
        args.extend(words.iter().map(String::as_str));
        args.extend(["--depth", "1", "--games", "2"]);
        let out = run_match(&args);
        assert!(!out.status.success(), "{words:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).trim(), expected);
    }
}
