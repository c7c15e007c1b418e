//! `loa match`: engines against each other — head to head, a gauntlet or a round robin —
//! with clocks, openings, adjudication, Elo, an SPRT and game records. docs/match.md
//! describes it.

mod book;
mod engine_process;
mod engine_spec;
mod openings;
mod process_group;
mod progress;
mod records;
mod referee;
mod report;
mod rng;
mod schedule;
mod sprt;
mod standings;
mod stats;
mod time_control;
mod tournament;

use crate::numbers::{whole, MAX_THREADS};
use crate::setup::RulesArg;
use anyhow::{bail, Context, Result};
use engine_process::EngineProcess;
use engine_spec::{build_specs, EngineArgs, Limits};
use loa_core::RuleSet;
use loa_engine::MAX_DEPTH;
use openings::{parse_book, OpeningSource, DEFAULT_BOOK, MAX_RANDOM_PLIES};
use referee::adjudication::{parse_draw, parse_resign, Adjudication};
use schedule::{Format, Schedule};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use time_control::{TimeControl, MAX_MS};

/// The most games a pairing can be asked to play.
const MAX_GAMES: u64 = 1 << 40;

/// The options of `loa match`, boxed: the subcommand enum stays small.
#[derive(clap::Args)]
pub struct MatchArgs {
    #[command(flatten)]
    options: Box<MatchOptions>,
}

#[derive(clap::Args)]
#[command(after_long_help = "\
ENGINES
  --engine cmd=PATH [name=NAME] [arg=ARG ...] [dir=DIR] [proto=ugi|uci|auto]
           [option.NAME=VALUE ...] [tc=10+0.1] [movetime=MS] [depth=N] [nodes=N]
  Settings given with --each apply to every engine; an engine's own win.

EXAMPLES
  loa match --engine cmd=target/release/loa arg=engine name=d4 depth=4 \\
            --engine cmd=target/release/loa arg=engine name=d2 depth=2 --games 100
  loa match --engine cmd=./new arg=engine --engine cmd=./old arg=engine \\
            --each option.Hash=16 --tc 10+0.1 --concurrency 2 \\
            --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 --pgn games.pgn

See docs/match.md.")]
struct MatchOptions {
    #[command(flatten)]
    engines: EngineArgs,

    /// Settings for every engine, in the same KEY=VALUE form.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    each: Vec<String>,

    /// The first engine plays each of the others (instead of a round robin).
    #[arg(long)]
    gauntlet: bool,

    /// Time control: seconds per game plus increment per move, e.g. 10+0.1.
    #[arg(long, value_name = "SECONDS+INC", allow_hyphen_values = true)]
    tc: Option<TimeControl>,

    /// A fixed time per move in milliseconds.
    #[arg(long, value_name = "MS", allow_negative_numbers = true, value_parser = whole(1, MAX_MS))]
    movetime: Option<u64>,

    /// A fixed search depth.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole(1, MAX_DEPTH))]
    depth: Option<u32>,

    /// A fixed number of nodes per move.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole(1, u64::MAX))]
    nodes: Option<u64>,

    /// Milliseconds an engine may go over its clock or movetime before it loses on time.
    #[arg(long, value_name = "MS", default_value_t = 50, allow_negative_numbers = true,
          value_parser = whole(0, MAX_MS))]
    timemargin: u64,

    /// Milliseconds to wait for a handshake, for readyok, and for a move in games
    /// without a clock (depth or node limits) before the engine counts as hung.
    #[arg(long, value_name = "MS", default_value_t = 60_000, allow_negative_numbers = true,
          value_parser = whole(1, MAX_MS))]
    timeout: u64,

    /// An opening book: one opening a line (position text, moves from the standard
    /// start, or `position ; moves`). Default: the built-in book (books/openings.txt).
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,

    /// Random openings of this many plies from the standard start instead of a book.
    #[arg(long, value_name = "PLIES", conflicts_with = "openings", allow_negative_numbers = true,
          value_parser = whole(0, MAX_RANDOM_PLIES))]
    random_openings: Option<usize>,

    /// Play the book's openings in file order instead of a seeded random order.
    #[arg(long)]
    book_in_order: bool,

    /// Games at once.
    #[arg(long, value_name = "N", default_value_t = 1, allow_negative_numbers = true,
          value_parser = whole(1, MAX_THREADS))]
    concurrency: usize,

    /// Games per pairing (default 100, or no limit with --sprt).
    #[arg(long, value_name = "N", conflicts_with = "rounds", allow_negative_numbers = true,
          value_parser = whole(1, MAX_GAMES))]
    games: Option<u64>,

    /// Rounds: each pairing plays one opening twice, colours swapped, per round.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole(1, MAX_GAMES / 2))]
    rounds: Option<u64>,

    /// Seed for random openings and the book order (default: from the clock; the
    /// report prints it).
    #[arg(long, allow_negative_numbers = true, value_parser = whole(0, u64::MAX))]
    seed: Option<u64>,

    /// What a simultaneous connection is (sent to the engines as SimultaneousConnection).
    #[arg(long, value_enum, default_value = "draw")]
    rules: RulesArg,

    /// Stop when a sequential probability ratio test decides (two engines only):
    /// elo0=0 elo1=5 alpha=0.05 beta=0.05 (normalized Elo, game pairs).
    #[arg(long, value_name = "KEY=VALUE", num_args = 0..)]
    sprt: Option<Vec<String>>,

    /// Adjudicate a draw once a game has N moves (plies, the opening's included): moves=N.
    #[arg(long, value_name = "moves=N", num_args = 1..)]
    adjudicate_draw: Option<Vec<String>>,

    /// Adjudicate a win once both engines' scores agree beyond S centipawns for C moves
    /// in a row of each: score=S count=C.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    resign: Option<Vec<String>>,

    /// Write every game to this file in PGN.
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,

    /// Write every game to this file in SGF.
    #[arg(long, value_name = "FILE")]
    sgf: Option<PathBuf>,

    /// The Event tag of the records.
    #[arg(long, default_value = "loa match")]
    event: String,

    /// Make an opening book with the first engine instead of playing (see
    /// scripts/make_book.sh).
    #[arg(long, value_name = "FILE", hide = true)]
    make_book: Option<PathBuf>,

    /// Lines in the book to make.
    #[arg(long, default_value_t = 300, hide = true, value_parser = whole(1usize, 1_000_000))]
    book_lines: usize,

    /// Plies of the book's openings, N or N-M.
    #[arg(long, default_value = "4-8", hide = true)]
    book_plies: String,

    /// Keep openings the engine scores within this many centipawns of equal.
    #[arg(long, default_value_t = 60, hide = true)]
    book_margin: i32,
}

