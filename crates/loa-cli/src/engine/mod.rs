//! `loa engine`: the engine protocol, a UGI dialect (UCI with `ugi`/`ugiok`) spoken line
//! by line on standard input and output. docs/protocol.md describes every command.
//!
//! The main thread reads commands; a search runs on its own thread, which owns the
//! [`Engine`] for the time of the search and hands it back when it ends, so `stop`,
//! `isready` and `quit` are answered at once. Commands that would change the state while
//! a search runs are refused with an error line.

mod go;
mod options;
mod show;

use anyhow::Result;
use loa_core::{Game, Position};
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
    search: Option<go::Search>,
}

impl Session {
    fn new(out: Out) -> Session {
        let options = Options::default();
        Session {
            out,
            engine: Some(Engine::new(options.hash_mb, options.rules)),
            game: Game::new(Position::startpos(), options.rules),
            options,
            search: None,
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
        self.stop_search();
    }

    /// Answers one line; `false` for `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&first, args)) = tokens.split_first() else {
            return true;
        };
        let command = first.to_ascii_lowercase();
        self.collect_finished_search();
        let reply = match command.as_str() {
            "quit" => return false,
            "isready" => no_args(&command, args).map(|()| self.out.line("readyok")),
            "stop" => no_args(&command, args).map(|()| self.stop_search()),
            "ugi" | "uci" => no_args(&command, args).map(|()| self.handshake(&command)),
            "query" => self.query(args),
            "validmoves" => no_args(&command, args).map(|()| self.valid_moves()),
            "d" => no_args(&command, args).map(|()| self.display()),
            "eval" => no_args(&command, args).map(|()| self.eval()),
            "uginewgame" | "ucinewgame" | "setoption" | "position" | "go" | "perft"
                if self.search.is_some() =>
            {
                Err(format!(
                    "'{command}' is refused while a search runs: send stop first, or wait for bestmove"
                ))
            }
            "uginewgame" | "ucinewgame" => no_args(&command, args).map(|()| self.new_game()),
            "setoption" => self.set_option(args),
            "position" => self.position(args),
            "go" => self.go(args),
            "perft" => self.perft(args),
            _ => Err(format!(
                "unknown command '{first}' (commands: ugi, uci, isready, setoption, uginewgame, \
                 ucinewgame, position, go, stop, quit, query, validmoves, perft, d, eval)"
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

    /// Takes the engine back from a search that has printed its `bestmove`, so the
    /// next command can use it (a GUI may answer `bestmove` before the thread is gone).
    fn collect_finished_search(&mut self) {
        if self.search.as_ref().is_some_and(go::Search::is_finished) {
            self.join_search();
        }
    }

    /// Ends the search now, if one runs; it prints its `bestmove` before it returns.
    fn stop_search(&mut self) {
        if let Some(search) = &self.search {
            search.stop();
            self.join_search();
        }
    }

    fn join_search(&mut self) {
        if let Some(search) = self.search.take() {
            self.engine = search.join();
        }
    }

    fn new_game(&mut self) {
        self.engine().clear();
        self.game = Game::new(Position::startpos(), self.options.rules);
    }

    fn set_option(&mut self, args: &[&str]) -> Reply {
        match options::parse_setoption(args)? {
            Change::Hash(megabytes) => {
                options::check_memory(megabytes, self.options.hash_mb)?;
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
                let pos = text
                    .parse::<Position>()
                    .map_err(|e| format!("position: bad position text '{text}': {e}"))?;
                (pos, &rest[end..])
            }
            _ => return Err(format!("position: unknown kind '{kind}': {usage}")),
        };
        let moves = match rest.split_first() {
            None => &[][..],
            Some((word, moves)) if word.eq_ignore_ascii_case("moves") => moves,
            Some((word, _)) => {
                return Err(format!(
                    "position: expected 'moves' after the position, found '{word}'"
                ))
            }
        };
        let mut game = Game::new(start, self.options.rules);
        for (i, text) in moves.iter().enumerate() {
            game.play_text(text).map_err(|e| {
                format!(
                    "position: move {} '{text}' cannot be played: {e}; the position is unchanged",
                    i + 1
                )
            })?;
        }
        self.game = game;
        Ok(())
    }

    fn go(&mut self, args: &[&str]) -> Reply {
        let side = self.game.position().side_to_move();
        let request = go::parse(args, side, self.options.move_overhead())?;
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
        match go::Search::start(
            engine,
            *self.game.position(),
            history,
            request,
            self.out.clone(),
        ) {
            Ok(search) => {
                self.search = Some(search);
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

/// Checks that a command that takes no arguments got none.
fn no_args(command: &str, args: &[&str]) -> Reply {
    match args.first() {
        None => Ok(()),
        Some(extra) => Err(format!("'{command}' takes no arguments, found '{extra}'")),
    }
}
