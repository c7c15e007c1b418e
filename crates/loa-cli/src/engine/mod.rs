//! `loa engine`: the engine protocol, a UGI dialect (UCI with `ugi`/`ugiok`) spoken line
//! by line on standard input and output. docs/protocol.md describes every command.
//!
//! The main thread reads commands; a search runs on its own thread, which owns the
//! [`Engine`] for the time of the search and hands it back when it ends, so `stop`,
//! `isready` and `quit` are answered at once. Commands that would change the state while
//! a search runs are refused with an error line.

mod go;
mod job;
mod options;
mod show;

use anyhow::Result;
use job::Job;
use loa_core::{excerpt, Game, Position};
use loa_engine::Engine;
use options::{Change, Options};
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Runs the protocol on standard input and output until `quit` or the end of the input.
pub fn run() -> Result<()> {
    let out = Out::new(Box::new(std::io::stdout()));
    Session::new(out).serve(std::io::stdin().lock());
    Ok(())
}

/// The output, shared by the command loop and the search thread. Every line is written
/// whole under the lock and flushed.
#[derive(Clone)]
pub(crate) struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    fn new(writer: Box<dyn Write + Send>) -> Out {
        Out(Arc::new(Mutex::new(writer)))
    }

    fn lock(&self) -> MutexGuard<'_, Box<dyn Write + Send>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes one line and flushes. A closed output is not an error here: the reader
    /// is gone, and the end of the input will follow.
    fn line(&self, text: &str) {
        let mut writer = self.lock();
        write_line(&mut **writer, text);
    }

    fn error(&self, message: &str) {
        // One line whatever the message holds.
        let message: String = message
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        self.line(&format!("info string error: {message}"));
    }
}

fn write_line(writer: &mut dyn Write, text: &str) {
    let _ = writeln!(writer, "{text}");
    let _ = writer.flush();
}

/// What a command handler reports: nothing, or the error line's message.
type Reply = Result<(), String>;

/// The protocol state: options, the game so far, and the engine (away while it searches).
struct Session {
    out: Out,
    options: Options,
    game: Game,
    /// `None` only while a search thread holds it.
    engine: Option<Engine>,
    /// A search or a count running on its own thread.
    job: Option<Job>,
}

impl Session {
    fn new(out: Out) -> Session {
        let options = Options::default();
        Session {
            out,
            engine: Some(Engine::new(options.hash_mb, options.rules)),
            game: Game::new(Position::startpos(), options.rules),
            options,
            job: None,
        }
    }

