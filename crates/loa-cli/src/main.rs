//! `loa`: play, analyse and test Lines of Action from the command line.

mod analyze;
mod bench;
mod engine;
mod matches;
mod perft;
mod play;
mod replay;
mod setup;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "loa",
    version,
    about = "Lines of Action: rules, engine and tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the move sequences of a given length (every sequence; a pass is one move).
    Perft(perft::PerftArgs),
    /// Print the legal moves of a position on one line (`pass` when there are none).
    Moves(setup::MovesArgs),
    /// Play a game in the terminal, against the computer or another person.
    Play(play::PlayArgs),
    /// Speak the engine protocol (UGI, UCI-like) on standard input and output.
    Engine,
    /// Search a fixed set of positions; the last line is the node count and speed.
    Bench(bench::BenchArgs),
    /// Show the engine's best lines for a position as it searches.
    Analyze(analyze::AnalyzeArgs),
    /// Play engines against each other: Elo, SPRT, game records.
    Match(matches::MatchArgs),
    /// Check a game record (SGF or PGN) move by move and print the final position.
    Replay(replay::ReplayArgs),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Moves(args) => setup::moves(args),
        Command::Play(args) => play::run(args),
        Command::Engine => engine::run(),
        Command::Bench(args) => bench::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Match(args) => matches::run(args),
        Command::Replay(args) => replay::run(args),
    };
    if let Err(err) = result {
        eprintln!("error: {err:#}");
        std::process::exit(1);
    }
}
