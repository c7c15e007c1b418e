//! `loa solve` and `loa verify-proof`: a proved win written and checked, a loss, a
//! tampered proof refused, and bad input.

mod common;

use common::loa;

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// `loa solve --position POS` with `extra` arguments and `--proof` into a fresh
/// directory: the output, the directory (the proof lives as long as it) and the proof's
/// path.
fn solve_with_proof(
    position: &str,
    extra: &[&str],
) -> (std::process::Output, tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proof.txt").to_str().unwrap().to_string();
    let mut args = vec!["solve", "--position", position, "--proof", &path];
    args.extend_from_slice(extra);
    let out = loa(&args, "");
    (out, dir, path)
}

#[test]
fn a_win_is_proved_written_and_checked() {
    // Black to move: a1-b2 or a1-d1 joins a1 and c1.
    let (out, _dir, path) = solve_with_proof("8/8/8/8/8/7w/8/b1b4w b", &[]);
    let path_text = path.as_str();
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(text.starts_with("win\n"), "{text}");
    assert!(text.contains("best move a1-"), "{text}");
    assert!(text.contains("(checked)"), "{text}");
    let checked = loa(&["verify-proof", path_text], "");
    assert!(checked.status.success(), "{checked:?}");
    assert!(
        stdout(&checked).starts_with("valid: Black wins"),
        "{}",
        stdout(&checked)
    );
    // The same proof checked under the other rule set (no simultaneous connection in it).
    let other = loa(&["verify-proof", path_text, "--rules", "mover-wins"], "");
    assert!(stdout(&other).contains("mover-wins rules"), "{other:?}");
    let bad_rules = loa(&["verify-proof", path_text, "--rules", "chess"], "");
    assert!(!bad_rules.status.success());
    // A proof changed by hand is refused.
    let proof = std::fs::read_to_string(&path).unwrap();
    let forged = proof.replace("=win", "=1");
    std::fs::write(&path, forged).unwrap();
    let refused = loa(&["verify-proof", path_text], "");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("does not prove"));
}

#[test]
fn a_certificate_is_written_checked_and_made_from_a_proof() {
    // Black wins in three moves, two of Black's choices not a win at once.
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (proof, certificate) = (at("proof.txt"), at("win.cert.gz"));
    let args = [
        "solve",
        "--position",
        "3b2/6/1bw1b1/5b/ww4/3w2 b",
        "--proof",
        &proof,
        "--certificate",
        &certificate,
    ];
    let out = loa(&args, "");
    assert!(out.status.success(), "{out:?}");
    let summary = "2 entries, 4 positions, longest line 5 moves";
    assert!(
        stdout(&out).contains(&format!(
            "certificate {summary} written to {certificate} (checked)"
        )),
        "{}",
        stdout(&out)
    );
    let checked = loa(&["verify-proof", &certificate], "");
    assert_eq!(
        stdout(&checked),
        format!(
            "valid: Black wins from 3b2/6/1bw1b1/5b/ww4/3w2 b (Standard, draw rules): {summary}\n"
        )
    );
    // The proof made into a certificate under the other rule set, checked under it.
    let other = at("mover-wins.cert.gz");
    let made = loa(
        &[
            "verify-proof",
            &proof,
            "--rules",
            "mover-wins",
            "--certificate",
            &other,
        ],
        "",
    );
    assert!(made.status.success(), "{made:?}");
    let checked = loa(&["verify-proof", &other], "");
    assert!(
        stdout(&checked).contains("(Standard, mover-wins rules): "),
        "{checked:?}"
    );
    let again = loa(
        &["verify-proof", &other, "--certificate", &at("again.gz")],
        "",
    );
    assert!(String::from_utf8_lossy(&again.stderr).contains("is a certificate already"));
    // A certificate whose first entry is changed (written without compression) is refused
    // with where it fails.
    let forged = at("forged.cert");
    std::fs::write(
        &forged,
        "loa-certificate 1\nvariant standard\nrules draw\nposition 3b2/6/1bw1b1/5b/ww4/3w2 b\n\
         winner black\nentries 2\n\x00\x00",
    )
    .unwrap();
    let refused = loa(&["verify-proof", &forged], "");
    assert!(!refused.status.success());
    let error = String::from_utf8_lossy(&refused.stderr);
    assert!(
        error.contains("forged.cert does not prove a win"),
        "{error}"
    );
    assert!(error.contains("after "), "{error}");
    // A damaged compressed file is an error, not a panic.
    let mut damaged = std::fs::read(&certificate).unwrap();
    let middle = damaged.len() / 2;
    damaged.truncate(middle);
    std::fs::write(&forged, &damaged).unwrap();
    let refused = loa(&["verify-proof", &forged], "");
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
    assert!(String::from_utf8_lossy(&refused.stderr).contains("does not prove a win"));
}

