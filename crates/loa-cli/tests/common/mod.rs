//! Running the `loa` binary from a test.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `loa` with `args`, feeds it `input` on standard input and waits for it.
pub fn loa(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_loa"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("loa runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}
