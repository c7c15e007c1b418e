//! `loa`: play, analyse and test Lines of Action from the command line.

mod perft;
mod play;
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
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Moves(args) => setup::moves(args),
        Command::Play(args) => play::run(args),
    };
    if let Err(err) = result {
        eprintln!("error: {err:#}");
        std::process::exit(1);
    }
}
