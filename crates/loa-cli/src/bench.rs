//! `loa bench`: the engine's fixed benchmark. The last line is `Bench: N nodes M nps`.

use anyhow::Result;
use loa_engine::bench;

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(default_value_t = bench::DEPTH)]
    depth: u32,
}

pub fn run(args: BenchArgs) -> Result<()> {
    if args.depth == 0 {
        anyhow::bail!("bench depth must be at least 1");
    }
    let result = bench::run(args.depth, |i, text, nodes| {
        println!("position {:>2}: {nodes:>10} nodes  {text}", i + 1);
    });
    let nps = result.nodes as f64 / result.time.as_secs_f64().max(1e-9);
    println!("time {:.3} s", result.time.as_secs_f64());
    println!("Bench: {} nodes {:.0} nps", result.nodes, nps);
    Ok(())
}
