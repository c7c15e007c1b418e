//! The engine's side of the protocol: a session that reads commands from any reader and
//! answers on any writer.
//!
//! The reading thread answers every command; a search runs on its own thread (a
//! `loa_engine::SearchHandle`, which holds the engine while it searches), and so does a
//! `perft`,
//! so `stop`, `isready` and `quit` are answered at once. Commands that would change the
//! state while one runs are refused with an error line.

mod job;
mod show;

use crate::options::OptionValue;
use crate::{
    read_line, skip_line, Command, EngineOption, LineRead, ProtocolError, Response, Start, MAX_LINE,
};
use job::Job;
use loa_core::{excerpt, BoardSize, Game, GameState, RuleSet, Variant, VariantPosition};
use loa_engine::{check_hash_size, clock_seed, level_limits, Engine, SearchRequest};
use rand::rngs::ChaCha8Rng;
use rand::SeedableRng;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

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

    /// Writes one response and flushes. A closed output is not an error here: the
    /// reader is gone, and the end of the input will follow.
    fn send(&self, response: &Response) {
        write_line(&mut **self.lock(), &response.to_string());
    }

    /// Writes a line that is not a response of its own (`validmoves`, `perft`, `d`).
    fn text(&self, text: &str) {
        write_line(&mut **self.lock(), text);
    }

    fn error(&self, message: &str) {
        // One line whatever the message holds.
        let message: String = message
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        self.send(&Response::InfoString(format!("error: {message}")));
    }
}

fn write_line(writer: &mut dyn Write, text: &str) {
    let _ = writeln!(writer, "{text}");
    let _ = writer.flush();
}

/// The option values now.
#[derive(Clone, Copy, Debug)]
struct Settings {
    hash_mb: usize,
    move_overhead: Duration,
    /// The rule set `SimultaneousConnection` set, if it was.
    rules_told: Option<RuleSet>,
    /// The rule set the variant's name implies (`linesofaction`: mover-wins).
    variant_rules: RuleSet,
    variant: Variant,
    /// The strength level played (0: full strength).
    level: u8,
    /// The spread of the move drawn, in centipawns (0: the best is played).
    spread: u32,
    random_moves: bool,
}

impl Settings {
    /// The rule set the game is judged under: the one set, else the variant's.
    fn rules(&self) -> RuleSet {
        self.rules_told.unwrap_or(self.variant_rules)
    }

    /// The start of the variant: what `position startpos` means.
    fn start(&self) -> VariantPosition {
        self.variant
            .start(BoardSize::Eight)
            .expect("every variant is played on 8x8")
    }
}

/// The protocol state: the options, the game so far, and the engine (away while it
/// searches).
pub struct Session {
    out: Out,
    settings: Settings,
    game: Game<VariantPosition>,
    /// `None` only while a search holds it.
    engine: Option<Engine>,
    /// A search or a count running on its own thread.
    job: Option<Job>,
    /// For random moves.
    rng: ChaCha8Rng,
}

impl Session {
    /// A session that answers on `writer`, with every option at its default.
    pub fn new(writer: Box<dyn Write + Send>) -> Session {
        Session::with_hash(writer, None)
    }

    /// A session whose table starts at `hash_mb` MiB rather than the default (a fuzzer
    /// starts thousands of sessions); the `Hash` option still changes it.
    pub fn with_hash(writer: Box<dyn Write + Send>, hash_mb: Option<usize>) -> Session {
        let number = |option: EngineOption| match option.default_value() {
            OptionValue::Number(n) => n,
            other => unreachable!("{other:?} of a spin option"),
        };
        let settings = Settings {
            hash_mb: hash_mb.unwrap_or(number(EngineOption::Hash) as usize),
            move_overhead: Duration::from_millis(number(EngineOption::MoveOverhead)),
            rules_told: None,
            variant_rules: RuleSet::default(),
            variant: Variant::default(),
            level: number(EngineOption::Level) as u8,
            spread: number(EngineOption::Spread) as u32,
            random_moves: false,
        };
        Session {
            out: Out::new(writer),
            engine: Some(Engine::new(settings.hash_mb)),
            game: Game::new(settings.start(), settings.rules()),
            settings,
            job: None,
            rng: ChaCha8Rng::seed_from_u64(clock_seed()),
        }
    }

    /// A session on standard input and output, as `loa engine` and `loa-ugi-engine` run.
    pub fn serve_stdio() {
        Session::new(Box::new(std::io::stdout())).serve(std::io::stdin().lock());
    }

