//! Fitting the weights: logistic regression of the game result on the evaluation.

use anyhow::{bail, Context, Result};
use clap::Args;
use loa_core::{Color, Position};
use loa_engine::eval::{self, FEATURES, FEATURE_NAMES, WEIGHTS};

#[derive(Args)]
pub struct FitArgs {
    /// Positions with results, as `selfplay` writes them.
    file: std::path::PathBuf,
    /// Passes of gradient descent.
    #[arg(long, default_value_t = 3000)]
    iterations: usize,
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
    for (w, &start) in w.iter_mut().zip(&WEIGHTS.features) {
        *w = f64::from(start);
    }
    w[FEATURES] = f64::from(WEIGHTS.tempo);
    println!(
        "{} positions; error with the current weights {:.6}",
        samples.len(),
        error(&samples, &w)
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
    println!("error with the fitted weights {:.6}", error(&samples, &w));
    for (name, w) in FEATURE_NAMES.iter().zip(&w) {
        println!("{name:>16}: {w:>6.1}");
    }
    println!("{:>16}: {:>6.1}", "tempo", w[FEATURES]);
    let features: Vec<String> = w[..FEATURES]
        .iter()
        .map(|x| format!("{}", x.round() as i32))
        .collect();
    println!(
        "pub const WEIGHTS: Weights = Weights {{\n    features: [{}],\n    tempo: {},\n}};",
        features.join(", "),
        w[FEATURES].round() as i32
    );
    Ok(())
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
