//! `loa play`: a game in the terminal against the engine or another person.

use crate::setup::{PositionArgs, RulesArg};
use anyhow::Result;
use clap::{Args, ValueEnum};
use loa_core::{Bitboard, Color, Game, Move, RuleSet};
use loa_engine::{Budget, Engine, Limits};
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Side {
    Black,
    White,
}

#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// The colour you play (Black moves first).
    #[arg(long, value_enum, default_value = "black")]
    color: Side,
    /// Play against another person at this terminal instead of the computer.
    #[arg(long)]
    two_players: bool,
    /// What a simultaneous connection means.
    #[arg(long, value_enum, default_value = "draw")]
    rules: RulesArg,
    /// Computer strength: search depth in plies.
    #[arg(long, conflicts_with = "time")]
    depth: Option<u32>,
    /// Computer strength: seconds to think per move (default 1).
    #[arg(long)]
    time: Option<f64>,
}

const HELP: &str = "Type a move (c8-c6, d1xa4, d1:a4 or pass), or: moves, undo, board, help, quit.";

pub fn run(args: PlayArgs) -> Result<()> {
    let start = args.position.position()?;
    let rules = RuleSet::from(args.rules);
    let human = match args.color {
        Side::Black => Color::Black,
        Side::White => Color::White,
    };
    let limits = match (args.depth, args.time) {
        (Some(depth), _) => Limits {
            depth: Some(depth.max(1)),
            ..Limits::default()
        },
        (None, time) => {
            let seconds = time.unwrap_or(1.0);
            if !(seconds.is_finite() && seconds > 0.0) {
                anyhow::bail!("--time must be a positive number of seconds");
            }
            Limits {
                time: Some(Budget::fixed(
                    Duration::from_secs_f64(seconds),
                    Duration::ZERO,
                )),
                ..Limits::default()
            }
        }
    };
    let mut session = Session {
        game: Game::new(start, rules),
        engine: (!args.two_players).then(|| Engine::new(64, rules)),
        human,
        limits,
        out: std::io::stdout(),
    };
    session.run(std::io::stdin().lock())
}

struct Session<W: Write> {
    game: Game,
    engine: Option<Engine>,
    human: Color,
    limits: Limits,
    out: W,
}

impl<W: Write> Session<W> {
    fn computer_to_move(&self) -> bool {
        self.engine.is_some() && self.game.position().side_to_move() != self.human
    }

    fn run(&mut self, mut input: impl BufRead) -> Result<()> {
        writeln!(
            self.out,
            "Lines of Action, {} board, rule set {}. {HELP}",
            self.game.position().size(),
            self.game.rules()
        )?;
        self.show()?;
        loop {
            if let Some(outcome) = self.game.outcome() {
                writeln!(self.out, "Game over: {outcome} ({}).", outcome.score_text())?;
                return Ok(());
            }
            if self.computer_to_move() {
                self.computer_move()?;
                continue;
            }
            let side = self.game.position().side_to_move();
            write!(self.out, "{side} to move> ")?;
            self.out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(self.out)?;
                return Ok(());
            }
            match line.trim().to_ascii_lowercase().as_str() {
                "" => {}
                "quit" | "exit" => return Ok(()),
                "help" | "?" => writeln!(self.out, "{HELP}")?,
                "board" => self.show()?,
                "moves" => {
                    let moves: Vec<String> = self
                        .game
                        .legal_moves()
                        .iter()
                        .map(|m| m.to_string())
                        .collect();
                    writeln!(self.out, "{}", moves.join(" "))?;
                }
                "undo" => self.undo()?,
                text => match self.game.play_text(text) {
                    Ok(_) => self.show()?,
                    Err(err) => writeln!(self.out, "Not played: {err}. Try again.")?,
                },
            }
        }
    }

    /// Takes back the last move, and the computer's reply before it so it is your turn.
    fn undo(&mut self) -> Result<()> {
        let Some(mv) = self.game.undo() else {
            return Ok(writeln!(self.out, "Nothing to undo.")?);
        };
        writeln!(self.out, "Took back {mv}.")?;
        // If the computer made the first move there is nothing before it: it moves again.
        if self.computer_to_move() {
            if let Some(mv) = self.game.undo() {
                writeln!(self.out, "Took back {mv}.")?;
            }
        }
        self.show()
    }

    fn computer_move(&mut self) -> Result<()> {
        let engine = self.engine.as_mut().expect("a computer opponent");
        let history = self.game.previous_hashes();
        let stop = AtomicBool::new(false);
        let result = engine.search(self.game.position(), &history, &self.limits, &stop, |_| {});
        let mv: Move = result.best.expect("the game is not over");
        writeln!(
            self.out,
            "Computer plays {mv} ({} after depth {}, {} nodes).",
            loa_engine::Score::from_internal(result.score),
            result.depth,
            result.nodes
        )?;
        self.game.play(mv)?;
        self.show()
    }

    fn show(&mut self) -> Result<()> {
        let marked = match self.game.last_move() {
            Some(mv) if !mv.is_pass() => Bitboard::from_square(mv.from()).with(mv.to()),
            _ => Bitboard::EMPTY,
        };
        writeln!(self.out)?;
        write!(self.out, "{}", self.game.position().diagram(marked))?;
        if let Some(mv) = self.game.last_move() {
            writeln!(self.out, "Last move: {mv}")?;
        }
        Ok(())
    }
}
