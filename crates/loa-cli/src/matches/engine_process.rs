//! One engine process: started, spoken to line by line, and stopped.
//!
//! A dedicated thread reads the engine's standard output and sends what it reads over a
//! channel, so that every wait is a `recv_timeout` with a deadline: no polling and no
//! sleeps. The reader keeps the last score of the `info` lines itself and hands it over
//! with the `bestmove` that follows, so a move costs one wake-up of the referee.

use super::engine_spec::{EngineSpec, Protocol};
use super::process_group;
use loa_core::RuleSet;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::{Duration, Instant};

/// How long an engine in `proto=auto` has to answer `ugi` before `uci` is tried.
const UGI_PROBE: Duration = Duration::from_secs(2);

/// A score as an engine reports it, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    Cp(i32),
    /// Moves to a connection: positive when the side to move wins.
    Mate(i32),
}

impl EngineScore {
    /// In centipawns, a mate as a score beyond any evaluation (±100000 less the distance).
    pub fn as_cp(self) -> i32 {
        match self {
            EngineScore::Cp(cp) => cp,
            EngineScore::Mate(n) if n > 0 => 100_000 - n,
            EngineScore::Mate(n) => -100_000 - n,
        }
    }
}

/// The reply to `go`.
#[derive(Clone, Debug)]
pub struct BestMove {
    /// The move's text (`b1d3`, `0000`, `(none)`), or `None` for a bare `bestmove`.
    pub text: Option<String>,
    /// The whole line, for error messages.
    pub line: String,
    /// The last score of the `info` lines before it.
    pub score: Option<EngineScore>,
    /// When the reader thread read the line.
    pub at: Instant,
}

/// What the reader thread passes on.
#[derive(Debug)]
enum Event {
    Line(String),
    BestMove(BestMove),
    /// The output closed: the process has exited (or closed it).
    Eof,
}

/// How a handshake ended.
enum Handshake {
    Done,
    /// The engine said the command is unknown.
    Refused(String),
}

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process could not be started.
    Spawn(String),
    /// The process exited (or closed its output); how, in words.
    Exited(String),
    /// No answer in time; what was awaited.
    Timeout(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn(e) => write!(f, "could not be started: {e}"),
            EngineError::Exited(how) => write!(f, "the engine process {how}"),
            EngineError::Timeout(what) => write!(f, "no {what} in time"),
        }
    }
}

/// A running engine that has answered the handshake.
pub struct EngineProcess {
    child: Child,
    /// `None` once closed (after `quit`).
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    protocol: Protocol,
    /// The name the engine gives itself (`id name`).
    pub id_name: Option<String>,
    /// The options the engine declared.
    pub declared: Vec<String>,
    /// Set once the output has closed or the process was killed.
    gone: bool,
    reaped: bool,
}

