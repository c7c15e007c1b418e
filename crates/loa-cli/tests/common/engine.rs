//! `loa engine` run as a GUI runs it, for the protocol tests: a child process over
//! pipes, its output read line by line by a thread.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Long enough for anything a test asks, short enough that a hang fails the test.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A running `loa engine` with a thread that reads its output.
pub struct Loa {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Loa {
    pub fn start() -> Loa {
        let mut child = Command::new(env!("CARGO_BIN_EXE_loa"))
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("loa engine starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Loa {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to loa");
        stdin.flush().unwrap();
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to loa");
        stdin.flush().unwrap();
    }

    pub fn try_recv(&self, wait: Duration) -> Option<String> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => panic!("loa closed its output"),
        }
    }

    pub fn recv(&self) -> String {
        self.try_recv(PATIENCE)
            .expect("loa answers within the patience limit")
    }

    /// The lines up to and including the first that satisfies `done`.
    pub fn until(&self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.recv();
            let last = done(&line);
            lines.push(line);
            if last {
                return lines;
            }
        }
    }

    /// Sends `isready` and returns the lines before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends a command and returns everything it printed.
    pub fn ask(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        self.sync()
    }

    /// The one line a command prints.
    pub fn ask_one(&mut self, command: &str) -> String {
        let lines = self.ask(command);
        assert_eq!(lines.len(), 1, "{command}: {lines:?}");
        lines[0].clone()
    }

    /// Sends a `perft` and returns its lines, up to the total.
    pub fn perft(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        self.until(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_digit()))
    }

    /// Sends a `go` and returns its info lines and the move of `bestmove`.
    pub fn go(&mut self, command: &str) -> (Vec<String>, String) {
        self.send(command);
        let mut lines = self.until(|l| l.starts_with("bestmove"));
        let best = lines.pop().unwrap();
        (lines, best["bestmove ".len()..].to_string())
    }

    /// Closes the input and waits for the exit.
    pub fn close(&mut self) -> ExitStatus {
        drop(self.stdin.take());
        self.wait()
    }

    pub fn wait(&mut self) -> ExitStatus {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "loa did not exit");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The remaining output once loa has exited.
    pub fn rest(&self) -> Vec<String> {
        let mut lines = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(5)) {
            lines.push(line);
        }
        lines
    }
}

impl Drop for Loa {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
