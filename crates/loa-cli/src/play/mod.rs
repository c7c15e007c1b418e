//! `loa play`: a game in the terminal against the engine or another person.

mod save;

use crate::numbers::{seconds, whole};
use crate::setup::{colors, rule_sets, PositionArgs};
use anyhow::{Context, Result};
use clap::Args;
use loa_core::counted;
use loa_core::variants::AmbiPosition;
use loa_core::{Color, Game, GameState, Move, RuleSet, Seat, Variant, VariantPosition};
use loa_engine::{
    Engine, Score, SearchHandle, SearchLimits, SearchRequest, TimeLimit, Viewer, MAX_DEPTH,
};
use save::{lock, save_and_say, SaveTarget, Saver};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// The colour you play (Black moves first).
    #[arg(long, default_value = "black", value_parser = colors())]
    color: Color,
    /// Play against another person at this terminal instead of the computer.
    #[arg(long, conflicts_with = "engine_seats")]
    two_players: bool,
    /// AmbiLOA's partnership game: the seats the computer takes, of B, W, b and w (for
    /// example B,w); people take the rest at this keyboard.
    #[arg(long, value_name = "SEATS", value_delimiter = ',', value_parser = seat_letter)]
    engine_seats: Vec<Seat>,
    /// What a simultaneous connection means.
    #[arg(long, default_value = "draw", value_parser = rule_sets())]
    rules: RuleSet,
    /// Computer strength: search depth in plies.
    #[arg(long, conflicts_with = "time", allow_negative_numbers = true,
          value_parser = whole(1, MAX_DEPTH))]
    depth: Option<u32>,
    /// Computer strength: seconds to think per move (default 1).
    #[arg(long, allow_negative_numbers = true, value_parser = seconds)]
    time: Option<Duration>,
    /// Continue the game saved in this file (PGN or SGF; its first game).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "variant", "board", "rules"])]
    load: Option<PathBuf>,
    /// Save the game to this file (SGF if it ends in .sgf, PGN otherwise) instead of
    /// PGN and SGF files in the data folder (~/.local/share/loa/games); later games of
    /// the session go to FILE-2, FILE-3, ...
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Do not save the game.
    #[arg(long, conflicts_with = "save")]
    no_save: bool,
}

/// What to type, with the move forms of `variant`.
fn help(variant: Variant) -> String {
    let moves = match variant {
        Variant::Parachute => {
            "a move and the placement of a reserve piece: a6-c6@e5, h7xf5@a1, pass@d4"
        }
        Variant::FieldsOfAction => "a move: c1-c3, a capture b1xa2 or b1:a2",
        _ => "a move: c1-c3, a capture b1xa2 or b1:a2, pass when there is none",
    };
    format!("Type {moves}; or: moves, hint, history, undo, board, new, help, quit.")
}

/// AmbiLOA's seats by the letters of their kinds.
fn seat_letter(text: &str) -> Result<Seat, String> {
    AmbiPosition::seat_named(text.trim()).ok_or_else(|| {
        format!(
            "'{}' is not a seat: AmbiLOA's seats are B, W, b and w",
            loa_core::excerpt(text.trim())
        )
    })
}

/// The engine's name in records and messages.
const ENGINE_NAME: &str = "loa";

/// The engine's transposition table, in MiB.
const HASH_MB: usize = 64;

