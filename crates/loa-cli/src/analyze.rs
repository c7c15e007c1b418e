//! `loa analyze`: the engine's best lines for a position, printed as the search deepens.

use crate::setup::{PositionArgs, RulesArg};
use anyhow::{bail, Result};
use clap::Args;
use loa_core::{Game, Position, RuleSet};
use loa_engine::{Budget, Engine, Info, Limits};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

#[derive(Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Moves played from the position before analysing.
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
    /// Seconds to think (default 5 when no depth is given).
    #[arg(long, conflicts_with = "depth")]
    time: Option<f64>,
    /// Depth to search to.
    #[arg(long)]
    depth: Option<u32>,
    /// How many best lines to show.
    #[arg(long, default_value_t = 1)]
    multipv: usize,
    /// What a simultaneous connection means.
    #[arg(long, value_enum, default_value = "draw")]
    rules: RulesArg,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256)]
    hash: usize,
}

pub fn run(args: AnalyzeArgs) -> Result<()> {
    let rules = RuleSet::from(args.rules);
    let mut game = Game::new(args.position.position()?, rules);
    for (i, text) in args.moves.iter().enumerate() {
        if let Err(err) = game.play_text(text) {
            bail!("move {} ({text}): {err}", i + 1);
        }
    }
    if let Some(outcome) = game.outcome() {
        println!("{}", game.position());
        println!("The game is over: {outcome}.");
        return Ok(());
    }
    if args.multipv == 0 {
        bail!("--multipv must be at least 1");
    }
    let time = match (args.time, args.depth) {
        (Some(t), _) if !(t.is_finite() && t > 0.0) => bail!("--time must be positive"),
        (Some(t), _) => Some(Budget::fixed(Duration::from_secs_f64(t), Duration::ZERO)),
        (None, None) => Some(Budget::fixed(Duration::from_secs(5), Duration::ZERO)),
        (None, Some(_)) => None,
    };
    let limits = Limits {
        depth: args.depth,
        time,
        multipv: args.multipv,
        ..Limits::default()
    };
    let pos = *game.position();
    let history = game.previous_hashes();
    println!("{}", pos.diagram(loa_core::Bitboard::EMPTY));
    println!("{pos}");
    let mut engine = Engine::new(args.hash.max(1), rules);
    let stop = AtomicBool::new(false);
    let result = engine.search(&pos, &history, &limits, &stop, |info| {
        println!("{}", describe(&pos, info));
    });
    if let Some(best) = result.best {
        println!("best move {best}");
    }
    Ok(())
}

fn describe(root: &Position, info: &Info) -> String {
    let mut pos = *root;
    let mut line = Vec::new();
    for &mv in &info.pv {
        line.push(mv.to_string());
        pos.play(mv);
    }
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
