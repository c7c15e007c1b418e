//! `loa match` with real processes: `loa engine` at different depths, and small bash
//! engines that speak through a real `loa engine` and then misbehave (an illegal move,
//! an exit, silence, garbage, slowness), or answer only `uci`.

use loa_core::record::{parse_records, RecordResult};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

const LOA: &str = env!("CARGO_BIN_EXE_loa");

/// A fresh directory for one test's files.
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("loa-match-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `cmd=<loa> arg=engine name=NAME` plus the given settings.
fn engine(name: &str, settings: &[&str]) -> Vec<String> {
    let mut words = vec![
        "--engine".to_string(),
        format!("cmd={LOA}"),
        "arg=engine".to_string(),
        format!("name={name}"),
    ];
    words.extend(settings.iter().map(|s| s.to_string()));
    words
}

fn run_match(args: &[Vec<String>], extra: &[&str]) -> Output {
    let mut command = Command::new(LOA);
    command.arg("match");
    for words in args {
        command.args(words);
    }
    command.args(extra);
    command.output().expect("loa match runs")
}

/// Two depth-1 engines, `a` and `b`, with 1 MiB tables: the quickest real match.
fn depth_one_match(extra: &[&str]) -> Output {
    let mut args = vec!["--depth", "1", "--each", "option.Hash=1"];
    args.extend_from_slice(extra);
    run_match(&[engine("a", &[]), engine("b", &[])], &args)
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Checks that a PGN file holds `games` games that replay legally under the rules, each
/// with its names, result and termination, and that a result reached on the board agrees
/// with the board. Returns the termination tags.
fn check_pgn(path: &Path, games: usize) -> Vec<String> {
    let pgn = std::fs::read_to_string(path).unwrap();
    let records = parse_records(&pgn).unwrap_or_else(|e| panic!("{e}\n{pgn}"));
    assert_eq!(records.len(), games, "{pgn}");
    let mut terminations = Vec::new();
    for record in &records {
        assert!(record.black.is_some() && record.white.is_some());
        assert_ne!(record.result, RecordResult::Unknown);
        let game = record.replay().unwrap_or_else(|e| panic!("{e}"));
        let termination = record.termination.clone().expect("a termination");
        if let Some(outcome) = game.outcome() {
            assert!(record.result.matches(outcome), "{record:?}");
            assert_eq!(termination, outcome.reason.to_string());
        }
        assert!(record.tag("Opening").is_some());
        assert!(record.tag("Round").is_some());
        terminations.push(termination);
    }
    terminations
}

#[test]
fn depth_match_between_real_engines_writes_every_game() {
    let dir = temp_dir("depth");
    let (pgn, sgf) = (dir.join("games.pgn"), dir.join("games.sgf"));
    let out = run_match(
        &[engine("d3", &["depth=3"]), engine("d1", &["depth=1"])],
        &[
            "--each",
            "option.Hash=4",
            "--games",
            "6",
            "--seed",
            "7",
            "--concurrency",
            "2",
            "--pgn",
            pgn.to_str().unwrap(),
            "--sgf",
            sgf.to_str().unwrap(),
        ],
    );
    let report = text(&out);
    assert!(out.status.success(), "{report}");
    assert!(report.contains("Results of d3 vs d1:"), "{report}");
    assert!(report.contains("Games: 6,"), "{report}");
    assert!(report.contains("Ptnml(0-2): ["), "{report}");
    assert!(report.contains("Elo: "), "{report}");
    assert!(report.contains("LOS: "), "{report}");
    assert!(report.contains("Engine failures: none"), "{report}");
    // Not a terminal: one line per game.
    assert_eq!(
        report.matches("\ngame ").count() + usize::from(report.starts_with("game ")),
        6
    );
    let terminations = check_pgn(&pgn, 6);
    assert!(
        terminations.iter().all(|t| !t.contains("crash")),
        "{terminations:?}"
    );
    let sgf_text = std::fs::read_to_string(&sgf).unwrap();
    let sgf_games = parse_records(&sgf_text).unwrap();
    assert_eq!(sgf_games.len(), 6);
    for game in &sgf_games {
        game.replay().unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A bash engine that forwards everything to a real `loa engine` (which answers
/// directly on the script's standard output) until its `AFTER`th `go`, then fails in
/// the way `MODE` says. `slow` waits 0.3 s before every `go`; `uci-only` says `ugi` is
/// unknown.
const BROKEN_ENGINE: &str = r#"#!/usr/bin/env bash
loa=$1 mode=$2 after=$3
exec 3> >(exec "$loa" engine)
gos=0
while IFS= read -r line; do
  case $line in
    ugi)
      if [ "$mode" = uci-only ]; then echo "Unknown command: ugi"; continue; fi ;;
    quit)
      echo quit >&3; exit 0 ;;
    go*)
      gos=$((gos + 1))
      if [ "$gos" -gt "$after" ]; then
        case $mode in
          illegal) echo "bestmove a1a1"; continue ;;
          garbage) echo "bestmove xyzzy"; continue ;;
          exit) exit 3 ;;
          hang) while IFS= read -r _; do :; done; exit 0 ;;
        esac
      fi
      if [ "$mode" = slow ]; then sleep 0.3; fi ;;
  esac
  printf '%s\n' "$line" >&3
