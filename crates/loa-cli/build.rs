//! Names the commit a binary was built from, for `loa --version`: which build a server
//! runs is the first thing asked of a report. Outside a git checkout (a source archive)
//! the version stands alone.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

fn main() {
    let version = env!("CARGO_PKG_VERSION");
    let full = match git(&["rev-parse", "--short=9", "HEAD"]) {
        Some(commit) => format!("{version} (commit {commit})"),
        None => version.to_string(),
    };
    println!("cargo:rustc-env=LOA_VERSION={full}");
    // Built again when HEAD moves: a commit, a checkout.
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        let dir = Path::new(&dir);
        println!("cargo:rerun-if-changed={}", dir.join("HEAD").display());
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={}", dir.join(branch).display());
        }
        println!(
            "cargo:rerun-if-changed={}",
            dir.join("packed-refs").display()
        );
    }
}
