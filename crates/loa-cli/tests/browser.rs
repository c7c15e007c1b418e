//! The page in a real browser: Debian's chromium driven by Playwright
//! (`crates/loa-web/e2e/run.mjs`) against a real `loa serve`. The scenarios play a whole
//! game against the engine by clicking, click illegally, reload, import an SGF record and
//! step through it, play an online game between two browsers until a flag falls, come
//! back to one's seat after closing the tab, check that no page is wider than a phone,
//! show a banner while the server is away, and set up the variants; two accounts pair
//! from the lobby's tiles, play, resign and see their ratings move and the profile's
//! chart; two people not signed in pair; sign-in errors, a forgotten password on a site
//! without e-mail, a challenge accepted, API tokens whose labels are shown as typed;
//! screenshots go to `target/e2e`.
//!
//! Without chromium or the npm packages (`npm ci` in `crates/loa-web/e2e`) the test says
//! so and passes, unless `LOA_REQUIRE_BROWSER` is set, as CI sets it.

mod common;

use common::server::Server;
use std::path::Path;
use std::process::Command;

#[test]
fn the_page_in_a_real_browser() {
    let e2e = Path::new(env!("CARGO_MANIFEST_DIR")).join("../loa-web/e2e");
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let missing: Vec<&str> = [
        (!Path::new(&chromium).exists()).then_some("chromium (apt-get install chromium)"),
        (!e2e.join("node_modules/playwright-core").exists())
            .then_some("playwright-core (npm ci in crates/loa-web/e2e)"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !missing.is_empty() {
        assert!(
            std::env::var_os("LOA_REQUIRE_BROWSER").is_none(),
            "the browser tests need {}",
            missing.join(" and ")
        );
        eprintln!("skipped: the browser tests need {}", missing.join(" and "));
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Reports at a small budget: the scenario waits for one. A small archive for the
    // opening explorer.
    let archive = Path::new(env!("CARGO_MANIFEST_DIR")).join("../loa-web/e2e/archive.pgn");
    let server = Server::start_with(
        &dir.path().join("games.db"),
        &[
            "--report-nodes",
            "20000",
            "--archive",
            archive.to_str().unwrap(),
        ],
    );
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/e2e");
    let output = Command::new("node")
        .arg(e2e.join("run.mjs"))
        .arg(&server.base)
        .arg(&shots)
        .env("CHROMIUM", &chromium)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.lines().filter(|l| l.starts_with("ok ")).count() >= 10,
        "{stdout}"
    );
}