done
"#;

fn write_broken_engine(dir: &Path) -> PathBuf {
    let path = dir.join("broken.sh");
    std::fs::write(&path, BROKEN_ENGINE).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

fn broken(script: &Path, name: &str, mode: &str, settings: &[&str]) -> Vec<String> {
    let mut words = vec![
        "--engine".to_string(),
        format!("cmd={}", script.display()),
        format!("arg={LOA}"),
        format!("arg={mode}"),
        "arg=2".to_string(),
        format!("name={name}"),
    ];
    words.extend(settings.iter().map(|s| s.to_string()));
    words
}

#[test]
fn failing_engines_lose_with_the_reason_recorded_and_the_match_goes_on() {
    let dir = temp_dir("broken");
    let script = write_broken_engine(&dir);
    let pgn = dir.join("games.pgn");
    let started = Instant::now();
    let out = run_match(
        &[
            engine("good", &[]),
            broken(&script, "illegal", "illegal", &[]),
            broken(&script, "crashy", "exit", &[]),
            broken(&script, "silent", "hang", &[]),
            broken(&script, "garbage", "garbage", &[]),
            broken(&script, "slow", "slow", &["tc=0.5+0"]),
        ],
        &[
            "--gauntlet",
            "--depth",
            "1",
            "--each",
            "option.Hash=1",
            "--games",
            "2",
            "--timeout",
            "1500",
            "--timemargin",
            "50",
            "--concurrency",
            "2",
            "--book-in-order",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    let report = text(&out);
    assert!(out.status.success(), "{report}");
    assert!(started.elapsed().as_secs() < 60, "{report}");
    // The good engine won all ten games, each against a failing engine.
    assert!(report.contains("Results of good vs illegal:"), "{report}");
    assert_eq!(
        report.matches("Wins: 2, Losses: 0, Draws: 0").count(),
        5,
        "{report}"
    );
    for failure in [
        "illegal: illegal move 2",
        "crashy: crash 2",
        "silent: hang 2",
        "garbage: malformed reply 2",
        "slow: time forfeit 2",
    ] {
        assert!(report.contains(failure), "{failure}\n{report}");
    }
    let terminations = check_pgn(&pgn, 10);
    let joined = terminations.join("\n");
    assert!(joined.contains("illegal move: 'a1a1'"), "{joined}");
    assert!(
        joined.contains("crash: the engine process exited with code 3"),
        "{joined}"
    );
    assert!(
        joined.contains("hang: no bestmove within 1500 ms"),
        "{joined}"
    );
    assert!(
        joined.contains("malformed reply 'bestmove xyzzy'"),
        "{joined}"
    );
    assert!(joined.contains("time forfeit"), "{joined}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_speaks_only_uci_is_accepted() {
    let dir = temp_dir("uci");
    let script = write_broken_engine(&dir);
    let out = run_match(
        &[
            engine("ugi", &[]),
            // "after" is irrelevant for uci-only: it never misbehaves.
            broken(&script, "uci", "uci-only", &[]),
        ],
        &["--depth", "1", "--games", "2", "--seed", "1"],
    );
    let report = text(&out);
    assert!(out.status.success(), "{report}");
    assert!(report.contains("Games: 2,"), "{report}");
    assert!(report.contains("Engine failures: none"), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_stops_once_the_stronger_engine_is_clear() {
    let started = Instant::now();
    let out = run_match(
        &[engine("d4", &["depth=4"]), engine("d1", &["depth=1"])],
        &[
            "--each",
            "option.Hash=8",
            "--sprt",
            "elo0=0",
            "elo1=10",
            "alpha=0.05",
            "beta=0.05",
            "--concurrency",
            "2",
            "--seed",
            "11",
        ],
    );
    let report = text(&out);
    assert!(out.status.success(), "{report}");
    assert!(report.contains("H1 accepted"), "{report}");
    assert!(report.contains("(-2.94, 2.94)"), "{report}");
    // Stopped by the test, long before any limit.
    let games: u64 = report
        .lines()
        .find_map(|l| l.strip_prefix("Played "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("a Played line");
    assert!((10..1000).contains(&games), "{games} games\n{report}");
    eprintln!(
        "SPRT d4 vs d1 ended after {games} games in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn round_robin_reports_a_table_and_every_pairing() {
    let out = run_match(
        &[
            engine("d2", &["depth=2"]),
            engine("d1a", &["depth=1"]),
            engine("d1b", &["depth=1"]),
        ],
        &["--each", "option.Hash=1", "--rounds", "1", "--seed", "3"],
    );
    let report = text(&out);
    assert!(out.status.success(), "{report}");
    assert!(report.contains("round robin of 3 engines"), "{report}");
    assert!(report.contains("Rank  Name"), "{report}");
    for pair in ["d2 vs d1a", "d2 vs d1b", "d1a vs d1b"] {
        assert!(
            report.contains(&format!("Results of {pair}:")),
            "{pair}\n{report}"
        );
    }
    assert!(report.contains("Played 6 games"), "{report}");
}

#[test]
fn openings_from_a_file_and_random_openings_are_played_twice_and_repeatable() {
    let dir = temp_dir("openings");
    let book = dir.join("book.txt");
    std::fs::write(
        &book,
        "# three openings\n\
         b1-d3 h2-f2\n\
         1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b ; moves c1-c3 a7-c7\n\
         startpos ; f1xh3\n",
    )
    .unwrap();
    let pgn = dir.join("book.pgn");
    let out = depth_one_match(&[
        "--openings",
        book.to_str().unwrap(),
        "--book-in-order",
        "--rounds",
        "3",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let records = parse_records(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    let openings: Vec<&str> = records.iter().map(|r| r.tag("Opening").unwrap()).collect();
    assert_eq!(
        openings,
        [
            "b1-d3 h2-f2",
            "b1-d3 h2-f2",
            "c1-c3 a7-c7",
            "c1-c3 a7-c7",
            "f1xh3",
            "f1xh3"
        ]
    );
    // Each opening once with each engine as Black.
    for pair in records.chunks(2) {
        assert_eq!(pair[0].black, pair[1].white);
        assert_eq!(pair[0].moves[..2], pair[1].moves[..2]);
    }

    // Random openings: the same seed gives the same games.
    let mut files = Vec::new();
    for run in 0..2 {
        let path = dir.join(format!("random{run}.pgn"));
        let out = depth_one_match(&[
            "--random-openings",
            "6",
            "--seed",
            "42",
            "--games",
            "4",
            "--concurrency",
            "2",
            "--pgn",
            path.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", text(&out));
        files.push(std::fs::read_to_string(&path).unwrap());
    }
    assert_eq!(files[0], files[1]);
    let records = parse_records(&files[0]).unwrap();
    assert_eq!(records.len(), 4);
    assert!(records
        .iter()
        .all(|r| r.tag("Opening").unwrap().split(' ').count() == 6));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_book_lines_are_reported_with_their_line_number() {
    let dir = temp_dir("badbook");
    let book = dir.join("book.txt");
    std::fs::write(&book, "b1-d3\nb1-b4\n").unwrap();
    let out = run_match(
        &[engine("a", &[]), engine("b", &[])],
        &["--depth", "1", "--openings", book.to_str().unwrap()],
    );
    assert!(!out.status.success());
    let message = text(&out);
    assert!(message.contains("line 2"), "{message}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn adjudication_by_length_and_by_resignation() {
    let out = depth_one_match(&[
        "--games",
        "4",
        "--adjudicate-draw",
        "moves=12",
        "--seed",
        "5",
    ]);
    let report = text(&out);
    assert!(out.status.success(), "{report}");
    assert!(
        report.contains("Terminations: draw adjudication 4"),
        "{report}"
    );

    let out = run_match(
        &[engine("d4", &["depth=4"]), engine("d1", &["depth=1"])],
        &[
            "--each",
            "option.Hash=4",
            "--games",
            "6",
            "--resign",
            "score=150",
            "count=1",
            "--seed",
            "5",
        ],
    );
    let report = text(&out);
    assert!(out.status.success(), "{report}");
    assert!(report.contains("resignation"), "{report}");
}

#[test]
fn time_control_games_keep_the_clocks() {
    let dir = temp_dir("tc");
    let pgn = dir.join("tc.pgn");
    let out = run_match(
        &[engine("a", &[]), engine("b", &[])],
        &[
            "--tc",
            "1+0.05",
            "--each",
            "option.Hash=4",
            "--games",
            "2",
            "--concurrency",
            "2",
            "--timemargin",
            "100",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    let report = text(&out);
    assert!(out.status.success(), "{report}");
    assert!(!report.contains("time forfeit"), "{report}");
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    assert!(pgn_text.contains("1+0.05"), "{pgn_text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mistakes_on_the_command_line_are_explained() {
    let out = run_match(&[engine("a", &[]), engine("b", &[])], &[]);
    assert!(!out.status.success());
    assert!(text(&out).contains("no limit"), "{}", text(&out));
    let out = run_match(
        &[
            engine("a", &[]),
            vec!["--engine".into(), "cmd=/no/such/engine".into()],
        ],
        &["--depth", "1"],
    );
    assert!(!out.status.success());
    assert!(text(&out).contains("/no/such/engine"), "{}", text(&out));
    let out = run_match(
        &[engine("a", &[]), engine("b", &[]), engine("c", &[])],
        &["--depth", "1", "--sprt"],
    );
    assert!(!out.status.success());
    assert!(text(&out).contains("two engines"), "{}", text(&out));
}

/// The runner's own overhead: depth-1 engines at concurrency 2. On the project's
/// two-core machine this plays well over 50 games a second; the bound here is looser,
/// since other tests run at the same time.
#[test]
fn the_runner_is_fast() {
    let out = depth_one_match(&["--games", "200", "--concurrency", "2", "--seed", "1"]);
    let report = text(&out);
    assert!(out.status.success(), "{report}");
    let rate: f64 = report
        .lines()
        .find_map(|l| l.split_once(" games/s").map(|(head, _)| head))
        .and_then(|head| head.rsplit('(').next())
        .and_then(|n| n.parse().ok())
        .expect("a games/s figure");
    eprintln!("depth 1 vs depth 1, concurrency 2: {rate:.1} games/s");
    assert!(rate > 15.0, "{rate} games/s\n{report}");
}

/// An engine that starts a helper process, writes its pid to `$1`, answers the handshake
/// and then never answers `go`, ignoring `stop` and the end of its input.
const STUCK_ENGINE: &str = r#"#!/usr/bin/env bash
sleep 1000 &
echo $! > "$1"
trap '' TERM
while IFS= read -r line; do
  case $line in
    ugi) echo "id name stuck"; echo ugiok ;;
    isready) echo readyok ;;
    go*) while :; do sleep 1; done ;;
  esac
done
"#;

/// Whether a process is alive (a zombie waiting to be reaped counts as gone).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

#[test]
fn a_stuck_engine_is_killed_with_what_it_started() {
    let dir = temp_dir("stuck");
    let script = dir.join("stuck.sh");
    std::fs::write(&script, STUCK_ENGINE).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let pid_file = dir.join("helper.pid");
    let out = run_match(
        &[
            engine("good", &[]),
            vec![
                "--engine".to_string(),
                format!("cmd={}", script.display()),
                format!("arg={}", pid_file.display()),
                "name=stuck".to_string(),
            ],
        ],
        &[
            "--depth",
            "1",
            "--each",
            "option.Hash=1",
            "--games",
            "2",
            "--timeout",
            "300",
        ],
    );
    let report = text(&out);
    assert!(out.status.success(), "{report}");
    assert!(report.contains("stuck: hang 2"), "{report}");
    let pid: u32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // The helper goes with its engine's process group.
    let deadline = Instant::now() + std::time::Duration::from_secs(5);
    while alive(pid) && Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(
        !alive(pid),
        "the stuck engine's helper {pid} is still running"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
