//! Self-play games for tuning: random openings, then the engine at a small node budget.

use anyhow::Result;
use clap::Args;
use indicatif::ProgressBar;
use loa_core::{Color, Game, Position, RuleSet};
use loa_engine::{Engine, SearchLimits};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

#[derive(Args)]
pub struct SelfplayArgs {
    /// Games to play.
    #[arg(long, default_value_t = 2000)]
    games: usize,
    /// Nodes per move.
    #[arg(long, default_value_t = 4000)]
    nodes: u64,
    /// Random plies at the start of each game.
    #[arg(long, default_value_t = 6)]
    random_plies: usize,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output file: one `position text ; result` line per position, the result from
    /// Black's side (1, 0.5 or 0).
    #[arg(long)]
    out: std::path::PathBuf,
}

pub fn run(args: SelfplayArgs) -> Result<()> {
    let out = Mutex::new(std::io::BufWriter::new(std::fs::File::create(&args.out)?));
    let next = AtomicUsize::new(0);
    let bar = ProgressBar::new(args.games as u64);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| -> Result<()> {
                let mut engine = Engine::new(8);
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= args.games {
                        return Ok(());
                    }
                    // One stream of the seed per game: the same games at any thread count.
                    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
                    rng.set_stream(index as u64);
                    let lines = play_game(&mut engine, &mut rng, &args, &stop);
                    out.lock().expect("writer").write_all(lines.as_bytes())?;
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    out.into_inner().expect("writer").flush()?;
    Ok(())
}

fn play_game(
    engine: &mut Engine,
    rng: &mut ChaCha8Rng,
    args: &SelfplayArgs,
    stop: &AtomicBool,
) -> String {
    engine.clear();
    let mut game = Game::new(Position::startpos(), RuleSet::Draw);
    let mut positions = Vec::new();
    let limits = SearchLimits {
        nodes: Some(args.nodes),
        ..SearchLimits::default()
    };
    while !game.is_over() && game.ply() < 300 {
        let moves = game.legal_moves();
        let mv = if game.ply() < args.random_plies {
            moves[rng.random_range(0..moves.len())]
        } else {
            let keys = game.previous_hashes();
            let result = engine.search(game.position(), &keys, game.rules(), &limits, stop, |_| {});
            // Positions where the search already sees the end teach the weights nothing.
            if matches!(result.score, loa_engine::Score::Cp(_)) {
                positions.push(*game.position());
            }
            result.best.expect("game not over")
        };
        game.play(mv).expect("engine moves are legal");
    }
    let result = match game.outcome().and_then(|o| o.winner) {
        Some(Color::Black) => "1",
        Some(Color::White) => "0",
        None => "0.5",
    };
    positions
        .iter()
        .map(|pos| format!("{pos} ; {result}\n"))
        .collect()
}
