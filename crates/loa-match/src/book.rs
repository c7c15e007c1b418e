//! Making an opening book with an engine (`loa match --make-book FILE`, used by
//! scripts/make_book.sh): random move sequences from the standard start, kept when the
//! engine's short search scores the position near equal.

use super::engine_process::EngineProcess;
use super::engine_spec::EngineSpec;
use super::openings::{random_opening, MAX_RANDOM_PLIES};
use super::referee::game::go_command;
use anyhow::{bail, Context, Result};
use loa_core::{Move, RuleSet, Variant};
use loa_ugi::{Command, Start};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

/// What to make.
pub struct BookPlan {
    pub lines: usize,
    /// Plies per opening, chosen uniformly in this range.
    pub min_plies: usize,
    pub max_plies: usize,
    /// Keep openings scored within this many centipawns of equal.
    pub margin_cp: i32,
    pub seed: u64,
    pub timeout: Duration,
}

/// Reads `4-8` (or `6`).
pub fn parse_plies(text: &str) -> Result<(usize, usize), String> {
    let (lo, hi) = text.split_once('-').unwrap_or((text, text));
    let parse = |t: &str| {
        t.trim().parse::<usize>().map_err(|_| {
            format!(
                "--book-plies: '{}' is not N or N-M",
                loa_core::excerpt(text)
            )
        })
    };
    let (lo, hi) = (parse(lo)?, parse(hi)?);
    if lo == 0 || lo > hi || hi > MAX_RANDOM_PLIES {
        return Err(format!(
            "--book-plies: '{text}' needs 1 <= N <= M <= {MAX_RANDOM_PLIES}"
        ));
    }
    Ok((lo, hi))
}

/// Makes the book and writes it to `path`; returns how many candidates were drawn.
pub fn make_book(spec: &EngineSpec, plan: &BookPlan, path: &Path) -> Result<usize> {
    let mut engine = EngineProcess::start(spec, RuleSet::Draw, Variant::Standard, plan.timeout)
        .map_err(|e| anyhow::anyhow!("{}: {e}", spec.name))?;
    let mut rng = ChaCha8Rng::seed_from_u64(plan.seed);
    let mut seen_positions = HashSet::new();
    let mut kept: Vec<Vec<Move>> = Vec::new();
    let mut tried = 0;
    let go = go_command(spec.limits, &[None, None], loa_core::Color::Black);
    while kept.len() < plan.lines {
        tried += 1;
        if tried > 200 * plan.lines + 1000 {
            bail!(
                "only {} balanced openings in {tried} tries: widen --book-margin or --book-plies",
                kept.len()
            );
        }
        let plies = rng.random_range(plan.min_plies..=plan.max_plies);
        let opening =
            random_opening(&mut rng, plies, Variant::Standard).map_err(anyhow::Error::msg)?;
        let game = opening.game(RuleSet::Draw);
        if !seen_positions.insert(*game.position()) {
            continue;
        }
        let position = Command::Position {
            start: Start::StartPos,
            moves: opening.moves.iter().map(|m| m.coordinate()).collect(),
        };
        engine
            .new_game(plan.timeout)
            .map_err(|e| anyhow::anyhow!("{}: {e}", spec.name))?;
        let sent = engine
            .go(&position, &go)
            .map_err(|e| anyhow::anyhow!("{}: {e}", spec.name))?;
        let best = engine
            .wait_bestmove(sent + plan.timeout)
            .map_err(|e| anyhow::anyhow!("{}: {e}", spec.name))?;
        let Some(score) = best.score else {
            bail!(
                "{} gave no score ({})",
                spec.name,
                loa_core::excerpt(&best.line)
            );
        };
        if score.as_cp().abs() <= plan.margin_cp {
            kept.push(opening.moves);
        }
    }
    let mut out =
        std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    let mut text = String::new();
    text.push_str(&format!(
        "# Lines of Action openings from the standard start, {} lines.\n\
         # Made by scripts/make_book.sh: random sequences of {}-{} plies (seed {}), kept when\n\
         # {} ({}) scores the position within {} cp of equal; no two reach the same position.\n\
         # {} candidates drawn. Each line is moves in the rule book's notation.\n",
        kept.len(),
        plan.min_plies,
        plan.max_plies,
        plan.seed,
        spec.name,
        spec.limits,
        plan.margin_cp,
        tried,
    ));
    for moves in &kept {
        let line: Vec<String> = moves.iter().map(Move::to_string).collect();
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    out.write_all(text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    engine.quit(Duration::from_millis(500));
    Ok(tried)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ply_ranges() {
        assert_eq!(parse_plies("4-8"), Ok((4, 8)));
        assert_eq!(parse_plies("6"), Ok((6, 6)));
        assert!(parse_plies("8-4").is_err());
        assert!(parse_plies("0-2").is_err());
        assert!(parse_plies("x").is_err());
    }
}