    /// Reads and answers commands until `quit` or the end of the input, then stops any
    /// search (which still prints its `bestmove`).
    fn serve(mut self, mut input: impl BufRead) {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            }
            // Bytes that are not UTF-8 become replacement characters, and so an unknown
            // command or a bad argument, never a failure of the loop.
            let line = String::from_utf8_lossy(&buf);
            if !self.handle(&line) {
                break;
            }
        }
        self.stop_job();
    }

    /// Answers one line; `false` for `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&first, args)) = tokens.split_first() else {
            return true;
        };
        let command = first.to_ascii_lowercase();
        self.collect_finished_job();
        let reply = match command.as_str() {
            "quit" => return false,
            "isready" => no_args(&command, args).map(|()| self.out.line("readyok")),
            "stop" => no_args(&command, args).map(|()| self.stop_job()),
            "ugi" | "uci" => no_args(&command, args).map(|()| self.handshake(&command)),
            "query" => self.query(args),
            "validmoves" => no_args(&command, args).map(|()| self.valid_moves()),
            "d" => no_args(&command, args).map(|()| self.display()),
            "eval" => no_args(&command, args).map(|()| self.eval()),
            "uginewgame" | "ucinewgame" | "setoption" | "position" | "go" | "perft"
                if self.job.is_some() =>
            {
                Err(format!(
                    "'{command}' is refused while a search or perft runs: send stop first, or \
                     wait for it to end"
                ))
            }
            "uginewgame" | "ucinewgame" => no_args(&command, args).map(|()| self.new_game()),
            "setoption" => self.set_option(args),
            "position" => self.position(args),
            "go" => self.go(args),
            "perft" => self.perft(args),
            _ => Err(format!(
                "unknown command '{}' (commands: ugi, uci, isready, setoption, uginewgame, \
                 ucinewgame, position, go, stop, quit, query, validmoves, perft, d, eval)",
                excerpt(first)
            )),
        };
        if let Err(message) = reply {
            self.out.error(&message);
        }
        true
    }

    fn handshake(&self, command: &str) {
        self.out
            .line(&format!("id name loa {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the loa developers");
        for line in options::DECLARATIONS {
            self.out.line(line);
        }
        self.out.line(&format!("{command}ok"));
    }

    fn engine(&mut self) -> &mut Engine {
        let options = &self.options;
        self.engine
            .get_or_insert_with(|| Engine::new(options.hash_mb, options.rules))
    }

    /// Collects a job that has printed its last line, taking the engine back from a
    /// search, so the next command can use it (a GUI may answer `bestmove` before the
    /// thread is gone).
    fn collect_finished_job(&mut self) {
        if self.job.as_ref().is_some_and(Job::is_finished) {
            self.join_job();
        }
    }

    /// Ends the search or count now, if one runs; a search prints its `bestmove` first.
    fn stop_job(&mut self) {
        if let Some(job) = &self.job {
            job.stop();
            self.join_job();
        }
    }

    fn join_job(&mut self) {
        if let Some(job) = self.job.take() {
            if let Some(engine) = job.join() {
                self.engine = Some(engine);
            }
        }
    }

    fn new_game(&mut self) {
        self.engine().clear();
        self.game = Game::new(Position::startpos(), self.options.rules);
    }

    fn set_option(&mut self, args: &[&str]) -> Reply {
        match options::parse_setoption(args)? {
            Change::Hash(megabytes) => {
                loa_engine::check_hash_size(megabytes, self.options.hash_mb)
                    .map_err(|e| format!("setoption: Hash: {e}"))?;
                let engine = self.engine();
                // Free the old table before the new one is made.
                engine.set_hash(1);
                engine.set_hash(megabytes);
                self.options.hash_mb = megabytes;
            }
            Change::Threads(threads) => {
                self.engine().set_threads(threads);
                self.options.threads = threads;
            }
            Change::MoveOverhead(ms) => self.options.move_overhead_ms = ms,
            Change::Rules(rules) => {
                self.options.rules = rules;
                self.engine().set_rules(rules);
                // The same moves under the new rule set. A simultaneous connection ends
                // the game under both rule sets, so every move can be played again.
                let moves: Vec<_> = self.game.moves().collect();
                let mut game = Game::new(*self.game.start(), rules);
                for mv in moves {
                    if game.play(mv).is_err() {
                        break;
                    }
                }
                self.game = game;
            }
        }
        Ok(())
    }

    /// `position startpos [moves ...]` or `position fen <placement> <side> [moves ...]`.
    /// Nothing changes unless the whole command is good.
    fn position(&mut self, args: &[&str]) -> Reply {
        let usage = "expected 'position startpos [moves ...]' or 'position fen <placement> <side> [moves ...]'";
        let Some((kind, rest)) = args.split_first() else {
            return Err(format!("position: {usage}"));
        };
        let (start, rest) = match kind.to_ascii_lowercase().as_str() {
            "startpos" => (Position::startpos(), rest),
            "fen" => {
                let end = rest
                    .iter()
                    .position(|t| t.eq_ignore_ascii_case("moves"))
                    .unwrap_or(rest.len());
                let text = rest[..end].join(" ");
                let pos = text.parse::<Position>().map_err(|e| {
                    format!("position: bad position text '{}': {e}", excerpt(&text))
                })?;
                (pos, &rest[end..])
            }
            _ => {
                return Err(format!(
                    "position: unknown kind '{}': {usage}",
                    excerpt(kind)
                ))
            }
        };
        let moves = match rest.split_first() {
            None => &[][..],
            Some((word, moves)) if word.eq_ignore_ascii_case("moves") => moves,
            Some((word, _)) => {
                return Err(format!(
                    "position: expected 'moves' after the position, found '{}'",
                    excerpt(word)
                ))
            }
        };
        let mut game = Game::new(start, self.options.rules);
        for (i, text) in moves.iter().enumerate() {
            game.play_text(text).map_err(|e| {
                format!(
                    "position: move {} '{}' cannot be played: {e}; the position is unchanged",
                    i + 1,
                    excerpt(text)
                )
            })?;
        }
        self.game = game;
        Ok(())
    }

    /// `perft N`: the count under each move as `b1d3: N`, then the total alone. Every
    /// move sequence is counted, as `loa perft` does. It runs on its own thread, so
    /// `stop` and `quit` end it.
    fn perft(&mut self, args: &[&str]) -> Reply {
        let [depth] = args else {
            return Err("perft: expected 'perft <depth>'".to_string());
        };
        let depth = match depth.parse::<u32>() {
            Ok(depth) if depth <= MAX_PERFT_DEPTH => depth,
            Ok(_) | Err(_) if depth.bytes().all(|b| b.is_ascii_digit()) => {
                return Err(format!(
                    "perft: depth {} is out of range: at most {MAX_PERFT_DEPTH}",
                    excerpt(depth)
                ))
            }
            _ => {
                return Err(format!(
                    "perft: depth '{}' is not a whole number",
                    excerpt(depth)
                ))
            }
        };
        if depth == 0 {
            self.out.line("1");
            return Ok(());
        }
        self.job = Some(Job::perft(*self.game.position(), depth, self.out.clone())?);
        Ok(())
    }

    fn go(&mut self, args: &[&str]) -> Reply {
        // The move's time runs from now.
        let received = std::time::Instant::now();
        let side = self.game.position().side_to_move();
        let mut request = go::parse(args, side, self.options.move_overhead())?;
        request.limits.start = Some(received);
        if self.game.is_over() {
            self.out.line("bestmove (none)");
            return Ok(());
        }
        let history = self.game.previous_hashes();
        let options = &self.options;
        let engine = self
            .engine
            .take()
            .unwrap_or_else(|| Engine::new(options.hash_mb, options.rules));
        match Job::search(
            engine,
            *self.game.position(),
            history,
            request,
            self.out.clone(),
        ) {
            Ok(job) => {
                self.job = Some(job);
                Ok(())
            }
            Err(message) => {
                // The engine went with the thread that could not start: make a new one.
                self.engine();
                Err(message)
            }
        }
    }
}