#[test]
fn a_lost_position_is_a_loss_and_its_proof_is_the_winners() {
    // White (h1, h5) cannot join in one move; Black (a1, c1) joins next whatever White does.
    let (out, _dir, path) = solve_with_proof("8/8/8/7w/8/8/8/b1b4w w", &[]);
    let path_text = path.as_str();
    assert!(out.status.success(), "{out:?}");
    assert!(stdout(&out).starts_with("loss\n"), "{}", stdout(&out));
    let checked = loa(&["verify-proof", path_text], "");
    assert!(
        stdout(&checked).starts_with("valid: Black wins"),
        "{checked:?}"
    );
    // Taken back to a position from which Black's a2-a1 leads there: a proof of that one,
    // written as a certificate; and to one from which no move leads there.
    let dir = tempfile::tempdir().unwrap();
    let certificate = dir.path().join("before.gz");
    let certificate = certificate.to_str().unwrap();
    let before = "8/8/8/7w/8/8/b7/2b4w b";
    let args = [
        "verify-proof",
        path_text,
        "--from",
        before,
        "--certificate",
        certificate,
    ];
    let taken_back = loa(&args, "");
    assert!(
        stdout(&taken_back).starts_with(&format!("valid: Black wins from {before} ")),
        "{taken_back:?}"
    );
    let checked = loa(&["verify-proof", certificate], "");
    assert!(stdout(&checked).starts_with(&format!("valid: Black wins from {before} ")));
    let wrong = loa(
        &[
            "verify-proof",
            path_text,
            "--from",
            "8/8/8/7w/8/b7/8/2b4w b",
        ],
        "",
    );
    let error = String::from_utf8_lossy(&wrong.stderr);
    assert!(
        error.contains("no move leads from 8/8/8/7w/8/b7/8/2b4w b"),
        "{error}"
    );
    let not_a_position = loa(&["verify-proof", path_text, "--from", "8/8 b"], "");
    assert!(
        String::from_utf8_lossy(&not_a_position.stderr).contains("--from 8/8 b: not a position")
    );
    // With White's pieces on h1 and h3 instead, White joins them first.
    let win = loa(&["solve", "--position", "8/8/8/8/8/7w/8/b1b4w w"], "");
    assert!(stdout(&win).starts_with("win\n"), "{}", stdout(&win));
}

#[test]
fn an_unsolved_position_is_unknown_when_time_runs_out() {
    let out = loa(
        &["solve", "--board", "6", "--time", "0.3", "--hash", "16"],
        "",
    );
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(text.starts_with("unknown\n"), "{text}");
    // How far each of Black's first moves got: 6 up to the symmetries of the start.
    let line = text
        .lines()
        .find(|l| l.starts_with("root moves: "))
        .unwrap();
    assert!(
        line.contains(
            " of 6 (the other 18 are their mirror images) shown not to win for Black; open "
        ),
        "{line}"
    );
    let open = line.split_once("numbers): ").unwrap().1.split(", ");
    let shown: usize = line["root moves: ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(open.count() + shown, 6, "{line}");
}

#[test]
fn bad_input_is_refused_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(
        &bad,
        "loa-proof 1\nvariant standard\nrules draw\nposition zz b\nwinner black\n0: a1-b2=win\n",
    )
    .unwrap();
    for args in [
        vec!["solve", "--position", "not a position"],
        vec!["solve", "--hash", "0"],
        vec!["solve", "--hash", "-5"],
        vec!["solve", "--threads", "0"],
        vec!["solve", "--threads", "99999999999999999999"],
        vec!["solve", "--time", "-1"],
        vec!["solve", "--checkpoint", "c.ckpt", "--checkpoint-every", "0"],
        vec![
            "solve",
            "--checkpoint",
            "c.ckpt",
            "--checkpoint-every",
            "-3",
        ],
        vec![
            "solve",
            "--checkpoint",
            "c.ckpt",
            "--checkpoint-every",
            "99999999999999999999",
        ],
        vec!["solve", "--checkpoint-every", "60"],
        vec!["solve", "--position", "8/8/8/8/8/8/8/bb5w b"],
        vec!["verify-proof", "/nonexistent/proof.txt"],
        vec!["verify-proof", bad.to_str().unwrap()],
    ] {
        let out = loa(&args, "");
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.trim().is_empty(), "{args:?}");
    }
}