pub fn run(args: MatchArgs) -> Result<()> {
    let args = *args.options;
    let match_limits = Limits {
        tc: args.tc,
        movetime_ms: args.movetime,
        depth: args.depth,
        nodes: args.nodes,
    };
    let specs =
        build_specs(&args.engines.0, &args.each, match_limits).map_err(anyhow::Error::msg)?;
    process_group::end_engines_on_interrupt();
    let seed = args.seed.unwrap_or_else(clock_seed);
    let timeout = Duration::from_millis(args.timeout.max(1));
    if let Some(path) = &args.make_book {
        let (min_plies, max_plies) =
            book::parse_plies(&args.book_plies).map_err(anyhow::Error::msg)?;
        let plan = book::BookPlan {
            lines: args.book_lines,
            min_plies,
            max_plies,
            margin_cp: args.book_margin,
            seed,
            timeout,
        };
        let tried = book::make_book(&specs[0], &plan, path)?;
        println!(
            "wrote {} openings to {} ({tried} candidates drawn)",
            args.book_lines,
            path.display()
        );
        return Ok(());
    }
    if specs.len() < 2 {
        bail!("a match needs at least two engines (--engine ... --engine ...)");
    }
    let format = if specs.len() == 2 {
        Format::HeadToHead
    } else if args.gauntlet {
        Format::Gauntlet
    } else {
        Format::RoundRobin
    };
    let sprt = match &args.sprt {
        None => None,
        Some(words) => {
            if format != Format::HeadToHead {
                bail!("--sprt needs exactly two engines");
            }
            Some(sprt::Sprt::parse(words).map_err(anyhow::Error::msg)?)
        }
    };
    let adjudication = Adjudication {
        draw_after: args
            .adjudicate_draw
            .as_deref()
            .map(parse_draw)
            .transpose()
            .map_err(anyhow::Error::msg)?,
        resign: args
            .resign
            .as_deref()
            .map(parse_resign)
            .transpose()
            .map_err(anyhow::Error::msg)?,
    };
    let openings = match (&args.openings, args.random_openings) {
        (_, Some(plies)) => OpeningSource::Random { plies, seed },
        (Some(path), None) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            book_source(parse_book(&text, &path.display().to_string())?, &args, seed)
        }
        (None, None) => book_source(parse_book(DEFAULT_BOOK, "the built-in book")?, &args, seed),
    };
    let games_per_pairing = match (args.games, args.rounds) {
        (Some(games), _) => Some(games),
        (None, Some(rounds)) => Some(2 * rounds),
        (None, None) if sprt.is_some() => None,
        (None, None) => Some(100),
    };
    let rules = RuleSet::from(args.rules);

    // Every engine must start and answer before any game is played.
    for spec in &specs {
        let engine = EngineProcess::start(spec, rules, timeout)
            .map_err(|e| anyhow::anyhow!("engine '{}' ({}): {e}", spec.name, spec.cmd.display()))?;
        engine.quit(Duration::from_millis(500));
    }

    let schedule = Schedule::new(format.pairings(specs.len()), games_per_pairing);
    let heading = report::Heading {
        format: format.name(),
        limits: specs.iter().map(|s| s.limits.to_string()).collect(),
        openings: openings.describe(),
        rules: rules.name().to_string(),
        seed,
        concurrency: args.concurrency,
    };
    let progress = progress::Progress::new(schedule.total());
    let mut records = records::RecordWriter::new(args.pgn.as_deref(), args.sgf.as_deref())?;
    let plan = tournament::Plan {
        specs: specs.into_iter().map(Arc::new).collect(),
        schedule,
        openings,
        concurrency: args.concurrency,
        rules,
        margin_ms: args.timemargin,
        timeout,
        adjudication,
        sprt,
        event: args.event.clone(),
        date: records::today(),
    };
    let finished = tournament::run(plan, &mut records, &progress)?;
    progress.finish();
    let text = report::final_report(
        &heading,
        &finished.standings,
        finished.sprt.as_ref(),
        finished.elapsed,
        finished.abandoned,
    );
    // A closed standard output (`| head`) is not an error of the match.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    Ok(())
}

/// The book in file order, or shuffled with the seed.
fn book_source(mut list: Vec<openings::Opening>, args: &MatchOptions, seed: u64) -> OpeningSource {
    if !args.book_in_order {
        rng::Rng::new(seed).shuffle(&mut list);
    }
    OpeningSource::List(list)
}

fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    rng::Rng::new(nanos ^ u64::from(std::process::id())).next_u64() % 1_000_000_000
}
