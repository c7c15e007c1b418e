//! `loa`: play, analyse and test Lines of Action from the command line.

mod analyze;
mod bench;
mod bot;
mod certificate_file;
mod match_cmd;
mod numbers;
mod out_file;
mod output;
mod perft;
mod play;
mod puzzles;
mod record_file;
mod replay;
mod report;
mod serve;
mod setup;
mod solve;
mod text_file;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "loa",
    version = env!("LOA_VERSION"),
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
    /// Print the legal moves of a position on one line (`pass` when there are none), or
    /// who won when the game is over.
    Moves(setup::MovesArgs),
    /// Play a game in the terminal, against the computer or another person.
    Play(play::PlayArgs),
    /// Speak the engine protocol (UGI, UCI-like) on standard input and output
    /// (docs/protocol.md), until `quit` or the end of the input.
    Engine,
    /// Search a fixed set of positions; the last line is the node count and speed.
    Bench(bench::BenchArgs),
    /// Show the engine's best lines for a position as it searches.
    Analyze(analyze::AnalyzeArgs),
    /// Play engines against each other: Elo, SPRT, game records.
    Match(match_cmd::MatchArgs),
    /// Check a game record (SGF or PGN) move by move and print the final position.
    Replay(replay::ReplayArgs),
    /// Judge every move of a recorded game: evaluations, mistakes with the better move,
    /// each side's accuracy; write the record again with them as comments.
    Report(report::ReportArgs),
    /// Puzzles from game records: forced wins of 2 to 6 moves proved by the solver.
    #[command(subcommand)]
    Puzzles(puzzles::PuzzlesCommand),
    /// Serve the web page: play the engine or each other, analyse, replay records.
    Serve(serve::ServeArgs),
    /// Prove a position won, lost or drawn with proof-number search; write the proof.
    Solve(solve::SolveArgs),
    /// Check a proof or a certificate written by `loa solve` with the rules alone.
    VerifyProof(solve::VerifyArgs),
    /// Play on a `loa serve` server as an account: accept challenges, play them with an
    /// engine.
    Bot(bot::BotArgs),
}

fn main() {
    let cli = Cli::try_parse().unwrap_or_else(|err| exit_on_bad_arguments(err));
    let result = match cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Moves(args) => setup::moves(args),
        Command::Play(args) => play::run(args),
        Command::Engine => {
            loa_ugi::Session::serve_stdio();
            Ok(())
        }
        Command::Bench(args) => bench::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Match(args) => match_cmd::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Report(args) => report::run(args),
        Command::Puzzles(command) => puzzles::run(command),
        Command::Serve(args) => serve::run(args),
        Command::Solve(args) => solve::run(args),
        Command::VerifyProof(args) => solve::verify(args),
        Command::Bot(args) => bot::run(args),
    };
    if let Err(err) = result {
        if output::is_closed_pipe(&err) {
            return;
        }
        eprintln!("error: {err:#}");
        std::process::exit(1);
    }
}

/// Says what is wrong with the arguments and ends the program. A value too long to quote
/// (clap quotes values whole) is cut to its start.
fn exit_on_bad_arguments(err: clap::Error) -> ! {
    use clap::error::ContextValue;
    let long: Vec<String> = err
        .context()
        .flat_map(|(_, value)| match value {
            ContextValue::String(s) => vec![s.clone()],
            ContextValue::Strings(list) => list.clone(),
            _ => Vec::new(),
        })
        .filter(|s| loa_core::excerpt(s).len() < s.len())
        .collect();
    if long.is_empty() {
        err.exit();
    }
    let mut text = err.render().to_string();
    for value in long {
        text = text.replace(&value, &loa_core::excerpt(&value));
    }
    eprint!("{text}");
    std::process::exit(err.exit_code());
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
