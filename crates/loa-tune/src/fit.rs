//! Fitting the weights: logistic regression of the game result on the evaluation.

use anyhow::{bail, Context, Result};
use clap::Args;
use loa_core::{Color, Position};
use loa_engine::eval::{self, weight_name, weights, PHASES, TERMS, TERM_COUNT as FEATURES};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct FitArgs {
    /// Positions with results, as `selfplay` writes them.
    file: PathBuf,
    /// Passes of gradient descent.
    #[arg(long, default_value_t = 3000)]
    iterations: usize,
    /// The weights file to write: the evaluation's, in the source tree.
    #[arg(long, default_value = "crates/loa-engine/src/eval/weights.rs")]
    weights: PathBuf,
    /// Print the fitted weights without writing the file.
    #[arg(long)]
    dry_run: bool,
}

/// The inputs of one phase: each term's weight, then the bonus for the side to move.
const INPUTS: usize = FEATURES + 1;
/// Every weight fitted: the inputs' weights on a crowded board, then on a sparse one.
const WEIGHTS: usize = 2 * INPUTS;

/// One training position: the feature differences from Black's side (features, then the
/// side-to-move sign), spread over the two phases' weights by how crowded the board is,
/// and the result from Black's side.
struct Sample {
    x: [f64; WEIGHTS],
    result: f64,
}

impl Sample {
    fn new(pos: &Position, result: f64) -> Sample {
        let black = eval::features(pos, Color::Black);
        let white = eval::features(pos, Color::White);
        let mut inputs = [0.0; INPUTS];
        for ((x, b), w) in inputs.iter_mut().zip(black).zip(white) {
            // Weights apply to differences scaled by 1/16.
            *x = f64::from(b - w) / 16.0;
        }
        inputs[FEATURES] = if pos.side_to_move() == Color::Black {
            1.0
        } else {
            -1.0
        };
        let crowded = f64::from(eval::phase_of(pos)) / f64::from(PHASES);
        let mut x = [0.0; WEIGHTS];
        for (i, input) in inputs.iter().enumerate() {
            x[i] = input * crowded;
            x[INPUTS + i] = input * (1.0 - crowded);
        }
        Sample { x, result }
    }
}

/// The weights as they are: the table's, then the tempo, for each phase.
fn current_weights() -> [f64; WEIGHTS] {
    let mut w = [0.0; WEIGHTS];
    for (i, taper) in TERMS
        .iter()
        .map(|t| t.weight)
        .chain([weights::TEMPO])
        .enumerate()
    {
        w[i] = f64::from(taper.crowded);
        w[INPUTS + i] = f64::from(taper.sparse);
    }
    w
}

/// The logistic curve mapping an evaluation to an expected result.
fn sigmoid(score: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-score / 400.0))
}

pub fn run(args: FitArgs) -> Result<()> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("reading {}", args.file.display()))?;
    let mut samples = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Some((pos_text, result)) = line.split_once(';') else {
            bail!("line {}: expected 'position ; result'", n + 1);
        };
        let pos: Position = pos_text
            .trim()
            .parse()
            .with_context(|| format!("line {}", n + 1))?;
        let result: f64 = result
            .trim()
            .parse()
            .with_context(|| format!("line {}: bad result", n + 1))?;
        samples.push(Sample::new(&pos, result));
    }
    if samples.is_empty() {
        bail!("no positions in {}", args.file.display());
    }
    let mut w = current_weights();
    let before = error(&samples, &w);
    println!(
        "{} positions; error with the current weights {before:.6}",
        samples.len()
    );
    // Adam on the mean squared error of the predicted result.
    let (beta1, beta2, rate) = (0.9, 0.999, 0.5);
    let mut m = [0.0f64; WEIGHTS];
    let mut v = [0.0f64; WEIGHTS];
    for step in 1..=args.iterations {
        let mut grad = [0.0f64; WEIGHTS];
        for s in &samples {
            let score: f64 = s.x.iter().zip(&w).map(|(x, w)| x * w).sum();
            let p = sigmoid(score);
            let g = (p - s.result) * p * (1.0 - p);
            for (gi, xi) in grad.iter_mut().zip(&s.x) {
                *gi += g * xi;
            }
        }
        for i in 0..WEIGHTS {
            let g = grad[i] / samples.len() as f64;
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(step as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(step as i32));
            w[i] -= rate * m_hat / (v_hat.sqrt() + 1e-12);
        }
        if step % 500 == 0 {
            eprintln!("step {step}: error {:.6}", error(&samples, &w));
        }
    }
    let after = error(&samples, &w);
    println!("error with the fitted weights {after:.6}");
    println!("{:>16}  crowded (was)   sparse (was)", "");
    let names = TERMS.iter().map(|t| (t.name, t.weight));
    for (i, (name, was)) in names.chain([("tempo", weights::TEMPO)]).enumerate() {
        println!(
            "{name:>16}: {:>7.1} ({:>4}) {:>7.1} ({:>4})",
            w[i],
            was.crowded,
            w[INPUTS + i],
            was.sparse
        );
    }
    let text = weights_file(&w, samples.len(), after);
    if args.dry_run {
        print!("{text}");
    } else {
        write_weights(&args.weights, &text)?;
        println!("wrote {}", args.weights.display());
    }
    Ok(())
}

