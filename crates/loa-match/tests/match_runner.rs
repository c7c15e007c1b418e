//! The match runner with real processes: the engine binary at different depths, and
//! small bash engines that speak through a real engine and then misbehave (an illegal
//! move, an exit, silence, garbage, slowness), answer only `uci`, or get stuck.

use loa_core::record::{read_games, GameError, GameRecord, RecordResult};
use loa_core::{RuleSet, Variant};
use loa_match::{
    build_specs, parse_book, parse_draw, parse_resign, Adjudication, MatchConfig, MoveLimits,
    OpeningSource, Progress, Sprt, DEFAULT_BOOK,
};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Every game of a record file the runner wrote, each read and played through.
fn read_records(text: &str) -> Result<Vec<GameRecord>, GameError> {
    read_games(text)
        .map(|game| game.map(|game| game.record))
        .collect()
}

/// The engine protocol alone, built with this crate.
const ENGINE: &str = env!("CARGO_BIN_EXE_loa-ugi-engine");

/// The progress lines of a match, kept.
#[derive(Default)]
struct Lines(Mutex<Vec<String>>);

impl Progress for Lines {
    fn game_finished(&self, line: &str, status: &str) {
        self.0.lock().unwrap().push(format!("{line} | {status}"));
    }
}

/// A match as a test sets it up; the fields left alone keep these defaults.
struct Setup {
    each: Vec<String>,
    limits: MoveLimits,
    games: u64,
    sprt: Option<Sprt>,
    seed: u64,
    concurrency: usize,
    openings: Option<OpeningSource>,
    margin: Duration,
    timeout: Duration,
    adjudication: Adjudication,
    pgn: Option<PathBuf>,
    sgf: Option<PathBuf>,
    gauntlet: bool,
    variant: Variant,
}

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|w| w.to_string()).collect()
}

/// `cmd=<engine> name=NAME` plus the given settings.
fn engine(name: &str, settings: &[&str]) -> Vec<String> {
    let mut list = vec![format!("cmd={ENGINE}"), format!("name={name}")];
    list.extend(settings.iter().map(|s| s.to_string()));
    list
}

/// Plays a match; the progress lines and the report, or the error.
fn run_match(engines: &[Vec<String>], setup: impl FnOnce(&mut Setup)) -> Result<String, String> {
    let mut s = Setup {
        each: Vec::new(),
        limits: MoveLimits::default(),
        games: 2,
        sprt: None,
        seed: 1,
        concurrency: 1,
        openings: None,
        margin: Duration::from_millis(50),
        timeout: Duration::from_secs(60),
        adjudication: Adjudication::default(),
        pgn: None,
        sgf: None,
        gauntlet: false,
        variant: Variant::Standard,
    };
    setup(&mut s);
    let engines = build_specs(engines, &s.each, s.limits)?;
    let openings = s.openings.unwrap_or_else(|| {
        loa_match::book(
            parse_book(DEFAULT_BOOK, "book", Variant::Standard).unwrap(),
            false,
            s.seed,
        )
    });
    let config = MatchConfig {
        engines,
        gauntlet: s.gauntlet,
        openings,
        concurrency: s.concurrency,
        games_per_pairing: if s.sprt.is_some() {
            None
        } else {
            Some(s.games)
        },
        seed: s.seed,
        rules: RuleSet::Draw,
        variant: s.variant,
        margin: s.margin,
        timeout: s.timeout,
        adjudication: s.adjudication,
        sprt: s.sprt,
        pgn: s.pgn,
        sgf: s.sgf,
        event: "test".to_string(),
    };
    let lines = Lines::default();
    let report = loa_match::run(config, &lines).map_err(|e| format!("{e:#}"))?;
    let mut text = lines.0.into_inner().unwrap().join("\n");
    text.push('\n');
    text.push_str(&report);
    Ok(text)
}

/// Two depth-1 engines, `a` and `b`, with 1 MiB tables: the quickest real match.
fn depth_one_match(setup: impl FnOnce(&mut Setup)) -> Result<String, String> {
    run_match(&[engine("a", &[]), engine("b", &[])], |s| {
        s.each = words(&["depth=1", "option.Hash=1"]);
        setup(s);
    })
}

