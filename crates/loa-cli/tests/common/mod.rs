//! Running the `loa` binary from a test.
#![allow(dead_code)] // each test file uses a part

pub mod engine;
pub mod server;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// How long any run may take before the test calls it a hang.
pub const HANG: Duration = Duration::from_secs(60);

/// Runs `loa` with `args`, feeds it `input` on standard input and waits for it. Saved
/// games go to a data folder of its own that is removed afterwards.
pub fn loa(args: &[&str], input: impl AsRef<[u8]>) -> Output {
    let data = tempfile::tempdir().unwrap();
    loa_in(data.path(), args, input, HANG)
}

/// [`loa`] with the user's data folder at `data`, failing the test if it takes longer
/// than `limit`.
pub fn loa_in(data: &Path, args: &[&str], input: impl AsRef<[u8]>, limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_loa"))
        .args(args)
        .env("XDG_DATA_HOME", data)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("loa runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.as_ref().to_vec();
    // A program that stops reading must not block the test on a full pipe.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stdout.read_to_end(&mut buf);
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stderr.read_to_end(&mut buf);
        buf
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("loa {args:?} did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let _ = writer.join();
    Output {
        status,
        stdout: out_reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
    }
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}