pub fn run(args: PlayArgs) -> Result<()> {
    let (game, loaded_names) = match &args.load {
        Some(path) => {
            let (game, names) = save::load(path)?;
            (game, Some(names))
        }
        None => (Game::new(args.position.position()?, args.rules), None),
    };
    let human = args.color;
    let variant = game.start().variant();
    if !args.engine_seats.is_empty() && variant != Variant::AmbiLoa {
        anyhow::bail!("--engine-seats is for AmbiLOA's four seats");
    }
    for (i, seat) in args.engine_seats.iter().enumerate() {
        if args.engine_seats[..i].contains(seat) {
            anyhow::bail!(
                "--engine-seats names {} twice",
                AmbiPosition::seat_letter(*seat)
            );
        }
    }
    let seats_per_side = if variant == Variant::AmbiLoa { 2 } else { 1 };
    let engine_seats: Vec<Seat> = if args.two_players {
        Vec::new()
    } else if !args.engine_seats.is_empty() {
        args.engine_seats.clone()
    } else {
        (0..seats_per_side)
            .map(|index| Seat {
                side: !human,
                index,
            })
            .collect()
    };
    let level = match (args.depth, args.time) {
        (Some(depth), _) => Level::Depth(depth),
        (None, time) => Level::Time(time.unwrap_or(Duration::from_secs(1))),
    };
    let target = match (&args.save, args.no_save) {
        (_, true) => SaveTarget::Nowhere,
        (Some(path), false) => {
            crate::out_file::check_writable("--save", path)?;
            SaveTarget::File(path.clone())
        }
        (None, false) => SaveTarget::default_folder(),
    };
    // Black's and White's names: a loaded game keeps the names of people it has; the
    // engine's seat is ours.
    let engine_name = format!("{ENGINE_NAME} ({})", level.describe());
    let loaded = loaded_names.unwrap_or_default();
    let names = Color::ALL.map(|side| match &loaded[side.index()] {
        _ if !args.two_players && side != human => engine_name.clone(),
        Some(name) => name.clone(),
        None => save::user_name(),
    });
    let saver = Arc::new(Mutex::new(Saver::new(target, names)));
    let on_interrupt = Arc::clone(&saver);
    ctrlc::set_handler(move || {
        let mut out = std::io::stdout();
        let _ = writeln!(out);
        save_and_say(&mut lock(&on_interrupt), &mut out);
        std::process::exit(130);
    })
    .context("cannot watch for Ctrl-C")?;
    let mut session = Session {
        start: *game.start(),
        game,
        opponent: (!engine_seats.is_empty()).then(|| Engine::new(HASH_MB)),
        hint_engine: None,
        human,
        engine_seats,
        level,
        saver,
        announced: false,
        out: std::io::stdout(),
    };
    session.run(std::io::stdin().lock())
}

/// How strong the engine plays.
#[derive(Clone, Copy, Debug)]
enum Level {
    Depth(u32),
    Time(Duration),
}

impl Level {
    fn limits(self) -> SearchLimits {
        match self {
            Level::Depth(depth) => SearchLimits {
                depth: Some(depth),
                ..SearchLimits::default()
            },
            Level::Time(time) => SearchLimits {
                time: Some(TimeLimit::Fixed(time)),
                ..SearchLimits::default()
            },
        }
    }

    fn describe(self) -> String {
        match self {
            Level::Depth(depth) => format!("depth {depth}"),
            Level::Time(time) => format!("{} s a move", time.as_secs_f64()),
        }
    }
}

struct Session<W: Write> {
    /// Where a new game starts.
    start: VariantPosition,
    game: Game<VariantPosition>,
    /// The engine playing against the person; `None` for two people.
    opponent: Option<Engine>,
    /// The engine that gives hints in a game of two people, made when first asked.
    hint_engine: Option<Engine>,
    /// The colour of the person playing the computer.
    human: Color,
    /// The seats the computer plays.
    engine_seats: Vec<Seat>,
    level: Level,
    /// Saves the games; shared with the Ctrl-C handler, which saves the game as last
    /// noted.
    saver: Arc<Mutex<Saver>>,
    /// Whether the end of the game has been announced (and the game saved).
    announced: bool,
    out: W,
}

impl<W: Write> Session<W> {
    fn computer_to_move(&self) -> bool {
        !self.game.is_over()
            && self
                .engine_seats
                .contains(&self.game.position().seat_to_move())
    }

    /// Whose point of view the evaluation is given from: the person's, when one colour
    /// is all people and the other all computer.
    fn viewer(&self) -> Viewer {
        let one_side = !self.engine_seats.is_empty()
            && self.engine_seats.iter().all(|seat| seat.side != self.human);
        if one_side {
            Viewer::You(self.human)
        } else {
            Viewer::Both
        }
    }

    /// The side to move, with the kind due in AmbiLOA: `Black (B)`.
    fn mover(&self) -> String {
        let pos = self.game.position();
        let side = pos.side_to_move();
        if pos.variant() == Variant::AmbiLoa {
            format!("{side} ({})", AmbiPosition::seat_letter(pos.seat_to_move()))
        } else {
            side.to_string()
        }
    }

    /// Plays until the person quits or the input ends, then saves the game, as it does
    /// when reading or writing fails.
    fn run(&mut self, input: impl BufRead) -> Result<()> {
        let result = self.play(input);
        self.save_quietly();
        result
    }

