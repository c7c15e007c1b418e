//! `loa replay FILE`: read a game record (SGF or PGN, one game or many), check it move by
//! move, and print each game's final position and result, or the exact place where the
//! record is wrong. The file is read one game at a time.

use crate::numbers::whole_as;
use crate::output::{say, shown};
use crate::record_file::RecordFile;
use crate::setup::variant_names;
use anyhow::{bail, Result};
use loa_core::counted;
use loa_core::record::{CheckedGame, GameError, GameRecord, Replay, ReplayError};
use loa_core::{Bitboard, GameState, Variant};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct ReplayArgs {
    /// The record: SGF (starts with '(') or PGN; '-' reads standard input.
    pub file: PathBuf,
    /// Check only game N of the file, counting from 1.
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = whole_as(1, u64::MAX, "a game's number, counting from 1".into()))]
    pub game: Option<u64>,
    /// One line per game and a summary line, instead of the final positions.
    #[arg(long, short)]
    pub quiet: bool,
    /// Fail also when a recorded result contradicts the board (normally a warning).
    #[arg(long)]
    pub strict: bool,
    /// The variant of games whose record names none (SGF `SU`, PGN `Variant`).
    #[arg(long, default_value = "standard", value_parser = variant_names())]
    pub variant: Variant,
}

/// How one game went.
enum Verdict {
    Ok,
    Warning,
    /// The error, naming the game.
    Wrong(String),
}

pub fn run(args: ReplayArgs) -> Result<()> {
    let mut file = RecordFile::open(&args.file)?;
    let name = file.name().to_string();
    let wanted = args.game.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    let (mut checked, mut ok, mut warned) = (0usize, 0usize, 0usize);
    let mut wrong: Vec<String> = Vec::new();
    // The error past which nothing can be read.
    let mut stopped: Option<String> = None;
    let mut seen = 0;
    for text in file.by_ref() {
        let text = match text? {
            Ok(text) => text,
            Err(error) => {
                let error = shown(&error.to_string()).into_owned();
                if checked > 0 {
                    let rest = if args.quiet { "the rest" } else { "The rest" };
                    say!("{rest} cannot be read: {error}");
                }
                stopped = Some(error);
                break;
            }
        };
        seen = text.number;
        if wanted.is_some_and(|n| n != text.number) {
            continue;
        }
        checked += 1;
        match check_game(text.number, text.read(args.variant), args.quiet) {
            Verdict::Ok => ok += 1,
            Verdict::Warning => warned += 1,
            Verdict::Wrong(msg) => wrong.push(msg),
        }
        if wanted.is_some() {
            break;
        }
    }
    if let Some(n) = wanted.filter(|&n| n > seen && stopped.is_none()) {
        bail!(
            "{name} holds {}; there is no game {n}",
            counted(seen, "game")
        );
    }
    if checked > 1 {
        say!(
            "{checked} games: {ok} ok, {warned} with a result against the board, {} wrong",
            wrong.len()
        );
    }
    let mut failures: Vec<String> = Vec::new();
    match wrong.as_slice() {
        [] => {}
        // Each error is on its game's line already.
        _ if args.quiet => failures.push(format!(
            "{} of {checked} game{} wrong",
            wrong.len(),
            if checked == 1 { " is" } else { "s are" }
        )),
        [one] if checked == 1 => failures.push(one.clone()),
        [first, ..] => failures.push(format!(
            "{} of {checked} games are wrong; the first: {first}",
            wrong.len()
        )),
    }
    if let Some(error) = stopped {
        failures.push(match (args.quiet, checked) {
            (true, 1..) => "the rest cannot be read".to_string(),
            _ => error,
        });
    }
    if !failures.is_empty() {
        bail!("{name}: {}", failures.join("; "));
    }
    if args.strict && warned > 0 {
        bail!(
            "{name}: {} with a recorded result against the board (--strict)",
            counted(warned, "game")
        );
    }
    Ok(())
}

fn check_game(number: usize, game: Result<CheckedGame, GameError>, quiet: bool) -> Verdict {
    let error = match game {
        Ok(game) => return played(&game, quiet),
        Err(error) => error,
    };
    // It names the game and its players, and where the record is wrong.
    let named = shown(&error.to_string()).into_owned();
    match &error {
        GameError::Moves { record, error, .. } => {
            let why = shown(&error.to_string()).into_owned();
            if quiet {
                say!("game {number}: wrong: {why}");
            } else {
                say_game(number, record);
                say!("Wrong: {why}");
                let (what, position) = match &**error {
                    ReplayError::Illegal { position, .. } => ("before that move", position),
                    ReplayError::AfterEnd { position, .. } => ("where the game ended", position),
                };
                say!("Position {what}:");
                say!("{}", position.diagram(Bitboard::EMPTY).trim_end());
                say!("Position: {position}");
                say!("");
            }
        }
        _ if quiet => say!("game {number}: wrong: {named}"),
        _ => {
            say!("Game {number}: cannot be read");
            say!("  {named}");
            say!("");
        }
    }
    Verdict::Wrong(named)
}

/// A game whose moves could all be played.
fn played(checked: &CheckedGame, quiet: bool) -> Verdict {
    let CheckedGame {
        number,
        record,
        replay: Replay { game, result },
    } = checked;
    let line = shown(&result.summary(record.termination.as_deref())).into_owned();
    let warning = result.warning();
    if quiet {
        let status = if warning.is_some() { "warning" } else { "ok" };
        say!(
            "game {number}: {status}, {}, {line}",
            counted(game.ply(), "move")
        );
    } else {
        say_game(*number, record);
        say!("Moves: {}, all legal", game.ply());
        say!("{}", game.diagram().trim_end());
        say!("Position: {}", game.position());
        say!("Result: {line}");
        say!("");
    }
    match warning {
        Some(w) => {
            eprintln!("warning: game {number}: {w}");
            Verdict::Warning
        }
        None => Verdict::Ok,
    }
}

/// The game's number, players and start.
fn say_game(number: usize, record: &GameRecord) {
    say!("Game {number}: {}", shown(&record.heading()));
    say!("Start: {}, rules {}", record.start_text(), record.rules);
}