#[test]
fn a_long_solve_is_checkpointed_and_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("six.ckpt");
    let path = checkpoint.to_str().unwrap();
    let first = loa(
        &[
            "solve",
            "--board",
            "6",
            "--time",
            "0.5",
            "--hash",
            "16",
            "--checkpoint",
            path,
            "--checkpoint-every",
            "60",
        ],
        "",
    );
    // Written when the time runs out, whatever the interval.
    assert!(stdout(&first).starts_with("unknown\n"), "{first:?}");
    assert!(stdout(&first).contains("root proof number"), "{first:?}");
    assert!(checkpoint.exists());
    let again = loa(
        &[
            "solve", "--board", "6", "--time", "0.5", "--hash", "16", "--resume", path,
        ],
        "",
    );
    assert!(again.status.success(), "{again:?}");
    assert!(String::from_utf8_lossy(&again.stderr).contains("resuming from"));
    // Another table size takes the entries in by their keys.
    let bigger = loa(
        &[
            "solve", "--board", "6", "--time", "0.2", "--hash", "32", "--resume", path,
        ],
        "",
    );
    assert!(bigger.status.success(), "{bigger:?}");
    // Another position is refused.
    let other = loa(
        &[
            "solve", "--board", "7", "--time", "0.1", "--hash", "16", "--resume", path,
        ],
        "",
    );
    assert!(!other.status.success(), "{other:?}");
    assert!(String::from_utf8_lossy(&other.stderr).contains("another position"));
}

#[test]
fn analyze_reports_what_the_solver_proves_beside_the_search() {
    // White wins in 5 (a position of the test set).
    let out = loa(
        &[
            "analyze",
            "--position",
            "3wbw2/2bb4/4b3/2b2w2/8/3b3b/8/3bb1b1 w",
            "--time",
            "2",
            "--solve",
        ],
        "",
    );
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(text.contains("proved: d8-e7 wins, in at most"), "{text}");
    assert!(text.contains("checked"), "{text}");
}

#[test]
fn two_threads_prove_a_deep_win_with_a_checked_proof() {
    // Won for White in 5 or 6 moves (from the solver's test set).
    let (out, _dir, path) = solve_with_proof(
        "3w4/2w5/wb1w4/1wbb4/2b1w3/8/3w4/4b3 w",
        &["--threads", "2", "--hash", "16"],
    );
    let path_text = path.as_str();
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(text.starts_with("win\n"), "{text}");
    assert!(text.contains("(checked)"), "{text}");
    let checked = loa(&["verify-proof", path_text], "");
    assert!(
        stdout(&checked).starts_with("valid: White wins"),
        "{checked:?}"
    );
}

