//! `loa analyze`: the engine's best lines for a position, printed as the search deepens.

use crate::numbers::{seconds, whole};
use crate::output::say;
use crate::setup::{rule_sets, PositionArgs};
use anyhow::{bail, Context, Result};
use clap::Args;
use loa_core::{Game, GameState, RuleSet, VariantPosition};
use loa_engine::solver::{SolveLimits, Solver};
use loa_engine::{
    check_hash_size, Engine, Info, SearchHandle, SearchLimits, SearchRequest, TimeLimit, MAX_DEPTH,
    MAX_HASH_MB,
};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// The most lines a multi-line search reports.
const MAX_LINES: usize = 256;

/// The least time the solver has beside a search to a depth, which may end at once.
const MIN_SOLVE: Duration = Duration::from_secs(5);

#[derive(Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Moves played from the position before analysing.
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
    /// Seconds to think (default 5 when no depth is given).
    #[arg(long, conflicts_with = "depth", allow_negative_numbers = true, value_parser = seconds)]
    time: Option<Duration>,
    /// Depth to search to.
    #[arg(long, allow_negative_numbers = true, value_parser = whole(1, MAX_DEPTH))]
    depth: Option<u32>,
    /// How many best lines to show.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = whole(1, MAX_LINES))]
    multipv: usize,
    /// What a simultaneous connection means.
    #[arg(long, default_value = "draw", value_parser = rule_sets())]
    rules: RuleSet,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256, allow_negative_numbers = true,
          value_parser = whole(1, MAX_HASH_MB))]
    hash: usize,
    /// Run the proof-number solver beside the search, for as long (beside a search to
    /// a depth, at least 5 s): a proved result is reported, with its winning move.
    #[arg(long)]
    solve: bool,
}

pub fn run(args: AnalyzeArgs) -> Result<()> {
    let rules = args.rules;
    let mut game = Game::new(args.position.position()?, rules);
    for (i, text) in args.moves.iter().enumerate() {
        if let Err(err) = game.play_text(text) {
            // The error quotes the move already.
            bail!("--moves, move {}: {err}", i + 1);
        }
    }
    let pos = *game.position();
    if let Some(outcome) = game.outcome() {
        say!("{}", pos.diagram(loa_core::Bitboard::EMPTY).trim_end());
        say!("{pos}");
        say!("The game is over: {outcome}.");
        return Ok(());
    }
    check_hash_size(args.hash, 0).map_err(|e| anyhow::anyhow!("--hash: {e}"))?;
    let time = match (args.time, args.depth) {
        (Some(time), _) => Some(TimeLimit::Fixed(time)),
        (None, None) => Some(TimeLimit::Fixed(Duration::from_secs(5))),
        (None, Some(_)) => None,
    };
    let limits = SearchLimits {
        depth: args.depth,
        time,
        multipv: args.multipv,
        ..SearchLimits::default()
    };
    say!("{}", pos.diagram(loa_core::Bitboard::EMPTY).trim_end());
    say!("{pos}");
    let engine = Engine::new(args.hash);
    let request = SearchRequest::for_game(&game, limits);
    let handle = SearchHandle::start(engine, request, |info| say!("{}", describe(info)), |_| {})
        .context("cannot start the search")?;
    let solver_stop = Arc::new(AtomicBool::new(false));
    if std::io::stdin().is_terminal() {
        eprintln!("(press Enter to stop)");
        let stopper = handle.stopper();
        let solver_stop = Arc::clone(&solver_stop);
        std::thread::spawn(move || {
            let mut line = String::new();
            if std::io::stdin().read_line(&mut line).is_ok() {
                stopper.stop();
                solver_stop.store(true, Ordering::Relaxed);
            }
        });
    }
    // The solver has the search's time; beside a search to a depth, it runs until the
    // search ends and for at least MIN_SOLVE.
    let solver_started = Instant::now();
    let solver = args.solve.then(|| {
        let budget = time.map(TimeLimit::hard);
        let history = game.previous_hashes();
        let stop = Arc::clone(&solver_stop);
        let (answer, proved) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = answer.send(solve_beside(&pos, &history, rules, budget, &stop));
        });
        proved
    });
    let (_, result) = handle.wait().context("the search thread stopped")?;
    if let Some(proved) = solver {
        let answer = match time {
            Some(_) => proved.recv().ok(),
            None => {
                let rest = MIN_SOLVE.saturating_sub(solver_started.elapsed());
                proved.recv_timeout(rest).ok().or_else(|| {
                    solver_stop.store(true, Ordering::Relaxed);
                    proved.recv().ok()
                })
            }
        };
        if let Some(answer) = answer {
            say!("{answer}");
        }
    }
    if let Some(best) = result.best {
        say!("best move {best} {} depth {}", result.score, result.depth);
    }
    Ok(())
}

/// The solver's verdict on `pos` within `budget` (or until `stop`), in words.
fn solve_beside(
    pos: &VariantPosition,
    history: &[u64],
    rules: RuleSet,
    budget: Option<Duration>,
    stop: &AtomicBool,
) -> String {
    let limits = SolveLimits {
        time: budget,
        nodes: None,
    };
    match Solver::new(64, rules, limits, stop) {
        Ok(mut solver) => solver.solve(pos, history).in_words(),
        Err(e) => format!("the solver cannot have its table: {e}"),
    }
}

fn describe(info: &Info) -> String {
    let line: Vec<String> = info.pv.iter().map(|mv| mv.to_string()).collect();
    let nps = info.nodes as f64 / info.time.as_secs_f64().max(1e-6);
    format!(
        "depth {:>2} line {} {:<10} nodes {:>10} nps {:>9.0} time {:>6.2}s  {}",
        info.depth,
        info.multipv,
        info.score.to_string(),
        info.nodes,
        nps,
        info.time.as_secs_f64(),
        line.join(" ")
    )
}