impl EngineProcess {
    /// Starts the engine, shakes hands, sets its options and the rule set, and waits
    /// for `readyok`; every step within `timeout`.
    pub fn start(
        spec: &EngineSpec,
        rules: RuleSet,
        timeout: Duration,
    ) -> Result<EngineProcess, EngineError> {
        let mut command = Command::new(&spec.cmd);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        process_group::isolate(&mut command);
        let mut child = command
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("{}: {e}", spec.cmd.display())))?;
        process_group::register(child.id());
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, events) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name(format!("read {}", spec.name))
            .spawn(move || read_output(stdout, tx));
        if let Err(e) = spawned {
            process_group::kill(child.id());
            let _ = child.wait();
            return Err(EngineError::Spawn(format!("no reader thread: {e}")));
        }
        let mut engine = EngineProcess {
            child,
            stdin: Some(stdin),
            events,
            protocol: spec.protocol,
            id_name: None,
            declared: Vec::new(),
            gone: false,
            reaped: false,
        };
        engine.handshake(spec.protocol, timeout)?;
        let mut setup = String::new();
        for (name, value) in &spec.options {
            setup.push_str(&format!("setoption name {name} value {value}\n"));
        }
        let declares_rules = engine
            .declared
            .iter()
            .any(|o| o.eq_ignore_ascii_case("SimultaneousConnection"));
        if declares_rules || rules != RuleSet::Draw {
            setup.push_str(&format!(
                "setoption name SimultaneousConnection value {}\n",
                rules.name()
            ));
        }
        setup.push_str("isready\n");
        engine.send(&setup)?;
        engine.wait_for_line("readyok", timeout)?;
        Ok(engine)
    }

    fn handshake(&mut self, protocol: Protocol, timeout: Duration) -> Result<(), EngineError> {
        let start = Instant::now();
        let full = start + timeout;
        let refused =
            |line: String| EngineError::Exited(format!("refused the handshake: '{line}'"));
        if protocol == Protocol::Uci {
            self.send("uci\n")?;
            return match self.collect_handshake(full, "uciok")? {
                Handshake::Done => Ok(()),
                Handshake::Refused(line) => Err(refused(line)),
            };
        }
        self.send("ugi\n")?;
        if protocol == Protocol::Ugi {
            return match self.collect_handshake(full, "ugiok")? {
                Handshake::Done => Ok(()),
                Handshake::Refused(line) => Err(refused(line)),
            };
        }
        // Auto: an engine that says anything of its own (id, option) speaks UGI and gets
        // the whole timeout; one that is silent or says `ugi` is unknown is asked `uci`.
        let probe = start + UGI_PROBE.min(timeout);
        let answer = match self.collect_handshake(probe, "ugiok") {
            Err(EngineError::Timeout(_)) if self.id_name.is_some() || !self.declared.is_empty() => {
                self.collect_handshake(full, "ugiok")?
            }
            Err(EngineError::Timeout(_)) => Handshake::Refused(String::new()),
            other => other?,
        };
        match answer {
            Handshake::Done => Ok(()),
            Handshake::Refused(_) => {
                self.send("uci\n")?;
                match self.collect_handshake(full, "uciok")? {
                    Handshake::Done => Ok(()),
                    Handshake::Refused(line) => Err(refused(line)),
                }
            }
        }
    }

    /// Reads `id` and `option` lines until `ok` (`uciok` is accepted for `ugiok`: an
    /// engine may answer both commands alike), or a line that says the command is
    /// unknown.
    fn collect_handshake(&mut self, deadline: Instant, ok: &str) -> Result<Handshake, EngineError> {
        loop {
            match self.next_event(deadline, ok)? {
                Event::Line(line) => {
                    let mut words = line.split_whitespace();
                    match words.next() {
                        Some(w) if w == ok || w == "uciok" || w == "ugiok" => {
                            self.protocol = if w == "uciok" {
                                Protocol::Uci
                            } else {
                                Protocol::Ugi
                            };
                            return Ok(Handshake::Done);
                        }
                        Some("id") => {
                            if words.next() == Some("name") {
                                self.id_name = Some(words.collect::<Vec<_>>().join(" "));
                            }
                        }
                        Some("option") => {
                            if let Some(name) = option_name(&line) {
                                self.declared.push(name);
                            }
                        }
                        _ => {
                            if line.to_ascii_lowercase().contains("unknown") {
                                return Ok(Handshake::Refused(line));
                            }
                        }
                    }
                }
                Event::BestMove(_) => {}
                Event::Eof => unreachable!("next_event turns Eof into an error"),
            }
        }
    }

    /// Writes text (one or more whole lines) and flushes it.
    pub fn send(&mut self, text: &str) -> Result<(), EngineError> {
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(text.as_bytes())
                .and_then(|()| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        match written {
            Ok(()) => Ok(()),
            Err(_) => Err(self.exited()),
        }
    }

    /// The next event before the deadline; the end of the output becomes `Exited`.
    fn next_event(&mut self, deadline: Instant, awaited: &str) -> Result<Event, EngineError> {
        if self.gone {
            return Err(self.exited());
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(wait) {
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => Err(self.exited()),
            Ok(event) => Ok(event),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(awaited.to_string())),
        }
    }

    /// Waits for a line that starts with `word`, ignoring others.
    fn wait_for_line(&mut self, word: &str, timeout: Duration) -> Result<(), EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Event::Line(line) = self.next_event(deadline, word)? {
                if line.split_whitespace().next() == Some(word) {
                    return Ok(());
                }
            }
        }
    }

    /// Tells the engine a new game starts, and waits until it is ready.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.discard_pending()?;
        let command = match self.protocol {
            Protocol::Uci => "ucinewgame\nisready\n",
            _ => "uginewgame\nisready\n",
        };
        self.send(command)?;
        self.wait_for_line("readyok", timeout)
    }

    /// Drops what the engine said since the last wait (a late line cannot be taken for
    /// the answer to the next command); notices an engine that has gone.
    fn discard_pending(&mut self) -> Result<(), EngineError> {
        loop {
            match self.events.try_recv() {
                Ok(Event::Eof) | Err(TryRecvError::Disconnected) => return Err(self.exited()),
                Ok(_) => {}
                Err(TryRecvError::Empty) => return Ok(()),
            }
        }
    }

    /// Sends `position` and `go` lines and returns when they were sent.
    pub fn go(&mut self, position: &str, go: &str) -> Result<Instant, EngineError> {
        self.discard_pending()?;
        let text = format!("{position}\n{go}\n");
        self.send(&text)?;
        Ok(Instant::now())
    }

    /// Waits for `bestmove` until the deadline.
    pub fn wait_bestmove(&mut self, deadline: Instant) -> Result<BestMove, EngineError> {
        loop {
            if let Event::BestMove(best) = self.next_event(deadline, "bestmove")? {
                return Ok(best);
            }
        }
    }

    /// After a missed deadline: asks the engine to stop and waits up to `grace` for its
    /// `bestmove`. `true` if it answered, so that it can go on being used.
    pub fn stop_search(&mut self, grace: Duration) -> bool {
        if self.send("stop\n").is_err() {
            return false;
        }
        self.wait_bestmove(Instant::now() + grace).is_ok()
    }

    /// Whether the protocol is UCI (which has no `p1time`/`p2time`).
    pub fn is_uci(&self) -> bool {
        self.protocol == Protocol::Uci
    }

    /// Marks the engine as gone and says how it went.
    fn exited(&mut self) -> EngineError {
        self.gone = true;
        let status = match self.child.try_wait() {
            Ok(Some(status)) => Some(status),
            _ => {
                // The output closes a moment before the process can be reaped; an
                // engine that closed its output but goes on is ended here.
                process_group::kill(self.child.id());
                self.child.wait().ok()
            }
        };
        self.reaped = true;
        EngineError::Exited(match status {
            Some(status) => describe_exit(status),
            None => "exited".to_string(),
        })
    }

    /// Sends `quit`, closes the engine's input and waits a little for the process to
    /// end; then ends it.
    pub fn quit(mut self, grace: Duration) {
        if !self.gone && self.send("quit\n").is_ok() {
            self.stdin = None;
            let deadline = Instant::now() + grace;
            while let Ok(event) = self.next_event(deadline, "exit") {
                if let Event::Eof = event {
                    break;
                }
            }
        }
        // Drop kills what is left and reaps the process.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // Whatever the engine started goes with it, even after a clean exit.
        process_group::kill(self.child.id());
        if !self.reaped {
            let _ = self.child.wait();
        }
    }
}