/// The deepest `perft` accepted: far beyond any count that could finish.
const MAX_PERFT_DEPTH: u32 = 64;

/// Checks that a command that takes no arguments got none.
fn no_args(command: &str, args: &[&str]) -> Reply {
    match args.first() {
        None => Ok(()),
        Some(extra) => Err(format!(
            "'{command}' takes no arguments, found '{}'",
            excerpt(extra)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// The session's output, kept in memory.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Runs a whole session over `input`, returning what it wrote.
    fn session(input: &[u8]) -> String {
        let sink = Sink::default();
        Session::new(Out::new(Box::new(sink.clone()))).serve(input);
        let bytes = sink.0.lock().unwrap().clone();
        String::from_utf8(bytes).expect("the output is UTF-8")
    }

    #[test]
    fn a_session_over_memory_answers_in_order() {
        let text = session(b"ugi\nposition startpos moves b1d3\nisready\ngo depth 2\nquit\n");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.last().map(|l| &l[..9]), Some("bestmove "));
        assert!(lines.contains(&"ugiok"), "{text}");
        assert!(lines.contains(&"readyok"), "{text}");
    }

    /// Arguments that are sometimes right and often wrong.
    fn word() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("startpos".to_string()),
            Just("fen".to_string()),
            Just("moves".to_string()),
            Just("name".to_string()),
            Just("value".to_string()),
            Just("b1d3".to_string()),
            Just("a2c2".to_string()),
            Just("0000".to_string()),
            Just("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1".to_string()),
            Just("1bbbb1/w4w/w4w/w4w/w4w/1bbbb1".to_string()),
            Just("b".to_string()),
            Just("w".to_string()),
            Just("Hash".to_string()),
            Just("Threads".to_string()),
            Just("MoveOverhead".to_string()),
            Just("SimultaneousConnection".to_string()),
            Just("mover-wins".to_string()),
            Just("depth".to_string()),
            Just("nodes".to_string()),
            Just("movetime".to_string()),
            Just("p1time".to_string()),
            Just("wtime".to_string()),
            Just("infinite".to_string()),
            // Numbers small enough that a table or a search stays small.
            (0u64..40).prop_map(|n| n.to_string()),
            Just("-1".to_string()),
            Just("18446744073709551616".to_string()),
            "[a-h][1-8][a-h][1-8]",
            "\\PC{0,12}",
        ]
    }

    fn command_line() -> impl Strategy<Value = String> {
        let command = prop_oneof![
            Just("ugi"),
            Just("uci"),
            Just("isready"),
            Just("uginewgame"),
            Just("setoption"),
            Just("position"),
            Just("go"),
            Just("stop"),
            Just("query"),
            Just("validmoves"),
            Just("perft"),
            Just("d"),
            Just("eval"),
            Just("gameover"),
        ];
        prop_oneof![
            8 => (command, proptest::collection::vec(word(), 0..8))
                .prop_map(|(c, args)| format!("{c} {}", args.join(" "))),
            1 => "\\PC{0,40}",
        ]
    }

    static PANICS: AtomicUsize = AtomicUsize::new(0);

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        /// Random command lines: answers for each, a search thread that never panics, and
        /// short lines.
        #[test]
        fn random_sessions_never_panic(lines in proptest::collection::vec(command_line(), 0..16)) {
            let hook = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                PANICS.fetch_add(1, Ordering::SeqCst);
                hook(info);
            }));
            let input = lines.join("\n");
            let text = session(input.as_bytes());
            let _ = std::panic::take_hook();
            prop_assert_eq!(PANICS.load(Ordering::SeqCst), 0);
            for line in text.lines() {
                prop_assert!(line.len() < 4_096, "{}", line.len());
            }
        }
    }
}
