//! `loa bench`: the engine's fixed benchmark. The last line is `Bench: N nodes M nps`.

use crate::numbers::whole;
use crate::output::say;
use anyhow::Result;
use loa_engine::{bench, MAX_DEPTH};

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(default_value_t = bench::DEPTH, allow_negative_numbers = true,
          value_parser = whole(1, MAX_DEPTH))]
    depth: u32,
}

pub fn run(args: BenchArgs) -> Result<()> {
    let result = bench::run(args.depth, |i, text, nodes| {
        say!("position {:>2}: {nodes:>10} nodes  {text}", i + 1);
    });
    let nps = result.nodes as f64 / result.time.as_secs_f64().max(1e-9);
    say!("time {:.3} s", result.time.as_secs_f64());
    say!("Bench: {} nodes {:.0} nps", result.nodes, nps);
    Ok(())
}
