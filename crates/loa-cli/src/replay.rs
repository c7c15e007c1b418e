//! `loa replay FILE`: read a game record (SGF or PGN, one game or many), check it move by
//! move, and print each game's final position and result, or the exact place where the
//! record is wrong.

use crate::output::say;
use crate::setup::variant_names;
use anyhow::{bail, Result};
use loa_core::record::{parse_games_as, GameRecord, RecordError, Replay, ReplayError, ResultCheck};
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
    Wrong(String),
}

pub fn run(args: ReplayArgs) -> Result<()> {
    let name = args.file.display().to_string();
    let text = crate::text_file::read(&args.file)?;
    let games = parse_games_as(&text, args.variant).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let total = games.len();
    let selected: Vec<(usize, Result<GameRecord, RecordError>)> = match args.game {
        Some(n) => {
            let n = usize::try_from(n).unwrap_or(usize::MAX);
            if n > total {
                bail!(
                    "{name} holds {total} game{}; there is no game {n}",
                    plural(total)
                );
            }
            vec![(n, games.into_iter().nth(n - 1).expect("checked in range"))]
        }
        None => games
            .into_iter()
            .enumerate()
            .map(|(i, g)| (i + 1, g))
            .collect(),
    };

    let (mut ok, mut warned) = (0usize, 0usize);
    let mut wrong: Vec<String> = Vec::new();
    for (index, game) in &selected {
        let verdict = check_game(*index, total, game, args.quiet);
        match verdict {
            Verdict::Ok => ok += 1,
            Verdict::Warning => warned += 1,
            Verdict::Wrong(msg) => wrong.push(msg),
        }
    }
    let checked = selected.len();
    if args.quiet && checked > 1 {
        say!(
            "{checked} games: {ok} ok, {warned} with a result against the board, {} wrong",
            wrong.len()
        );
    }
    match wrong.as_slice() {
        [] if args.strict && warned > 0 => bail!(
            "{name}: {warned} game{} with a recorded result against the board (--strict)",
            plural(warned)
        ),
        [] => Ok(()),
        [one] if checked == 1 => bail!("{name}: {one}"),
        [first, ..] => bail!(
            "{name}: {} of {checked} games are wrong; the first: {first}",
            wrong.len()
        ),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn check_game(
    index: usize,
    total: usize,
    game: &Result<GameRecord, RecordError>,
    quiet: bool,
) -> Verdict {
    let record = match game {
        Ok(record) => record,
        Err(err) => {
            // The error names the game, line and column.
            if quiet {
                say!("game {index}: wrong: {err}");
            } else {
                say!("Game {index} of {total}: cannot be read");
                say!("  {err}");
                say!("");
            }
            return Verdict::Wrong(err.to_string());
        }
    };
    if !quiet {
        say!("Game {index} of {total}: {}", header(record));
        say!("Start: {}, rules {}", start_text(record), record.rules);
    }
    match record.check() {
        Err(err) => {
            let msg = format!("game {index}: {err}");
            if quiet {
                say!("game {index}: wrong: {err}");
            } else {
                say!("Wrong: {err}");
                let (what, position) = match &err {
                    ReplayError::Illegal { position, .. } => ("before that move", position),
                    ReplayError::AfterEnd { position, .. } => ("where the game ended", position),
                };
                say!("Position {what}:");
                say!("{}", position.diagram(Bitboard::EMPTY).trim_end());
                say!("Position: {position}");
                say!("");
            }
            Verdict::Wrong(msg)
        }
        Ok(Replay { game, result }) => {
            let line = result_line(record, &result);
            let warning = result.warning();
            if quiet {
                let status = if warning.is_some() { "warning" } else { "ok" };
                say!(
                    "game {index}: {status}, {} move{}, {line}",
                    game.ply(),
                    plural(game.ply())
                );
            } else {
                say!("Moves: {}, all legal", game.ply());
                say!(
                    "{}",
                    game.position().diagram(last_move_squares(&game)).trim_end()
                );
                say!("Position: {}", game.position());
                say!("Result: {line}");
                say!("");
            }
            match warning {
                Some(w) => {
                    eprintln!("warning: game {index}: {w}");
                    Verdict::Warning
                }
                None => Verdict::Ok,
            }
        }
    }
}

fn header(record: &GameRecord) -> String {
    let mut parts = vec![format!(
        "{} (Black) - {} (White)",
        record.black.as_deref().unwrap_or("?"),
        record.white.as_deref().unwrap_or("?")
    )];
    parts.extend(record.event.clone());
    parts.extend(record.date.clone());
    parts.join(", ")
}

fn start_text(record: &GameRecord) -> String {
    let size = record.start.size();
    match record.named_start() {
        Some(start) => format!("{start} {size}"),
        None => format!("{} position {}", record.variant(), record.start),
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
        .map(|t| format!(" ({t})"))
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
