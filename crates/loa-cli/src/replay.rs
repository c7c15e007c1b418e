//! `loa replay FILE`: read a game record (SGF or PGN, one game or many), check it move by
//! move, and print each game's final position and result, or the exact place where the
//! record is wrong. The file is read one game at a time.

use crate::output::{say, shown};
use crate::record_file::RecordFile;
use crate::setup::variant_names;
use anyhow::{bail, Result};
use loa_core::record::{CheckedGame, GameError, GameRecord, Names, ReplayError, ResultCheck};
use loa_core::{Bitboard, Game, GameState, Variant, VariantPosition};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct ReplayArgs {
    /// The record: SGF (starts with '(') or PGN; '-' reads standard input.
    pub file: PathBuf,
    /// Check only game N of the file, counting from 1.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
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
            "{name} holds {seen} game{}; there is no game {n}",
            plural(seen)
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
            "{name}: {warned} game{} with a recorded result against the board (--strict)",
            plural(warned)
        );
    }
    Ok(())
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn check_game(number: usize, game: Result<CheckedGame, GameError>, quiet: bool) -> Verdict {
    let error = match game {
        Ok(CheckedGame { record, replay, .. }) => {
            return played(number, &record, &replay.game, &replay.result, quiet);
        }
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
                say!("Game {number}: {}", header(record));
                say!("Start: {}, rules {}", start_text(record), record.rules);
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
fn played(
    number: usize,
    record: &GameRecord,
    game: &Game<VariantPosition>,
    result: &ResultCheck,
    quiet: bool,
) -> Verdict {
    let line = result_line(record, result);
    let warning = result.warning();
    if quiet {
        let status = if warning.is_some() { "warning" } else { "ok" };
        say!(
            "game {number}: {status}, {} move{}, {line}",
            game.ply(),
            plural(game.ply())
        );
    } else {
        say!("Game {number}: {}", header(record));
        say!("Start: {}, rules {}", start_text(record), record.rules);
        say!("Moves: {}, all legal", game.ply());
        say!(
            "{}",
            game.position().diagram(last_move_squares(game)).trim_end()
        );
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

/// `Kok (Black) - Heppell (White), MSO, 2026.11.22`, safe to print.
fn header(record: &GameRecord) -> String {
    let Names {
        event,
        black,
        white,
    } = Names::of(record);
    let mut parts = vec![format!(
        "{} (Black) - {} (White)",
        black.as_deref().unwrap_or("?"),
        white.as_deref().unwrap_or("?")
    )];
    parts.extend(event);
    parts.extend(record.date.clone());
    shown(&parts.join(", ")).into_owned()
}

/// The start: a variant's array (saying when it is reflected), or the position.
fn start_text(record: &GameRecord) -> String {
    let size = record.start.size();
    match (record.named_start(), record.reflected_start()) {
        (Some(start), _) => format!("{start} {size}"),
        (None, Some(variant)) => format!(
            "{variant} {size}, its array reflected top to bottom (as some sites set it up): {}",
            record.start
        ),
        (None, None) => format!("{} position {}", record.variant(), record.start),
    }
}

fn last_move_squares(game: &Game<VariantPosition>) -> Bitboard {
    game.last_move().map_or(Bitboard::EMPTY, |mv| mv.squares())
}

/// The result with its cause: the board's outcome when the game ended on the board,
/// otherwise the record's result and termination.
fn result_line(record: &GameRecord, check: &ResultCheck) -> String {
    let why = record
        .termination
        .as_deref()
        .map(|t| format!(" ({})", shown(t)))
        .unwrap_or_default();
    match *check {
        ResultCheck::Agrees(o) => format!("{} {o}", o.score_text()),
        ResultCheck::OffTheBoard(r) => {
            format!("{r} {}{why}, not decided on the board", r.describe())
        }
        ResultCheck::Unfinished => format!("* unfinished{why}"),
        ResultCheck::Unrecorded(o) => format!("{} {o} (the record says *)", o.score_text()),
        ResultCheck::Mismatch { recorded, outcome } => format!(
            "{} {outcome} on the board, but the record says {recorded} ({})",
            outcome.score_text(),
            recorded.describe()
        ),
    }
}