/// Checks that a PGN file holds `games` games that replay legally under the rules, each
/// with its names, result and termination, and that a result reached on the board agrees
/// with the board. Returns the termination tags.
fn check_pgn(path: &Path, games: usize) -> Vec<String> {
    let pgn = std::fs::read_to_string(path).unwrap();
    let records = read_records(&pgn).unwrap_or_else(|e| panic!("{e}\n{pgn}"));
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
    let dir = tempfile::tempdir().unwrap();
    let (pgn, sgf) = (dir.path().join("games.pgn"), dir.path().join("games.sgf"));
    let report = run_match(
        &[engine("d3", &["depth=3"]), engine("d1", &["depth=1"])],
        |s| {
            s.each = words(&["option.Hash=4"]);
            s.games = 6;
            s.seed = 7;
            s.concurrency = 2;
            s.pgn = Some(pgn.clone());
            s.sgf = Some(sgf.clone());
        },
    )
    .unwrap();
    assert!(report.contains("Results of d3 vs d1:"), "{report}");
    assert!(report.contains("Games: 6,"), "{report}");
    assert!(report.contains("Ptnml(0-2): ["), "{report}");
    assert!(report.contains("Elo: "), "{report}");
    assert!(report.contains("LOS: "), "{report}");
    assert!(report.contains("Engine failures: none"), "{report}");
    assert_eq!(report.matches("game ").count(), 6, "{report}");
    let terminations = check_pgn(&pgn, 6);
    assert!(
        terminations.iter().all(|t| !t.contains("crash")),
        "{terminations:?}"
    );
    let sgf_games = read_records(&std::fs::read_to_string(&sgf).unwrap()).unwrap();
    assert_eq!(sgf_games.len(), 6);
    for game in &sgf_games {
        game.replay().unwrap();
    }
}

/// A bash engine that forwards everything to a real engine (which answers
/// directly on the script's standard output) until its `AFTER`th `go`, then fails in
/// the way `MODE` says. `slow` waits 0.3 s before every `go`; `uci-only` says `ugi` is
/// unknown.
const BROKEN_ENGINE: &str = r#"#!/usr/bin/env bash
engine=$1 mode=$2 after=$3
exec 3> >(exec "$engine")
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

fn broken(script: &Path, name: &str, mode: &str, settings: &[&str]) -> Vec<String> {
    let mut words = vec![
        format!("cmd={}", script.display()),
        format!("arg={ENGINE}"),
        format!("arg={mode}"),
        "arg=2".to_string(),
        format!("name={name}"),
    ];
    words.extend(settings.iter().map(|s| s.to_string()));
    words
}

#[test]
fn failing_engines_lose_with_the_reason_recorded_and_the_match_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let script = write_script(dir.path(), "broken.sh", BROKEN_ENGINE);
    let pgn = dir.path().join("games.pgn");
    let started = Instant::now();
    let report = run_match(
        &[
            engine("good", &[]),
            broken(&script, "illegal", "illegal", &[]),
            broken(&script, "crashy", "exit", &[]),
            broken(&script, "silent", "hang", &[]),
            broken(&script, "garbage", "garbage", &[]),
            broken(&script, "slow", "slow", &["tc=0.5+0"]),
        ],
        |s| {
            s.gauntlet = true;
            s.each = words(&["depth=1", "option.Hash=1"]);
            s.timeout = Duration::from_millis(1500);
            s.concurrency = 2;
            s.openings = Some(loa_match::book(
                parse_book(DEFAULT_BOOK, "book", Variant::Standard).unwrap(),
                true,
                1,
            ));
            s.pgn = Some(pgn.clone());
        },
    )
    .unwrap();
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
    let joined = check_pgn(&pgn, 10).join("\n");
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
}

#[test]
fn an_engine_that_speaks_only_uci_is_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let script = write_script(dir.path(), "broken.sh", BROKEN_ENGINE);
    let report = run_match(
        &[
            engine("ugi", &[]),
            // "after" is irrelevant for uci-only: it never misbehaves.
            broken(&script, "uci", "uci-only", &[]),
        ],
        |s| s.each = words(&["depth=1"]),
    )
    .unwrap();
    assert!(report.contains("Games: 2,"), "{report}");
    assert!(report.contains("Engine failures: none"), "{report}");
}

