//! One engine process: started, spoken to line by line, and stopped.
//!
//! A dedicated thread reads the engine's standard output and sends what it reads over a
//! channel, so that every wait is a `recv_timeout` with a deadline: no polling and no
//! sleeps. The reader keeps the last score of the `info` lines itself and hands it over
//! with the `bestmove` that follows, so a move costs one wake-up of the referee.

use super::engine_spec::{EngineSpec, Protocol};
use super::process_group;
use loa_core::excerpt;
use loa_core::{RuleSet, Variant};
use loa_engine::Score;
use loa_ugi::{
    read_line, skip_line, Command, Dialect, Go, LineRead, OptionKind, Response, MAX_LINE,
};
use std::fmt;
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::{Duration, Instant};

/// How long an engine in `proto=auto` has to answer `ugi` before `uci` is tried.
const UGI_PROBE: Duration = Duration::from_secs(2);

/// The reply to `go`.
#[derive(Clone, Debug)]
pub struct BestMove {
    /// The move's text (`b1d3`, `0000`), or `None` for `bestmove (none)` or a bare
    /// `bestmove`.
    pub text: Option<String>,
    /// The whole line, for error messages.
    pub line: String,
    /// The last score of the `info` lines before it, from the mover's side.
    pub score: Option<Score>,
    /// When the reader thread read the line.
    pub at: Instant,
}

