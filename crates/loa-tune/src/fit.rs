//! Fitting the weights: logistic regression of the game result on the evaluation.

use anyhow::{bail, Context, Result};
use clap::Args;
use loa_core::{Color, Position};
use loa_engine::eval::{self, weight_name, weights, TERMS, TERM_COUNT as FEATURES};
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

/// One training position: the feature differences from Black's side (features, then the
/// side-to-move sign) and the result from Black's side.
struct Sample {
    x: [f64; FEATURES + 1],
    result: f64,
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
        let black = eval::features(&pos, Color::Black);
        let white = eval::features(&pos, Color::White);
        let mut x = [0.0; FEATURES + 1];
        for ((x, b), w) in x.iter_mut().zip(black).zip(white) {
            // Weights apply to differences scaled by 1/16.
            *x = f64::from(b - w) / 16.0;
        }
        x[FEATURES] = if pos.side_to_move() == Color::Black {
            1.0
        } else {
            -1.0
        };
        samples.push(Sample { x, result });
    }
    if samples.is_empty() {
        bail!("no positions in {}", args.file.display());
    }
    let mut w = [0.0f64; FEATURES + 1];
    for (w, term) in w.iter_mut().zip(&TERMS) {
        *w = f64::from(term.weight);
    }
    w[FEATURES] = f64::from(weights::TEMPO);
    let before = error(&samples, &w);
    println!(
        "{} positions; error with the current weights {before:.6}",
        samples.len()
    );
    // Adam on the mean squared error of the predicted result.
    let (beta1, beta2, rate) = (0.9, 0.999, 0.5);
    let mut m = [0.0f64; FEATURES + 1];
    let mut v = [0.0f64; FEATURES + 1];
    for step in 1..=args.iterations {
        let mut grad = [0.0f64; FEATURES + 1];
        for s in &samples {
            let score: f64 = s.x.iter().zip(&w).map(|(x, w)| x * w).sum();
            let p = sigmoid(score);
            let g = (p - s.result) * p * (1.0 - p);
            for (gi, xi) in grad.iter_mut().zip(&s.x) {
                *gi += g * xi;
            }
        }
        for i in 0..=FEATURES {
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
    for (term, w) in TERMS.iter().zip(&w) {
        println!("{:>16}: {:>6.1} (was {})", term.name, w, term.weight);
    }
    println!(
        "{:>16}: {:>6.1} (was {})",
        "tempo",
        w[FEATURES],
        weights::TEMPO
    );
    let text = weights_file(&w, samples.len(), after);
    if args.dry_run {
        print!("{text}");
    } else {
        write_weights(&args.weights, &text)?;
        println!("wrote {}", args.weights.display());
    }
    Ok(())
}

/// The weights file: one constant per term, named after it, and the tempo.
fn weights_file(w: &[f64; FEATURES + 1], positions: usize, error: f64) -> String {
    let mut text = format!(
        "//! The evaluation's weights, written by `loa-tune fit` (docs/tuning.md): fitted on {positions}\n\
         //! positions of self-play games, error {error:.4}. Fit again rather than edit by hand.\n\n"
    );
    for (term, w) in TERMS.iter().zip(w) {
        let _ = writeln!(
            text,
            "pub const {}: i32 = {};",
            weight_name(term.name),
            w.round() as i32
        );
    }
    let _ = writeln!(text, "/// The bonus for the side to move.");
    let _ = writeln!(
        text,
        "pub const TEMPO: i32 = {};",
        w[FEATURES].round() as i32
    );
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

fn error(samples: &[Sample], w: &[f64; FEATURES + 1]) -> f64 {
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

    #[test]
    fn the_weights_file_holds_every_term_and_is_checked_before_it_is_written() {
        let mut w = [0.0; FEATURES + 1];
        for (w, term) in w.iter_mut().zip(&TERMS) {
            *w = f64::from(term.weight);
        }
        w[FEATURES] = f64::from(weights::TEMPO);
        let text = weights_file(&w, 10, 0.2);
        for term in &TERMS {
            let line = format!(
                "pub const {}: i32 = {};",
                weight_name(term.name),
                term.weight
            );
            assert!(text.contains(&line), "{line}\n{text}");
        }
        assert!(text.contains(&format!("pub const TEMPO: i32 = {};", weights::TEMPO)));
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
