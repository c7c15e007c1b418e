//! `loa perft`: perft and divide, on several threads, with a progress bar on a terminal.

use crate::numbers::{whole, MAX_THREADS};
use crate::output::say;
use crate::setup::PositionArgs;
use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use loa_core::perft::perft;
use loa_core::{GameState, Move, VariantPosition};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
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
    let total: u64 = split.iter().map(|(_, n)| n).sum();
    let elapsed = started.elapsed().as_secs_f64();
    if args.divide {
        for (mv, nodes) in &split {
            if let Some(mv) = mv {
                say!("{mv}: {nodes}");
            }
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

/// The count under each first move (a single entry with no move at depth 0). Work is split
/// into the positions two plies deep so threads stay balanced.
fn count<P: GameState>(pos: &P, depth: u32, threads: usize) -> Vec<(Option<Move>, u64)> {
    if depth == 0 {
        return vec![(None, 1)];
    }
    let roots = pos.moves();
    let mut tasks: Vec<(usize, P)> = Vec::new();
    for (i, &mv) in roots.iter().enumerate() {
        let child = pos.after(mv);
        if depth >= 3 {
            child.for_each_move(|reply| tasks.push((i, child.after(reply))));
        } else {
            tasks.push((i, child));
        }
    }
    let task_depth = if depth >= 3 { depth - 2 } else { depth - 1 };
    let bar = if depth >= 5 {
        let bar = ProgressBar::new(tasks.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} subtrees, {elapsed} (eta {eta})")
                .expect("valid template"),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let counts: Vec<u64> = vec![0; roots.len()];
    let counts = Mutex::new(counts);
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(tasks.len()).max(1) {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some((root, position)) = tasks.get(index) else {
                    break;
                };
                let nodes = perft(position, task_depth);
                counts.lock().expect("no panics while counting")[*root] += nodes;
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    let counts = counts.into_inner().expect("no panics while counting");
    roots.iter().map(|&mv| Some(mv)).zip(counts).collect()
}