fn describe_exit(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exited with code {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("was killed by signal {signal}");
        }
    }
    "exited".to_string()
}

/// `option name Hash type spin ...` -> `Hash` (names may hold spaces).
fn option_name(line: &str) -> Option<String> {
    let rest = line.split_once(" name ")?.1;
    let name = match rest.find(" type ") {
        Some(end) => &rest[..end],
        None => rest,
    };
    let name = name.trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// `info ... score cp 12 ...` or `score mate -3`.
fn parse_score(line: &str) -> Option<EngineScore> {
    let mut words = line.split_whitespace();
    while let Some(word) = words.next() {
        if word == "score" {
            let kind = words.next()?;
            let value: i32 = words.next()?.parse().ok()?;
            return match kind {
                "cp" => Some(EngineScore::Cp(value)),
                "mate" => Some(EngineScore::Mate(value)),
                _ => None,
            };
        }
    }
    None
}

/// The reader thread: passes lines on until the output closes or nobody listens.
fn read_output(stdout: ChildStdout, tx: Sender<Event>) {
    let mut reader = BufReader::with_capacity(1 << 16, stdout);
    let mut buf = Vec::with_capacity(256);
    let mut score = None;
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => {
                let _ = tx.send(Event::Eof);
                return;
            }
            Ok(_) => {}
        }
        let text = String::from_utf8_lossy(&buf);
        let line = text.trim();
        let mut words = line.split_whitespace();
        let event = match words.next() {
            None => continue,
            Some("info") => {
                if let Some(s) = parse_score(line) {
                    score = Some(s);
                }
                continue;
            }
            Some("bestmove") => Event::BestMove(BestMove {
                text: words.next().map(str::to_string),
                line: line.to_string(),
                score: score.take(),
                at: Instant::now(),
            }),
            Some(_) => Event::Line(line.to_string()),
        };
        if tx.send(event).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_scores_and_option_names() {
        assert_eq!(
            parse_score("info depth 3 seldepth 3 score cp -12 nodes 3537 pv a7c7"),
            Some(EngineScore::Cp(-12))
        );
        assert_eq!(
            parse_score("info depth 9 score mate -3"),
            Some(EngineScore::Mate(-3))
        );
        assert_eq!(parse_score("info string hello"), None);
        assert_eq!(
            option_name("option name Hash type spin default 64 min 1 max 65536").as_deref(),
            Some("Hash")
        );
        assert_eq!(
            option_name("option name Move Overhead type spin").as_deref(),
            Some("Move Overhead")
        );
        assert!(EngineScore::Mate(2).as_cp() > EngineScore::Mate(5).as_cp());
        assert!(EngineScore::Mate(-2).as_cp() < -90_000);
    }
}