    fn play(&mut self, mut input: impl BufRead) -> Result<()> {
        self.introduce()?;
        self.show()?;
        loop {
            if self.game.is_over() && !self.announced {
                self.announce_end()?;
                continue;
            }
            if self.computer_to_move() {
                self.computer_move()?;
                continue;
            }
            write!(self.out, "{}", self.prompt())?;
            self.out.flush()?;
            let mut bytes = Vec::new();
            if input.read_until(b'\n', &mut bytes)? == 0 {
                writeln!(self.out)?;
                return Ok(());
            }
            let Ok(line) = String::from_utf8(bytes) else {
                writeln!(self.out, "Not read: the line is not UTF-8 text. Try again.")?;
                continue;
            };
            let command = line.trim().to_ascii_lowercase();
            match command.as_str() {
                "" => {}
                "quit" | "exit" => return Ok(()),
                "help" | "?" => writeln!(self.out, "{}", help(self.game.position().variant()))?,
                "board" => self.show()?,
                "moves" => self.list_moves()?,
                "history" => self.history()?,
                "hint" => self.hint()?,
                "undo" => self.undo()?,
                "new" => self.new_game()?,
                text => self.human_move(text)?,
            }
        }
    }

    fn introduce(&mut self) -> Result<()> {
        let pos = self.game.position();
        let variant = Variant::of_start(self.game.start()).unwrap_or_else(|| pos.variant());
        writeln!(
            self.out,
            "Lines of Action: {}, {} board, rule set {}.",
            variant.title(),
            pos.size(),
            self.game.rules()
        )?;
        if matches!(self.viewer(), Viewer::You(_)) {
            writeln!(
                self.out,
                "You play {} against {ENGINE_NAME} ({}).",
                self.human,
                self.level.describe()
            )?;
        } else if !self.engine_seats.is_empty() {
            let seats: Vec<String> = self
                .engine_seats
                .iter()
                .map(|&seat| AmbiPosition::seat_letter(seat).to_string())
                .collect();
            writeln!(
                self.out,
                "{ENGINE_NAME} ({}) plays {}; people play the other seats at this keyboard.",
                self.level.describe(),
                seats.join(" and ")
            )?;
        } else {
            writeln!(self.out, "Two players at one keyboard.")?;
        }
        if self.game.ply() > 0 {
            writeln!(
                self.out,
                "Loaded a game of {}.",
                counted(self.game.ply(), "move")
            )?;
        }
        writeln!(self.out, "{}", help(self.game.position().variant()))?;
        Ok(())
    }

    fn prompt(&self) -> String {
        if self.game.is_over() {
            return "Game over: new, undo or quit> ".to_string();
        }
        let (number, side) = self.game.move_number(self.game.ply());
        let dots = if side == Color::Black { "." } else { "..." };
        format!("{number}{dots} {} to move> ", self.mover())
    }

    fn human_move(&mut self, text: &str) -> Result<()> {
        if let Some(outcome) = self.game.outcome() {
            return Ok(writeln!(
                self.out,
                "The game is over ({outcome}): type new, undo or quit."
            )?);
        }
        match self.game.play_text(text) {
            Ok(_) => {
                self.announced = false;
                self.show()
            }
            Err(err) => Ok(writeln!(self.out, "Not played: {err}. Try again.")?),
        }
    }

    fn computer_move(&mut self) -> Result<()> {
        let side = self.game.position().side_to_move();
        writeln!(
            self.out,
            "{ENGINE_NAME} is thinking ({})...",
            self.level.describe()
        )?;
        self.out.flush()?;
        let limits = self.level.limits();
        let (mv, score, depth) = search(&mut self.opponent, &self.game, &limits)?;
        let (number, _) = self.game.move_number(self.game.ply());
        let dots = if side == Color::Black { "." } else { "..." };
        writeln!(
            self.out,
            "{number}{dots} {ENGINE_NAME} plays {mv} (depth {depth}). {}.",
            score.in_words(side, self.viewer(), self.game.position().variant())
        )?;
        self.game.play(mv)?;
        self.announced = false;
        self.show()
    }

    fn hint(&mut self) -> Result<()> {
        if self.game.is_over() {
            return Ok(writeln!(
                self.out,
                "The game is over: there is no move to hint."
            )?);
        }
        let side = self.game.position().side_to_move();
        let limits = self.level.limits();
        let viewer = self.viewer();
        writeln!(self.out, "Thinking ({})...", self.level.describe())?;
        self.out.flush()?;
        let slot = if self.opponent.is_some() {
            &mut self.opponent
        } else {
            &mut self.hint_engine
        };
        let (mv, score, _) = search(slot, &self.game, &limits)?;
        writeln!(
            self.out,
            "Hint: {mv}. {}.",
            score.in_words(side, viewer, self.game.position().variant())
        )?;
        Ok(())
    }

