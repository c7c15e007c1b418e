//! `loa puzzles make --games RECORDS --out FILE`: puzzles from real games, each a forced
//! win of 2 to 6 moves proved by the solver, one a line: `variant ; rules ; position ;
//! winning line`.

use crate::numbers::whole;
use crate::out_file::check_writable;
use crate::output::{bar_style, say, shown};
use crate::record_file::RecordFile;
use crate::setup::variant_names;
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use indicatif::ProgressBar;
use loa_core::{counted, Variant};
use loa_engine::puzzles::{find, PuzzleLimits};
use loa_engine::Engine;
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Subcommand)]
pub enum PuzzlesCommand {
    /// Find puzzles in game records: positions where the side to move has a forced win
    /// of 2 to 6 moves, proved by the solver.
    Make(MakeArgs),
}

#[derive(Args)]
pub struct MakeArgs {
    /// Game records (SGF or PGN, any number of games each); '-' reads standard input.
    #[arg(long, required = true, num_args = 1..)]
    games: Vec<PathBuf>,
    /// Where the puzzles are written, one a line.
    #[arg(long)]
    out: PathBuf,
    /// The solver's budget in each position worth proving, in nodes.
    #[arg(long, default_value_t = PuzzleLimits::default().solve_nodes,
          allow_negative_numbers = true, value_parser = whole(1_000u64, 10_000_000_000))]
    solve_nodes: u64,
    /// The variant of games whose record names none.
    #[arg(long, default_value = "standard", value_parser = variant_names())]
    variant: Variant,
}

pub fn run(command: PuzzlesCommand) -> Result<()> {
    match command {
        PuzzlesCommand::Make(args) => make(args),
    }
}

fn make(args: MakeArgs) -> Result<()> {
    check_writable("--out", &args.out)?;
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(&args.out)
            .with_context(|| format!("--out {}: cannot write", args.out.display()))?,
    );
    let limits = PuzzleLimits {
        solve_nodes: args.solve_nodes,
        ..PuzzleLimits::default()
    };
    let mut engine = Engine::new(16);
    let bar = ProgressBar::new_spinner()
        .with_style(bar_style("{spinner} {elapsed_precise} {pos} games, {msg}"));
    let started = Instant::now();
    let (mut games, mut puzzles, mut unreadable) = (0usize, 0usize, 0usize);
    let mut seen = HashSet::new();
    let mut themes = std::collections::BTreeMap::new();
    for path in &args.games {
        let mut file = RecordFile::open(path)?;
        let name = file.name().to_string();
        for text in file.by_ref() {
            let text = match text? {
                Ok(text) => text,
                Err(error) => {
                    eprintln!(
                        "{name}: the rest cannot be read: {}",
                        shown(&error.to_string())
                    );
                    break;
                }
            };
            let game = match text.read(args.variant) {
                Ok(checked) => checked.replay.game,
                Err(error) => {
                    unreadable += 1;
                    eprintln!("{name}: skipped: {}", shown(&error.to_string()));
                    continue;
                }
            };
            engine.clear();
            for puzzle in find(&mut engine, &game, &limits) {
                // Games that share their moves (a match's paired openings) share puzzles.
                if seen.insert((puzzle.position, puzzle.rules)) {
                    writeln!(out, "{puzzle}")?;
                    puzzles += 1;
                    for theme in puzzle.themes() {
                        *themes.entry(theme.name()).or_insert(0usize) += 1;
                    }
                }
            }
            games += 1;
            bar.set_position(games as u64);
            bar.set_message(counted(puzzles, "puzzle"));
        }
    }
    out.flush()?;
    bar.finish_and_clear();
    let skipped = match unreadable {
        0 => String::new(),
        n => format!(" ({} skipped)", counted(n, "unreadable game")),
    };
    if games == 0 {
        // Nothing to find puzzles in: a wrong file, most likely, not a finished job.
        bail!("no game could be read from the records given{skipped}: no puzzles written");
    }
    let hours = started.elapsed().as_secs_f64() / 3600.0;
    let themes: Vec<String> = themes.iter().map(|(t, n)| format!("{t} {n}")).collect();
    let themes = if themes.is_empty() {
        String::new()
    } else {
        format!(" (themes: {})", themes.join(", "))
    };
    say!(
        "{}{themes} from {}{skipped} in {:.0} s: {:.0} puzzles an hour; written to {}",
        counted(puzzles, "puzzle"),
        counted(games, "game"),
        started.elapsed().as_secs_f64(),
        if hours > 0.0 {
            puzzles as f64 / hours
        } else {
            0.0
        },
        args.out.display()
    );
    Ok(())
}