/// What the reader thread passes on.
#[derive(Debug)]
enum Event {
    /// Any response but `info` and `bestmove`.
    Response(Response),
    BestMove(BestMove),
    /// A line longer than [`MAX_LINE`]: the engine is broken.
    TooLong,
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
    /// A line of its output was longer than [`MAX_LINE`].
    LineTooLong,
    /// It answered a `setoption` with an error, or was given an option it does not
    /// declare: the option and what is wrong.
    BadOption(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn(e) => write!(f, "could not be started: {e}"),
            EngineError::Exited(how) => write!(f, "the engine process {how}"),
            EngineError::Timeout(what) => write!(f, "no {what} in time"),
            EngineError::LineTooLong => write!(
                f,
                "it wrote a line longer than {MAX_LINE} bytes (1 MB), which is not read"
            ),
            EngineError::BadOption(what) => write!(f, "{what}"),
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
    /// The values its `UCI_Variant` option offers (empty when it declares none).
    pub variants: Vec<String>,
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
        variant: Variant,
        timeout: Duration,
    ) -> Result<EngineProcess, EngineError> {
        let mut command = std::process::Command::new(&spec.cmd);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            // Else the failure to start would name the program, not the folder.
            if !dir.is_dir() {
                return Err(EngineError::Spawn(format!(
                    "its working directory dir={} is not a folder that exists",
                    dir.display()
                )));
            }
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
            variants: Vec::new(),
            gone: false,
            reaped: false,
        };
        engine.handshake(spec.protocol, timeout)?;
        if let Some((name, _)) = spec.options.iter().find(|(name, _)| !engine.declares(name)) {
            return Err(EngineError::BadOption(format!(
                "option.{}: the engine declares no such option (it declares {})",
                excerpt(name),
                engine.declared_list()
            )));
        }
        let mut setup: Vec<Command> = spec
            .options
            .iter()
            .map(|(name, value)| Command::SetOption {
                name: name.clone(),
                value: Some(value.clone()),
            })
            .collect();
        let declares_rules = engine.declares("SimultaneousConnection");
        if declares_rules || rules != RuleSet::Draw {
            setup.push(Command::SetOption {
                name: "SimultaneousConnection".to_string(),
                value: Some(rules.name().to_string()),
            });
        }
        let declares_variants = engine.declares("UCI_Variant");
        if variant != Variant::Standard && !declares_variants {
            return Err(EngineError::Exited(format!(
                "declares no UCI_Variant option, so it cannot be asked to play {}",
                variant.title()
            )));
        }
        if declares_variants {
            setup.push(Command::SetOption {
                name: "UCI_Variant".to_string(),
                value: Some(variant.name().to_string()),
            });
        }
        // One at a time, each followed by `isready`: an error line before `readyok` is
        // the answer to that option.
        for option in &setup {
            engine.send(&[option.clone(), Command::IsReady])?;
            engine.wait_for_ready_after(option, timeout)?;
        }
        if setup.is_empty() {
            engine.send(&[Command::IsReady])?;
            engine.wait_for(&Response::ReadyOk, timeout)?;
        }
        Ok(engine)
    }

    /// The options the engine declared, for a message: the first dozen.
    fn declared_list(&self) -> String {
        const SHOWN: usize = 12;
        let mut names: Vec<String> = (self.declared.iter().take(SHOWN))
            .map(|name| excerpt(name).into_owned())
            .collect();
        if self.declared.len() > SHOWN {
            names.push(format!("and {} more", self.declared.len() - SHOWN));
        }
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        }
    }

    /// Whether the engine declared the option `name` (option names are read in any
    /// case).
    pub fn declares(&self, name: &str) -> bool {
        self.declared.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    /// Waits for `readyok` after `command`; a line before it that reports an error is
    /// the engine refusing the command.
    fn wait_for_ready_after(
        &mut self,
        command: &Command,
        timeout: Duration,
    ) -> Result<(), EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.next_event(deadline, "readyok")? {
                Event::Response(Response::ReadyOk) => return Ok(()),
                Event::Response(response) => {
                    if let Some(line) = error_reply(&response) {
                        return Err(EngineError::BadOption(format!(
                            "'{}': the engine answered '{}'",
                            excerpt(&command.to_string()),
                            excerpt(&line)
                        )));
                    }
                }
                _ => {}
            }
        }
    }

    fn handshake(&mut self, protocol: Protocol, timeout: Duration) -> Result<(), EngineError> {
        let start = Instant::now();
        let full = start + timeout;
        let refused = |line: String| {
            EngineError::Exited(format!("refused the handshake: '{}'", excerpt(&line)))
        };
        if protocol == Protocol::Uci {
            self.send(&[Command::Uci])?;
            return match self.collect_handshake(full, "uciok")? {
                Handshake::Done => Ok(()),
                Handshake::Refused(line) => Err(refused(line)),
            };
        }
        self.send(&[Command::Ugi])?;
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
                self.send(&[Command::Uci])?;
                match self.collect_handshake(full, "uciok")? {
                    Handshake::Done => Ok(()),
                    Handshake::Refused(line) => Err(refused(line)),
                }
            }
        }
    }

    /// Reads `id` and `option` lines until `ugiok` or `uciok` (either answers either
    /// command: an engine may answer both alike), or a line that says the command is
    /// unknown.
    fn collect_handshake(&mut self, deadline: Instant, ok: &str) -> Result<Handshake, EngineError> {
        loop {
            match self.next_event(deadline, ok)? {
                Event::Response(Response::UgiOk) => {
                    self.protocol = Protocol::Ugi;
                    return Ok(Handshake::Done);
                }
                Event::Response(Response::UciOk) => {
                    self.protocol = Protocol::Uci;
                    return Ok(Handshake::Done);
                }
                Event::Response(Response::IdName(name)) => self.id_name = Some(name),
                Event::Response(Response::Option(decl)) => {
                    if decl.name.eq_ignore_ascii_case("UCI_Variant") {
                        if let OptionKind::Combo { vars, .. } = &decl.kind {
                            self.variants.clone_from(vars);
                        }
                    }
                    self.declared.push(decl.name);
                }
                Event::Response(other) => {
                    let line = other.to_string();
                    if line.to_ascii_lowercase().contains("unknown") {
                        return Ok(Handshake::Refused(line));
                    }
                }
                Event::BestMove(_) => {}
                Event::Eof | Event::TooLong => {
                    unreachable!("next_event turns these into errors")
                }
            }
        }
    }

    /// Writes commands, a line each, and flushes them.
    pub fn send(&mut self, commands: &[Command]) -> Result<(), EngineError> {
        let mut text = String::new();
        for command in commands {
            text.push_str(&command.to_string());
            text.push('\n');
        }
        self.write(&text)
    }

    fn write(&mut self, text: &str) -> Result<(), EngineError> {
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
            Ok(Event::TooLong) => Err(EngineError::LineTooLong),
            Ok(event) => Ok(event),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(awaited.to_string())),
        }
    }

    /// Waits for a response, ignoring others.
    fn wait_for(&mut self, awaited: &Response, timeout: Duration) -> Result<(), EngineError> {
        let deadline = Instant::now() + timeout;
        let name = awaited.to_string();
        loop {
            if let Event::Response(response) = self.next_event(deadline, &name)? {
                if response == *awaited {
                    return Ok(());
                }
            }
        }
    }

    /// Tells the engine a new game starts, and waits until it is ready.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.discard_pending()?;
        let uci = self.protocol == Protocol::Uci;
        self.send(&[Command::NewGame { uci }, Command::IsReady])?;
        self.wait_for(&Response::ReadyOk, timeout)
    }

    /// Drops what the engine said since the last wait (a late line cannot be taken for
    /// the answer to the next command); notices an engine that has gone.
    fn discard_pending(&mut self) -> Result<(), EngineError> {
        loop {
            match self.events.try_recv() {
                Ok(Event::Eof) | Err(TryRecvError::Disconnected) => return Err(self.exited()),
                Ok(Event::TooLong) => return Err(EngineError::LineTooLong),
                Ok(_) => {}
                Err(TryRecvError::Empty) => return Ok(()),
            }
        }
    }

    /// Sends `position` and `go` (in the engine's dialect) and returns when they were
    /// sent.
    pub fn go(&mut self, position: &Command, go: &Go) -> Result<Instant, EngineError> {
        self.discard_pending()?;
        let dialect = match self.protocol {
            Protocol::Uci => Dialect::Uci,
            _ => Dialect::Ugi,
        };
        self.write(&format!("{position}\n{}\n", go.line(dialect)))?;
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
        if self.send(&[Command::Stop]).is_err() {
            return false;
        }
        self.wait_bestmove(Instant::now() + grace).is_ok()
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
        if !self.gone && self.send(&[Command::Quit]).is_ok() {
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

/// The line of a response that reports an error (`info string error: ...`, `No such
/// option: X`, `Unknown option`), as engines word them.
fn error_reply(response: &Response) -> Option<String> {
    let (Response::InfoString(text) | Response::Text(text)) = response else {
        return None;
    };
    let lower = text.to_ascii_lowercase();
    ["error", "unknown", "no such", "invalid", "illegal"]
        .iter()
        .any(|word| lower.contains(word))
        .then(|| response.to_string())
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

/// The reader thread: passes lines on until the output closes or nobody listens. It
/// keeps the last score of the `info` lines and hands it over with the `bestmove`. A
/// line beyond [`MAX_LINE`] is reported as soon as it passes the limit and skipped.
fn read_output(stdout: ChildStdout, tx: Sender<Event>) {
    let mut reader = BufReader::with_capacity(1 << 16, stdout);
    let mut buf = Vec::with_capacity(256);
    let mut score = None;
    loop {
        match read_line(&mut reader, &mut buf, MAX_LINE) {
            Ok(LineRead::Line) => {}
            Ok(LineRead::TooLong) => {
                if tx.send(Event::TooLong).is_err() || skip_line(&mut reader).is_err() {
                    return;
                }
                continue;
            }
            Ok(LineRead::End) | Err(_) => {
                let _ = tx.send(Event::Eof);
                return;
            }
        }
        let text = String::from_utf8_lossy(&buf);
        let line = text.trim();
        if line.is_empty() {
            continue;
        }
        // A malformed line is kept as text: only the referee judges what it awaits.
        let response = line
            .parse::<Response>()
            .unwrap_or_else(|_| Response::Text(line.to_string()));
        let event = match response {
            Response::Info(info) => {
                if info.score.is_some() {
                    score = info.score;
                }
                continue;
            }
            Response::BestMove(text) => Event::BestMove(BestMove {
                text,
                line: line.to_string(),
                score: score.take(),
                at: Instant::now(),
            }),
            other => Event::Response(other),
        };
        if tx.send(event).is_err() {
            return;
        }
    }
}