    /// Reads and answers commands until `quit` or the end of the input, then stops any
    /// search (which still prints its `bestmove`) or count.
    pub fn serve(mut self, mut input: impl BufRead) {
        let mut buf = Vec::new();
        loop {
            match read_line(&mut input, &mut buf, MAX_LINE) {
                Ok(LineRead::Line) => {}
                Ok(LineRead::TooLong) => {
                    let start = String::from_utf8_lossy(&buf[..32]);
                    self.out.error(&format!(
                        "a line longer than {MAX_LINE} bytes (1 MB) is ignored; it starts \
                         '{start}'"
                    ));
                    if skip_line(&mut input).is_err() {
                        break;
                    }
                    continue;
                }
                Ok(LineRead::End) | Err(_) => break,
            }
            // Bytes that are not UTF-8 become replacement characters, and so an unknown
            // command or a bad argument, never a failure of the loop.
            let line = String::from_utf8_lossy(&buf);
            if line.trim().is_empty() {
                continue;
            }
            let keep_going = match line.parse::<Command>() {
                Ok(command) => self.handle(command),
                Err(error) => {
                    self.out.error(&error.0);
                    true
                }
            };
            if !keep_going {
                break;
            }
        }
        self.stop_job();
    }

    /// Answers one command; `false` for `quit`.
    fn handle(&mut self, command: Command) -> bool {
        let received = Instant::now();
        self.collect_finished_job();
        let changes_state = matches!(
            command,
            Command::NewGame { .. }
                | Command::SetOption { .. }
                | Command::Position { .. }
                | Command::Go(_)
                | Command::Perft(_)
        );
        let reply = match command {
            Command::Quit => return false,
            _ if changes_state && self.job.is_some() => {
                let name = command.to_string();
                let name = name.split_whitespace().next().unwrap_or_default();
                Err(ProtocolError::new(format!(
                    "'{name}' is refused while a search or perft runs: send stop first, or \
                     wait for it to end"
                )))
            }
            Command::IsReady => {
                self.out.send(&Response::ReadyOk);
                Ok(())
            }
            Command::Stop => {
                self.stop_job();
                Ok(())
            }
            Command::Ugi => {
                self.handshake(Response::UgiOk);
                Ok(())
            }
            Command::Uci => {
                self.handshake(Response::UciOk);
                Ok(())
            }
            Command::Query(query) => {
                self.query(query);
                Ok(())
            }
            Command::ValidMoves => {
                self.valid_moves();
                Ok(())
            }
            Command::Display => {
                self.display();
                Ok(())
            }
            Command::Eval => {
                self.eval();
                Ok(())
            }
            Command::NewGame { .. } => {
                self.new_game();
                Ok(())
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { start, moves } => self.position(start, &moves),
            Command::Go(go) => self.go(&go, received),
            Command::Perft(depth) => self.perft(depth),
        };
        if let Err(error) = reply {
            self.out.error(&error.0);
        }
        true
    }

    fn handshake(&self, ok: Response) {
        self.out.send(&Response::IdName(format!(
            "loa {}",
            env!("CARGO_PKG_VERSION")
        )));
        self.out
            .send(&Response::IdAuthor("the loa developers".to_string()));
        for option in EngineOption::ALL {
            self.out.send(&Response::Option(option.decl()));
        }
        self.out.send(&ok);
    }

    fn engine(&mut self) -> &mut Engine {
        let settings = self.settings;
        self.engine
            .get_or_insert_with(|| Engine::new(settings.hash_mb))
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
        self.game = Game::new(self.settings.start(), self.settings.rules());
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), ProtocolError> {
        let option = EngineOption::named(name)?;
        match (option, option.value(value)?) {
            (EngineOption::Hash, OptionValue::Number(megabytes)) => {
                let megabytes = megabytes as usize;
                check_hash_size(megabytes, self.settings.hash_mb)
                    .map_err(|e| ProtocolError::new(format!("setoption: Hash: {e}")))?;
                let engine = self.engine();
                // Free the old table before the new one is made.
                engine.set_hash(1);
                engine.set_hash(megabytes);
                self.settings.hash_mb = megabytes;
            }
            (EngineOption::Threads, OptionValue::Number(threads)) => {
                self.engine().set_threads(threads as usize);
            }
            (EngineOption::MoveOverhead, OptionValue::Number(ms)) => {
                self.settings.move_overhead = Duration::from_millis(ms);
            }
            (EngineOption::SimultaneousConnection, OptionValue::Rules(rules)) => {
                self.settings.rules_told = Some(rules);
                self.judge_again();
            }
            (EngineOption::Variant, OptionValue::Variant(variant, rules)) => {
                self.settings.variant = variant;
                self.settings.variant_rules = rules;
                // A new game of the variant; what the engine learnt is of another game.
                self.engine().clear();
                self.game = Game::new(self.settings.start(), self.settings.rules());
            }
            (EngineOption::Level, OptionValue::Number(level)) => {
                self.settings.level = level as u8;
            }
            (EngineOption::Spread, OptionValue::Number(spread)) => {
                self.settings.spread = spread as u32;
            }
            (EngineOption::RandomMoves, OptionValue::Flag(on)) => {
                self.settings.random_moves = on;
            }
            (EngineOption::Solver, OptionValue::Flag(on)) => {
                self.engine().set_solver(on);
            }
            (option, value) => unreachable!("{option:?} checked {value:?}"),
        }
        Ok(())
    }

    /// The same moves under the rule set now in force. A simultaneous connection ends
    /// the game under both rule sets, so every move can be played again.
    fn judge_again(&mut self) {
        let moves: Vec<_> = self.game.moves().collect();
        let mut game = Game::new(*self.game.start(), self.settings.rules());
        for mv in moves {
            if game.play(mv).is_err() {
                break;
            }
        }
        self.game = game;
    }

    /// Replaces the game; nothing changes unless the whole command is good.
    fn position(&mut self, start: Start, moves: &[String]) -> Result<(), ProtocolError> {
        let variant = self.settings.variant;
        let start = match start {
            Start::StartPos => self.settings.start(),
            Start::Fen(text) => VariantPosition::parse_or_fen(variant, &text).map_err(|e| {
                ProtocolError::new(format!(
                    "position: bad position text '{}' for {}: {e}",
                    excerpt(&text),
                    variant.title()
                ))
            })?,
        };
        let mut game = Game::new(start, self.settings.rules());
        for (i, text) in moves.iter().enumerate() {
            game.play_text(text).map_err(|e| {
                ProtocolError::new(format!(
                    "position: move {} '{}' cannot be played: {e}; the position is unchanged",
                    i + 1,
                    excerpt(text)
                ))
            })?;
        }
        self.game = game;
        Ok(())
    }

    /// `perft N`: the count under each move as `b1d3: N`, then the total alone. Every
    /// move sequence is counted, as `loa perft` does. It runs on its own thread, so
    /// `stop` and `quit` end it.
    fn perft(&mut self, depth: u32) -> Result<(), ProtocolError> {
        if depth == 0 {
            self.out.text("1");
            return Ok(());
        }
        self.job = Some(Job::perft(*self.game.position(), depth, self.out.clone())?);
        Ok(())
    }

    fn go(&mut self, go: &crate::Go, received: Instant) -> Result<(), ProtocolError> {
        let side = self.game.position().side_to_move();
        let (mut limits, until_stopped) = go.limits(side, self.settings.move_overhead)?;
        // A level plays its own limits, kept inside the clock or move time given.
        if let Some(level) = level_limits(self.settings.level) {
            limits = match limits.time {
                Some(given) => level.within(given),
                None => level,
            };
        }
        if self.settings.spread > 0 {
            limits.spread = Some(self.settings.spread);
        }
        // The move's time runs from the moment the command came.
        limits.start = Some(received);
        if self.game.is_over() {
            self.out.send(&Response::BestMove(None));
            return Ok(());
        }
        if self.settings.random_moves {
            let mv = job::random_move(self.game.position(), &mut self.rng);
            self.out.send(&Response::BestMove(Some(mv.coordinate())));
            return Ok(());
        }
        let request = SearchRequest {
            until_stopped,
            ..SearchRequest::for_game(&self.game, limits)
        };
        let settings = self.settings;
        let engine = self
            .engine
            .take()
            .unwrap_or_else(|| Engine::new(settings.hash_mb));
        match Job::search(engine, request, self.out.clone()) {
            Ok(job) => {
                self.job = Some(job);
                Ok(())
            }
            Err(error) => {
                // The engine went with the thread that could not start: make a new one.
                self.engine();
                Err(error)
            }
        }
    }
}

/// A seed from the clock: random moves differ from one session to the next.
#[cfg(test)]
mod tests;