#[test]
fn sprt_stops_once_the_stronger_engine_is_clear() {
    let started = Instant::now();
    let report = run_match(
        &[engine("d4", &["depth=4"]), engine("d1", &["depth=1"])],
        |s| {
            s.each = words(&["option.Hash=8"]);
            s.sprt = Some(
                Sprt::parse(&words(&["elo0=0", "elo1=10", "alpha=0.05", "beta=0.05"])).unwrap(),
            );
            s.concurrency = 2;
            s.seed = 11;
        },
    )
    .unwrap();
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
    let report = run_match(
        &[
            engine("d2", &["depth=2"]),
            engine("d1a", &["depth=1"]),
            engine("d1b", &["depth=1"]),
        ],
        |s| {
            s.each = words(&["option.Hash=1"]);
            s.seed = 3;
        },
    )
    .unwrap();
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
    let dir = tempfile::tempdir().unwrap();
    let book = parse_book(
        "# three openings\n\
         b1-d3 h2-f2\n\
         1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b ; moves c1-c3 a7-c7\n\
         startpos ; f1xh3\n",
        "book.txt",
        Variant::Standard,
    )
    .unwrap();
    let pgn = dir.path().join("book.pgn");
    depth_one_match(|s| {
        s.openings = Some(loa_match::book(book, true, 1));
        s.games = 6;
        s.pgn = Some(pgn.clone());
    })
    .unwrap();
    let records = read_records(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
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
        let path = dir.path().join(format!("random{run}.pgn"));
        depth_one_match(|s| {
            s.openings = Some(OpeningSource::Random {
                plies: 6,
                seed: 42,
                variant: Variant::Standard,
            });
            s.seed = 42;
            s.games = 4;
            s.concurrency = 2;
            s.pgn = Some(path.clone());
        })
        .unwrap();
        files.push(std::fs::read_to_string(&path).unwrap());
    }
    assert_eq!(files[0], files[1]);
    let records = read_records(&files[0]).unwrap();
    assert_eq!(records.len(), 4);
    assert!(records
        .iter()
        .all(|r| r.tag("Opening").unwrap().split(' ').count() == 6));
}

#[test]
fn every_variant_is_played_and_recorded() {
    let dir = tempfile::tempdir().unwrap();
    for variant in Variant::ALL {
        let (pgn, sgf) = (
            dir.path().join(format!("{variant}.pgn")),
            dir.path().join(format!("{variant}.sgf")),
        );
        let report = depth_one_match(|s| {
            s.variant = variant;
            s.openings = Some(OpeningSource::Random {
                plies: 4,
                seed: 3,
                variant,
            });
            s.games = 4;
            s.pgn = Some(pgn.clone());
            s.sgf = Some(sgf.clone());
        })
        .unwrap_or_else(|e| panic!("{variant}: {e}"));
        assert!(report.contains(variant.title()), "{report}");
        assert!(report.contains("Engine failures: none"), "{report}");
        check_pgn(&pgn, 4);
        let text = std::fs::read_to_string(&pgn).unwrap();
        let records = read_records(&text).unwrap();
        assert!(records.iter().all(|r| r.variant() == variant), "{text}");
        let sgf_games = read_records(&std::fs::read_to_string(&sgf).unwrap()).unwrap();
        assert_eq!(sgf_games.len(), 4);
        for game in &sgf_games {
            assert_eq!(game.variant(), variant);
            game.replay().unwrap();
        }
    }
}

#[test]
fn bad_book_lines_are_reported_with_their_line_number() {
    let err = format!(
        "{:#}",
        parse_book("b1-d3\nb1-b4\n", "book.txt", Variant::Standard).unwrap_err()
    );
    assert!(err.contains("book.txt, line 2"), "{err}");
}

