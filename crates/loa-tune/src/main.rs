//! `loa-tune`: Texel-style tuning of the evaluation weights.
//!
//! 1. `loa-tune selfplay --games 4000 --out positions.txt` plays fast engine games from
//!    random openings and writes their positions with the game's result.
//! 2. `loa-tune fit positions.txt` fits the weights that best predict those results
//!    through a logistic curve and writes them to the evaluation's weights file.
//!
//! The evaluation is linear in its features, so fitting is logistic regression on the
//! feature differences between the two sides.

mod fit;
mod selfplay;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "loa-tune",
    about = "Tune the evaluation weights from self-play games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play engine games and write their positions with the results.
    Selfplay(selfplay::SelfplayArgs),
    /// Fit the weights to a file of positions and results.
    Fit(fit::FitArgs),
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Selfplay(args) => selfplay::run(args),
        Command::Fit(args) => fit::run(args),
    }
}
