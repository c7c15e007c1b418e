//! `loa match`: engines against each other, through the match runner library
//! (`loa_match`); docs/match.md describes it.

mod engine_args;
mod progress;

use crate::numbers::{whole, MAX_THREADS};
use crate::out_file::check_writable;
use crate::setup::{rule_sets, variant_names};
use anyhow::Result;
use engine_args::EngineArgs;
use loa_core::{RuleSet, Variant};
use loa_engine::MAX_DEPTH;
use loa_match::book::{make_book, parse_plies, BookPlan};
use loa_match::{
    build_specs, parse_book, parse_draw, parse_resign, Adjudication, MatchConfig, MoveLimits,
    OpeningSource, Sprt, TimeControl, MAX_RANDOM_PLIES, MAX_TIME,
};
use progress::MatchProgress;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// The longest time in milliseconds a setting may give.
const MAX_MS: u64 = MAX_TIME.as_millis() as u64;

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
    /// start, or `position ; moves`). Default: the built-in book (crates/loa-match/data/openings.txt).
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
    #[arg(long, default_value = "draw", value_parser = rule_sets())]
    rules: RuleSet,

    /// The variant played (sent to the engines as UCI_Variant). Without --openings, a
    /// variant other than the standard game opens with 4 random plies.
    #[arg(long, default_value = "standard", value_parser = variant_names())]
    variant: Variant,

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
    let match_limits = MoveLimits {
        tc: args.tc,
        move_time: args.movetime.map(Duration::from_millis),
        depth: args.depth,
        nodes: args.nodes,
    };
    let engines =
        build_specs(&args.engines.0, &args.each, match_limits).map_err(anyhow::Error::msg)?;
    for (option, path) in [
        ("--pgn", &args.pgn),
        ("--sgf", &args.sgf),
        ("--make-book", &args.make_book),
    ] {
        if let Some(path) = path {
            check_writable(option, path)?;
        }
    }
    let seed = args.seed.unwrap_or_else(loa_match::clock_seed);
    let timeout = Duration::from_millis(args.timeout);
    if let Some(path) = &args.make_book {
        let (min_plies, max_plies) = parse_plies(&args.book_plies).map_err(anyhow::Error::msg)?;
        let plan = BookPlan {
            lines: args.book_lines,
            min_plies,
            max_plies,
            margin_cp: args.book_margin,
            seed,
            timeout,
        };
        let tried = make_book(&engines[0], &plan, path)?;
        crate::output::say!(
            "wrote {} openings to {} ({tried} candidates drawn)",
            args.book_lines,
            path.display()
        );
        return Ok(());
    }
    let sprt = parse_words(&args.sprt, Sprt::parse)?;
    let adjudication = Adjudication {
        draw_after: parse_words(&args.adjudicate_draw, parse_draw)?,
        resign: parse_words(&args.resign, parse_resign)?,
    };
    let variant = args.variant;
    let openings = match (&args.openings, args.random_openings) {
        (_, Some(plies)) => OpeningSource::Random {
            plies,
            seed,
            variant,
        },
        (Some(path), None) => {
            let text = crate::text_file::read(path)?;
            let book = parse_book(&text, &path.display().to_string(), variant)?;
            loa_match::book(book, args.book_in_order, seed)
        }
        (None, None) => OpeningSource::default_for(variant, args.book_in_order, seed)?,
    };
    let games_per_pairing = match (args.games, args.rounds) {
        (Some(games), _) => Some(games),
        (None, Some(rounds)) => Some(2 * rounds),
        (None, None) if sprt.is_some() => None,
        (None, None) => Some(100),
    };
    let config = MatchConfig {
        engines,
        gauntlet: args.gauntlet,
        openings,
        concurrency: args.concurrency,
        games_per_pairing,
        seed,
        rules: args.rules,
        variant,
        margin: Duration::from_millis(args.timemargin),
        timeout,
        adjudication,
        sprt,
        pgn: args.pgn,
        sgf: args.sgf,
        event: args.event,
    };
    let progress = MatchProgress::new(config.total_games());
    let report = loa_match::run(config, &progress);
    progress.finish();
    // A closed standard output (`| head`) is not an error of the match.
    let _ = std::io::stdout().lock().write_all(report?.as_bytes());
    Ok(())
}

/// The KEY=VALUE words of an option, read by `parse`, when the option is given.
fn parse_words<T>(
    words: &Option<Vec<String>>,
    parse: fn(&[String]) -> Result<T, String>,
) -> Result<Option<T>> {
    words
        .as_deref()
        .map(parse)
        .transpose()
        .map_err(anyhow::Error::msg)
}