    fn list_moves(&mut self) -> Result<()> {
        let moves: Vec<String> = self
            .game
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        if moves.is_empty() {
            writeln!(self.out, "The game is over: no moves.")?;
        } else {
            writeln!(self.out, "{}", moves.join(" "))?;
        }
        Ok(())
    }

    /// The moves so far, numbered: `1. b1-d3 h2-f2  2. ...`.
    fn history(&mut self) -> Result<()> {
        if self.game.ply() == 0 {
            return Ok(writeln!(self.out, "No moves yet.")?);
        }
        // A line a move number: written when the next number starts.
        let mut line = String::new();
        for (ply, mv) in self.game.moves().enumerate() {
            line = match (self.game.move_number(ply), ply) {
                ((number, Color::Black), _) => {
                    if !line.is_empty() {
                        writeln!(self.out, "{line}")?;
                    }
                    format!("{number:>3}. {mv}")
                }
                ((number, Color::White), 0) => format!("{number:>3}. ...    {mv}"),
                ((_, Color::White), _) => format!("{line:<12} {mv}"),
            };
        }
        Ok(writeln!(self.out, "{line}")?)
    }

    /// Takes back moves until it is the person's turn again, with one of their moves
    /// taken back; against another person, one move.
    fn undo(&mut self) -> Result<()> {
        let last_by_a_person = self
            .game
            .line()
            .rposition(|(pos, _)| !self.engine_seats.contains(&pos.seat_to_move()));
        let Some(ply) = last_by_a_person else {
            return Ok(writeln!(self.out, "Nothing to undo.")?);
        };
        for _ in ply..self.game.ply() {
            if let Some(mv) = self.game.undo() {
                writeln!(self.out, "Took back {mv}.")?;
            }
        }
        self.announced = false;
        self.show()
    }

    fn new_game(&mut self) -> Result<()> {
        self.save_quietly();
        self.game = Game::new(self.start, self.game.rules());
        lock(&self.saver).new_game();
        self.announced = false;
        if let Some(engine) = self.opponent.as_mut() {
            engine.clear();
        }
        writeln!(self.out, "A new game.")?;
        self.show()
    }

    fn announce_end(&mut self) -> Result<()> {
        let outcome = self.game.outcome().expect("the game is over");
        writeln!(self.out, "Game over: {outcome} ({}).", outcome.score_text())?;
        self.announced = true;
        self.save_quietly();
        writeln!(
            self.out,
            "Type new for another game, undo to take moves back, or quit."
        )?;
        Ok(())
    }

    /// Saves the game, saying where; a failure to save is said and play goes on.
    fn save_quietly(&mut self) {
        let mut saver = lock(&self.saver);
        saver.note(&self.game);
        save_and_say(&mut saver, &mut self.out);
    }

    fn show(&mut self) -> Result<()> {
        // Every change of the game is shown: noted here, before it is, a Ctrl-C once a
        // move is on the board saves it.
        lock(&self.saver).note(&self.game);
        writeln!(self.out)?;
        write!(self.out, "{}", self.game.diagram())?;
        if let Some(mv) = self.game.last_move() {
            writeln!(self.out, "Last move: {mv}")?;
        }
        Ok(())
    }
}

/// The engine's move in the game, its score for the side to move, and the depth reached.
/// The search runs on its own thread through the engine's search handle; the engine is
/// taken from `slot` and put back (a new one if the thread died).
fn search(
    slot: &mut Option<Engine>,
    game: &Game<VariantPosition>,
    limits: &SearchLimits,
) -> Result<(Move, Score, u32)> {
    let engine = slot.take().unwrap_or_else(|| Engine::new(HASH_MB));
    let request = SearchRequest::for_game(game, limits.clone());
    let handle =
        SearchHandle::start(engine, request, |_| {}, |_| {}).context("cannot start the search")?;
    let (engine, result) = handle.wait().context("the search thread stopped")?;
    *slot = Some(engine);
    let mv = result.best.context("the game is over")?;
    Ok((mv, result.score, result.depth))
}