/// The weights file: one constant per term, named after it, and the tempo, each with its
/// weight on a crowded board and on a sparse one.
fn weights_file(w: &[f64; WEIGHTS], positions: usize, error: f64) -> String {
    let mut text = format!(
        "//! The evaluation's weights, written by `loa-tune fit` (docs/tuning.md): fitted on {positions}\n\
         //! positions of self-play games, error {error:.4}. Fit again rather than edit by hand.\n\n\
         use super::Taper;\n\n"
    );
    let taper = |i: usize| {
        format!(
            "Taper::new({}, {})",
            w[i].round() as i32,
            w[INPUTS + i].round() as i32
        )
    };
    for (i, term) in TERMS.iter().enumerate() {
        let _ = writeln!(
            text,
            "pub const {}: Taper = {};",
            weight_name(term.name),
            taper(i)
        );
    }
    let _ = writeln!(text, "/// The bonus for the side to move.");
    let _ = writeln!(text, "pub const TEMPO: Taper = {};", taper(FEATURES));
    text
}

/// Writes the weights file, refusing a path that is not the weights file of a checkout.
fn write_weights(path: &Path, text: &str) -> Result<()> {
    let old = std::fs::read_to_string(path).with_context(|| {
        format!(
            "reading {}: run from the root of the source tree, or give --weights",
            path.display()
        )
    })?;
    if !old.contains("pub const TEMPO") {
        bail!("{} is not a weights file", path.display());
    }
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

fn error(samples: &[Sample], w: &[f64; WEIGHTS]) -> f64 {
    samples
        .iter()
        .map(|s| {
            let score: f64 = s.x.iter().zip(w).map(|(x, w)| x * w).sum();
            (sigmoid(score) - s.result).powi(2)
        })
        .sum::<f64>()
        / samples.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use loa_engine::eval::Taper;

    #[test]
    fn the_weights_file_holds_every_term_and_is_checked_before_it_is_written() {
        let text = weights_file(&current_weights(), 10, 0.2);
        let names = TERMS.iter().map(|t| (weight_name(t.name), t.weight));
        for (name, Taper { crowded, sparse }) in names.chain([("TEMPO".into(), weights::TEMPO)]) {
            let line = format!("pub const {name}: Taper = Taper::new({crowded}, {sparse});");
            assert!(text.contains(&line), "{line}\n{text}");
        }
        let dir = tempfile::tempdir().unwrap();
        let other = dir.path().join("other.rs");
        std::fs::write(&other, "fn main() {}").unwrap();
        assert!(write_weights(&other, &text).is_err());
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "fn main() {}");
        let file = dir.path().join("weights.rs");
        std::fs::write(&file, "pub const TEMPO: i32 = 1;").unwrap();
        write_weights(&file, &text).unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    }
}