#[test]
fn adjudication_by_length_and_by_resignation() {
    let report = depth_one_match(|s| {
        s.games = 4;
        s.adjudication.draw_after = Some(parse_draw(&words(&["moves=12"])).unwrap());
        s.seed = 5;
    })
    .unwrap();
    assert!(
        report.contains("Terminations: draw adjudication 4"),
        "{report}"
    );

    let report = run_match(
        &[engine("d4", &["depth=4"]), engine("d1", &["depth=1"])],
        |s| {
            s.each = words(&["option.Hash=4"]);
            s.games = 6;
            s.adjudication.resign = Some(parse_resign(&words(&["score=150", "count=1"])).unwrap());
            s.seed = 5;
        },
    )
    .unwrap();
    assert!(report.contains("resignation"), "{report}");
}

#[test]
fn time_control_games_keep_the_clocks() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("tc.pgn");
    let report = run_match(&[engine("a", &[]), engine("b", &[])], |s| {
        s.limits.tc = Some("1+0.05".parse().unwrap());
        s.each = words(&["option.Hash=4"]);
        s.concurrency = 2;
        s.margin = Duration::from_millis(100);
        s.pgn = Some(pgn.clone());
    })
    .unwrap();
    assert!(!report.contains("time forfeit"), "{report}");
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    assert!(pgn_text.contains("1+0.05"), "{pgn_text}");
}

#[test]
fn mistakes_are_explained() {
    let err = run_match(&[engine("a", &[]), engine("b", &[])], |_| {}).unwrap_err();
    assert!(err.contains("no limit"), "{err}");
    let err = run_match(&[engine("a", &[]), words(&["cmd=/no/such/engine"])], |s| {
        s.each = words(&["depth=1"]);
    })
    .unwrap_err();
    assert!(err.contains("/no/such/engine"), "{err}");
    let err = run_match(
        &[engine("a", &[]), engine("b", &[]), engine("c", &[])],
        |s| {
            s.each = words(&["depth=1"]);
            s.sprt = Some(Sprt::parse(&[]).unwrap());
        },
    )
    .unwrap_err();
    assert!(err.contains("two engines"), "{err}");
    let err = depth_one_match(|s| {
        s.openings = Some(OpeningSource::Random {
            plies: 200,
            seed: 1,
            variant: Variant::Standard,
        });
    });
    // A random game of 200 plies is possible but rare: if it comes, the match is played.
    if let Err(err) = err {
        assert!(err.contains("no random opening of 200 plies"), "{err}");
    }
}

/// The runner's own overhead: depth-1 engines at concurrency 2. On the project's
/// two-core machine this plays well over 50 games a second; the bound here is looser,
/// since other tests run at the same time.
#[test]
fn the_runner_is_fast() {
    let report = depth_one_match(|s| {
        s.games = 200;
        s.concurrency = 2;
    })
    .unwrap();
    let rate: f64 = report
        .lines()
        .find_map(|l| l.split_once(" games/s").map(|(head, _)| head))
        .and_then(|head| head.rsplit('(').next())
        .and_then(|n| n.parse().ok())
        .expect("a games/s figure");
    eprintln!("depth 1 vs depth 1, concurrency 2: {rate:.1} games/s");
    assert!(rate > 15.0, "{rate} games/s\n{report}");
}

fn write_script(dir: &Path, name: &str, text: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
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
    let dir = tempfile::tempdir().unwrap();
    let script = write_script(dir.path(), "stuck.sh", STUCK_ENGINE);
    let pid_file = dir.path().join("helper.pid");
    let report = run_match(
        &[
            // The stuck engine declares no option.
            engine("good", &["option.Hash=1"]),
            words(&[
                &format!("cmd={}", script.display()),
                &format!("arg={}", pid_file.display()),
                "name=stuck",
            ]),
        ],
        |s| {
            s.each = words(&["depth=1"]);
            s.timeout = Duration::from_millis(300);
        },
    )
    .unwrap();
    assert!(report.contains("stuck: hang 2"), "{report}");
    let pid: u32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // The helper goes with its engine's process group.
    let deadline = Instant::now() + Duration::from_secs(5);
    while alive(pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        !alive(pid),
        "the stuck engine's helper {pid} is still running"
    );
}
