//! `loa perft`: perft and divide, on several threads, with a progress bar on a terminal.

use crate::numbers::{whole, MAX_THREADS};
use crate::output::{bar_style, say};
use crate::setup::PositionArgs;
use anyhow::Result;
use clap::Args;
use indicatif::ProgressBar;
use loa_core::perft::PerftSplit;
use loa_core::{GameState, Move, VariantPosition};
use std::time::Instant;

/// Deeper than any count that could finish.
const MAX_PERFT_DEPTH: u32 = 64;

#[derive(Args)]
pub struct PerftArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Print the count under each first move.
    #[arg(long)]
    divide: bool,
    /// Worker threads.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = whole(1, MAX_THREADS))]
    threads: usize,
    /// Plies to count.
    #[arg(allow_negative_numbers = true, value_parser = whole(0, MAX_PERFT_DEPTH))]
    depth: u32,
}

pub fn run(args: PerftArgs) -> Result<()> {
    let pos = args.position.position()?;
    let started = Instant::now();
    // Each variant's own position type: the standard count pays nothing for the others.
    let split = match &pos {
        VariantPosition::Standard(p) => count(p, args.depth, args.threads),
        VariantPosition::Parachute(p) => count(p, args.depth, args.threads),
        VariantPosition::AmbiLoa(p) => count(p, args.depth, args.threads),
        VariantPosition::Neighbors(p) => count(p, args.depth, args.threads),
        VariantPosition::FieldsOfAction(p) => count(p, args.depth, args.threads),
    };
    // The one sequence of no moves.
    let total: u64 = match args.depth {
        0 => 1,
        _ => split.iter().map(|(_, n)| n).sum(),
    };
    let elapsed = started.elapsed().as_secs_f64();
    if args.divide {
        for (mv, nodes) in &split {
            say!("{mv}: {nodes}");
        }
    }
    eprintln!(
        "depth {} time {:.3} s nps {:.0}",
        args.depth,
        elapsed,
        total as f64 / elapsed.max(1e-9)
    );
    say!("{total}");
    Ok(())
}

/// The count under each first move (none at depth 0), on `threads` threads, with a
/// progress bar for a count deep enough to wait for.
fn count<P: GameState>(pos: &P, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let split = PerftSplit::new(pos, depth);
    let bar = if depth >= 5 {
        ProgressBar::new(split.subtrees() as u64).with_style(bar_style(
            "{bar:40} {pos}/{len} subtrees, {elapsed} (eta {eta})",
        ))
    } else {
        ProgressBar::hidden()
    };
    let counts = split.count(threads, || bar.inc(1));
    bar.finish_and_clear();
    counts
}
