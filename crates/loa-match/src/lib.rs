//! The match runner: engines against each other (head to head, a gauntlet or a round
//! robin) with clocks, openings, adjudication, Elo, an SPRT and game records. Engines are
//! processes spoken to in the engine protocol ([`loa_ugi`]); a referee keeps its own game
//! and checks every move. docs/match.md describes it; `loa match` is its front end.

pub mod book;
pub mod bot;
mod engine_process;
mod engine_spec;
mod openings;
mod process_group;
mod records;
mod referee;
mod report;
mod schedule;
mod sprt;
mod standings;
mod stats;
mod time_control;
mod tournament;

pub use engine_process::{EngineError, EngineProcess};
pub use engine_spec::{
    bot_spec, build_specs, EngineSpec, MoveLimits, Protocol, BOT_ENGINE_KEYS, ENGINE_KEYS,
};
pub use openings::{parse_book, Opening, OpeningSource, DEFAULT_BOOK, MAX_RANDOM_PLIES};
pub use referee::adjudication::{parse_draw, parse_resign, Adjudication};
pub use schedule::MatchFormat;
pub use sprt::Sprt;
pub use time_control::{TimeControl, MAX_TIME};

use anyhow::{bail, Result};
use loa_core::{RuleSet, Variant};
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use records::RecordWriter;
use schedule::Schedule;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Hears of each finished game as the match goes (a progress bar, a log).
pub trait Progress: Sync {
    /// `line` says which game ended and how; `status` where the match stands.
    fn game_finished(&self, line: &str, status: &str);
}

/// Everything a match is set to do.
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    /// With three or more engines: the first plays each of the others, rather than a
    /// round robin.
    pub gauntlet: bool,
    pub openings: OpeningSource,
    /// Games at once.
    pub concurrency: usize,
    /// Games per pairing; `None`: until the SPRT decides.
    pub games_per_pairing: Option<u64>,
    pub seed: u64,
    pub rules: RuleSet,
    /// The variant played (the engines are told with `UCI_Variant`).
    pub variant: Variant,
    /// Time an engine may go over its clock (or its move time) without losing.
    pub margin: Duration,
    /// The wait for a handshake, `readyok`, and a move in games without a clock.
    pub timeout: Duration,
    pub adjudication: Adjudication,
    pub sprt: Option<Sprt>,
    pub pgn: Option<PathBuf>,
    pub sgf: Option<PathBuf>,
    /// The records' Event tag.
    pub event: String,
}

impl MatchConfig {
    /// Two engines play head to head; more play a gauntlet or a round robin.
    pub fn format(&self) -> MatchFormat {
        if self.engines.len() == 2 {
            MatchFormat::HeadToHead
        } else if self.gauntlet {
            MatchFormat::Gauntlet
        } else {
            MatchFormat::RoundRobin
        }
    }

    /// The games of the whole match; `None` when it plays until the SPRT decides.
    pub fn total_games(&self) -> Option<u64> {
        let pairings = self.format().pairings(self.engines.len()).len() as u64;
        self.games_per_pairing.map(|games| games * pairings)
    }
}

/// A match's seed when none is given: from the clock, and short enough to type again, as
/// the report prints it so that a match can be played again.
pub fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    (nanos ^ u64::from(std::process::id())) % 1_000_000_000
}

/// A book in file order, or shuffled with the seed.
pub fn book(mut openings: Vec<Opening>, in_order: bool, seed: u64) -> OpeningSource {
    if !in_order {
        openings.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    }
    OpeningSource::List(openings)
}

/// Plays the match and returns its report. Every engine must start and answer before any
/// game is played.
pub fn run(config: MatchConfig, progress: &dyn Progress) -> Result<String> {
    if config.engines.len() < 2 {
        bail!("a match needs at least two engines (--engine ... --engine ...)");
    }
    let format = config.format();
    if config.sprt.is_some() && format != MatchFormat::HeadToHead {
        bail!("--sprt needs exactly two engines");
    }
    if config.games_per_pairing.is_none() && config.sprt.is_none() {
        bail!("a match without an SPRT needs a number of games");
    }
    // A bad opening source or record file fails now, not in the middle of the match.
    config.openings.get(0).map_err(anyhow::Error::msg)?;
    let mut records = RecordWriter::new(config.pgn.as_deref(), config.sgf.as_deref())?;
    process_group::end_engines_on_interrupt();
    for spec in &config.engines {
        let engine = EngineProcess::start(spec, config.rules, config.variant, config.timeout)
            .map_err(|e| anyhow::anyhow!("engine '{}' ({}): {e}", spec.name, spec.cmd.display()))?;
        engine.quit(Duration::from_millis(500));
    }
    let schedule = Schedule::new(
        format.pairings(config.engines.len()),
        config.games_per_pairing,
    );
    let heading = report::Heading {
        format: format.name(),
        limits: config
            .engines
            .iter()
            .map(|s| s.limits.to_string())
            .collect(),
        openings: config.openings.describe(),
        rules: config.rules.name().to_string(),
        variant: config.variant.title().to_string(),
        seed: config.seed,
        concurrency: config.concurrency,
    };
    let plan = tournament::Plan {
        specs: config.engines.into_iter().map(Arc::new).collect(),
        schedule,
        openings: config.openings,
        concurrency: config.concurrency,
        rules: config.rules,
        variant: config.variant,
        margin: config.margin,
        timeout: config.timeout,
        adjudication: config.adjudication,
        sprt: config.sprt,
        event: config.event,
        date: records::today(),
    };
    let finished = tournament::run(plan, &mut records, progress)?;
    Ok(report::final_report(
        &heading,
        &finished.standings,
        finished.sprt.as_ref(),
        finished.elapsed,
        finished.abandoned,
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_seed_from_the_clock_has_at_most_nine_digits() {
        assert!(super::clock_seed() < 1_000_000_000);
    }
}