#[test]
fn parachute_turns_are_solved_and_their_proofs_checked() {
    // Black joins a1 and b3 with a1-a2, and places White's last piece on any of some 60
    // empty squares: more turns than a move list of the standard game holds.
    let position = "7w/6w1/8/8/8/1b6/8/b7 b 0 1";
    let (out, _dir, path) = solve_with_proof(position, &["--variant", "parachute"]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(text.starts_with("win\nbest move a1-a2@"), "{text}");
    let checked = loa(&["verify-proof", &path], "");
    assert!(
        stdout(&checked).starts_with("valid: Black wins"),
        "{checked:?}"
    );
    let analysis = loa(
        &[
            "analyze",
            "--variant",
            "parachute",
            "--position",
            position,
            "--time",
            "1",
            "--solve",
        ],
        "",
    );
    assert!(analysis.status.success(), "{analysis:?}");
    assert!(
        stdout(&analysis).contains("proved: a1-a2@"),
        "{}",
        stdout(&analysis)
    );
}

#[test]
fn a_proof_naming_a_huge_node_is_refused_by_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proof.txt");
    std::fs::write(
        &path,
        "loa-proof 1\nvariant standard\nrules draw\nposition 8/8/8/8/8/7w/8/b1b4w b\n\
         winner black\n0: a1-a2=99999999\n99999999: h3-h2=win\n",
    )
    .unwrap();
    let out = loa(&["verify-proof", path.to_str().unwrap()], "");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "line 7: node 99999999: the proof has 2 node lines, so its nodes are numbered 0 to 1"
        ),
        "{err}"
    );
}

#[test]
fn output_files_are_checked_before_the_solve_starts() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-folder");
    let file = missing.join("out.txt");
    let file = file.to_str().unwrap();
    for option in ["--proof", "--checkpoint"] {
        // The 6x6 start is not solved in 30 s: the error comes first.
        let started = std::time::Instant::now();
        let out = loa(
            &[
                "solve", "--board", "6", "--time", "30", "--hash", "16", option, file,
            ],
            "",
        );
        assert!(started.elapsed().as_secs() < 20, "{out:?}");
        assert!(!out.status.success(), "{out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            err.trim(),
            format!(
                "error: {option} {file}: the folder {} does not exist",
                missing.display()
            )
        );
    }
}

#[test]
fn a_truncated_checkpoint_is_refused_with_where_it_ends() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("six.ckpt");
    let path = checkpoint.to_str().unwrap();
    let first = loa(
        &[
            "solve",
            "--board",
            "6",
            "--time",
            "0.2",
            "--hash",
            "16",
            "--checkpoint",
            path,
        ],
        "",
    );
    assert!(first.status.success(), "{first:?}");
    let bytes = std::fs::read(&checkpoint).unwrap();
    std::fs::write(&checkpoint, &bytes[..bytes.len() - 5]).unwrap();
    let again = loa(
        &[
            "solve", "--board", "6", "--time", "0.2", "--hash", "16", "--resume", path,
        ],
        "",
    );
    assert!(!again.status.success(), "{again:?}");
    let err = String::from_utf8_lossy(&again.stderr);
    let entries = (bytes.len() - 39) / 20;
    assert_eq!(
        err.trim(),
        format!(
            "error: cannot resume from {path}: the file is truncated or damaged: its header \
             counts {entries} entries, but its {} bytes end inside entry {entries}",
            bytes.len() - 5
        )
    );
}

#[test]
fn the_solver_beside_a_search_to_a_depth_has_time_to_prove() {
    // White wins in 5 (a position of the solver's deep test set, some 0.1 s of solving);
    // the search to depth 1 ends at once.
    let out = loa(
        &[
            "analyze",
            "--position",
            "3wbw2/2bb4/5w2/2b2w2/2b5/3b3b/8/3bb1b1 w",
            "--depth",
            "1",
            "--solve",
        ],
        "",
    );
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    let proved = text
        .lines()
        .find(|l| l.starts_with("proved: "))
        .unwrap_or("");
    assert!(proved.contains(" wins, in at most "), "{text}");
}

#[test]
fn one_side_s_win_refuted_is_said_in_words() {
    // Black to move cannot force a connection here (White wins, as the full solve says).
    let args = [
        "solve",
        "--position",
        "1w1bb1/2w2w/w3b1/3wb1/3w1w/1bbw2 b",
        "--prove",
        "black",
        "--hash",
        "16",
    ];
    let out = loa(&args, "");
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(text.starts_with("unknown\n"), "{text}");
    assert!(
        text.contains(
            "Black's win is disproved: Black cannot force a connection (White wins or it is \
             a draw; that was not tried)"
        ),
        "{text}"
    );
    // Neither the refuted root's numbers nor its moves, which the refutation left stale.
    assert!(!text.contains("root moves"), "{text}");
    assert!(!text.contains("1073741823"), "{text}");
}
