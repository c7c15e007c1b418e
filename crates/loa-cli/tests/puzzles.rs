//! `loa puzzles make` run as a user runs it, on the sample records in `crates/loa-core/tests/data/records/`.

mod common;

use common::loa;
use loa_engine::puzzles::Puzzle;

fn data(name: &str) -> String {
    format!(
        "{}/../loa-core/tests/data/records/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn puzzles_are_made_from_records_once_each() {
    let folder = tempfile::tempdir().unwrap();
    let out = folder.path().join("puzzles.txt");
    // The same games in both formats: each puzzle written once.
    let run = loa(
        &[
            "puzzles",
            "make",
            "--games",
            &data("games.pgn"),
            &data("games.sgf"),
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    let said = String::from_utf8(run.stdout).unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        said.starts_with("2 puzzles (themes: connection 1) from 8 games in "),
        "{said}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        text,
        "standard ; draw ; b2bb1bb/4bw1w/w1w3bw/b1wwbw2/5w2/3b2w1/6w1/b4b2 w ; \
         a6-e6 d8xd5 c6xg6 h8-d8 g2xd5\n\
         standard ; draw ; 1bbb2/w2w2/w1b2w/w1b2w/w5/1bbbw1 b ; \
         c1-c5 f4xc4 d1-b3 a2-b2 b6xb2 a5-b6 b2-d4 b6-a5 b1-a2\n"
    );
    for line in text.lines() {
        let puzzle = Puzzle::parse(line).unwrap();
        assert!((2..=6).contains(&puzzle.moves()));
    }
}

#[test]
fn bad_requests_are_refused_with_a_reason() {
    let run = loa(&["puzzles", "make", "--games", &data("games.pgn")], "");
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("--out"));
    let run = loa(
        &[
            "puzzles",
            "make",
            "--games",
            "/no/such/file.pgn",
            "--out",
            "/tmp/x",
        ],
        "",
    );
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("cannot read"));
    let run = loa(
        &[
            "puzzles",
            "make",
            "--games",
            &data("games.pgn"),
            "--out",
            "/no/such/dir/p.txt",
        ],
        "",
    );
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("does not exist"));
    // Records with no game in them are an error, not a job done with nothing found.
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.pgn");
    std::fs::write(&empty, "").unwrap();
    let out = dir.path().join("p.txt");
    let args = [
        "puzzles",
        "make",
        "--games",
        empty.to_str().unwrap(),
        "--out",
    ];
    let run = loa(&[&args[..], &[out.to_str().unwrap()]].concat(), "");
    assert_eq!(run.status.code(), Some(1), "{run:?}");
    let error = String::from_utf8_lossy(&run.stderr);
    assert!(
        error.contains("no game could be read from the records given"),
        "{error}"
    );
}
