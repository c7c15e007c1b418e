//! The sequential probability ratio test on game pairs, as fastchess and OpenBench run
//! it: the generalized SPRT (GSPRT) with the normalized-Elo model on pentanomial counts.
//!
//! The hypotheses are H0: nElo = elo0 and H1: nElo = elo1 (normalized Elo). For each,
//! the distribution of pair scores closest to the observed one (the maximum likelihood
//! estimate under that hypothesis, after M. Van den Bergh, "Comments on Normalized Elo")
//! is found; the log-likelihood ratio of the observed pairs under the two is the LLR.
//! A zero count is replaced by 1e-3 first, so that a match with few draws (or a clean
//! sweep) still moves the LLR. The test stops when the LLR leaves
//! `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`.

use super::stats::{Pentanomial, NELO_PER_T};

/// What a zero count becomes.
const ZERO_COUNT: f64 = 1e-3;

/// The pair scores, per game: 0, 1/4, 1/2, 3/4, 1.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// An SPRT's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where the test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Continue,
    /// H0 accepted: the difference is at most elo0 (the change fails).
    AcceptH0,
    /// H1 accepted: the difference is at least elo1 (the change passes).
    AcceptH1,
}

impl Default for Sprt {
    fn default() -> Sprt {
        Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

impl Sprt {
    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any subset; the rest as shown).
    pub fn parse(words: &[String]) -> Result<Sprt, String> {
        let mut sprt = Sprt::default();
        for word in words {
            let (key, value) = word.split_once('=').ok_or_else(|| {
                format!("--sprt: '{word}' is not KEY=VALUE (elo0, elo1, alpha, beta)")
            })?;
            let value: f64 = value
                .parse()
                .map_err(|_| format!("--sprt: {key}='{value}' is not a number"))?;
            match key {
                "elo0" => sprt.elo0 = value,
                "elo1" => sprt.elo1 = value,
                "alpha" => sprt.alpha = value,
                "beta" => sprt.beta = value,
                _ => {
                    return Err(format!(
                        "--sprt: unknown key '{key}' (elo0, elo1, alpha, beta)"
                    ))
                }
            }
        }
        if sprt.elo0 >= sprt.elo1 || sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            return Err(format!(
                "--sprt: elo0 ({}) must be below elo1 ({})",
                sprt.elo0, sprt.elo1
            ));
        }
        for (name, p) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
            if !(p > 0.0 && p < 1.0) {
                return Err(format!("--sprt: {name} must be between 0 and 1, got {p}"));
            }
        }
        if sprt.alpha + sprt.beta >= 1.0 {
            return Err("--sprt: alpha + beta must be below 1".to_string());
        }
        Ok(sprt)
    }

    /// `(lower, upper)`: accept H0 at or below the lower bound, H1 at or above the upper.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn llr(&self, penta: &Pentanomial) -> f64 {
        llr(penta.counts(), self.elo0, self.elo1)
    }

    pub fn decide(&self, llr: f64) -> Decision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Decision::AcceptH1
        } else if llr <= lower {
            Decision::AcceptH0
        } else {
            Decision::Continue
        }
    }
}

/// The log-likelihood ratio of H1 (nElo = elo1) against H0 (nElo = elo0) for pair
/// counts `[LL, LD, WL+DD, WD, WW]`. Zero with no pairs.
pub fn llr(counts: [u64; 5], elo0: f64, elo1: f64) -> f64 {
    if counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let regularized = counts.map(|c| if c == 0 { ZERO_COUNT } else { c as f64 });
    let total: f64 = regularized.iter().sum();
    let observed = regularized.map(|c| c / total);
    // The t-value of a pair is sqrt(2) times that of a game.
    let t0 = std::f64::consts::SQRT_2 * elo0 / NELO_PER_T;
    let t1 = std::f64::consts::SQRT_2 * elo1 / NELO_PER_T;
    let p0 = mle_with_t(&observed, 0.5, t0);
    let p1 = mle_with_t(&observed, 0.5, t1);
    total
        * (0..5)
            .map(|i| observed[i] * (p1[i].ln() - p0[i].ln()))
            .sum::<f64>()
}

/// The distribution over the pair scores that is most likely to have produced the
/// observed frequencies, among those whose `(mean - reference) / sd` is `t`.
///
/// The stationarity condition gives `p_i = observed_i / (1 + theta * phi_i)` with
/// `phi_i = a_i - reference - t * sd * (1 + ((a_i - mean) / sd)^2) / 2` evaluated at
/// the solution; it is solved by fixed-point iteration from the uniform distribution,
/// finding `theta` at each step as the root of `sum observed_i phi_i / (1 + theta phi_i)`.
fn mle_with_t(observed: &[f64; 5], reference: f64, t: f64) -> [f64; 5] {
    let mut p = [0.2; 5];
    for _ in 0..1000 {
        let (mean, var) = mean_and_variance(&p);
        let sd = var.sqrt();
        let phi: [f64; 5] = std::array::from_fn(|i| {
            let a = PAIR_SCORES[i];
            a - reference - 0.5 * t * sd * (1.0 + ((a - mean) / sd).powi(2))
        });
        let Some(theta) = secular_root(observed, &phi) else {
            break;
        };
        let next: [f64; 5] = std::array::from_fn(|i| observed[i] / (1.0 + theta * phi[i]));
        let change = (0..5).map(|i| (next[i] - p[i]).abs()).fold(0.0, f64::max);
        p = next;
        if change < 1e-12 {
            break;
        }
    }
    p
}

fn mean_and_variance(p: &[f64; 5]) -> (f64, f64) {
    let mean: f64 = (0..5).map(|i| p[i] * PAIR_SCORES[i]).sum();
    let var: f64 = (0..5).map(|i| p[i] * (PAIR_SCORES[i] - mean).powi(2)).sum();
    (mean, var)
}

/// The root of `f(x) = sum w_i a_i / (1 + x a_i)` between `-1 / max a` and `-1 / min a`,
/// where `f` falls from `+inf` to `-inf`; by bisection to the last bit. `None` unless
/// the `a_i` take both signs.
fn secular_root(w: &[f64; 5], a: &[f64; 5]) -> Option<f64> {
    let min = a.iter().copied().fold(f64::INFINITY, f64::min);
    let max = a.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(min < 0.0 && max > 0.0) {
        return None;
    }
    let f = |x: f64| -> f64 { (0..5).map(|i| w[i] * a[i] / (1.0 + x * a[i])).sum() };
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    // Reference LLRs from scripts/match_stats_reference.py, which finds each constrained maximum
    // likelihood distribution a different way: it solves the Lagrange (KKT) equations
    //   observed_i = p_i (lambda + nu dg/dp_i),  sum p_i = 1,
    //   g(p) = mean(p) - 0.5 - t sd(p) = 0
    // with Newton's method (numerical Jacobian), walking t from the observed value to
    // the hypothesis in 200 steps; zero counts are 1e-3 as here, t = sqrt(2) nElo ln10/800,
    // LLR = N sum observed_i ln(p1_i / p0_i).
    #[test]
    fn llr_matches_an_independent_computation() {
        let cases: [([u64; 5], f64, f64, f64); 7] = [
            ([10, 20, 30, 25, 15], 0.0, 5.0, 0.2328032316),
            ([1, 3, 6, 4, 2], 0.0, 5.0, 0.0528290155),
            ([0, 0, 0, 0, 8], 0.0, 5.0, 0.1611591321),
            ([0, 0, 0, 0, 40], 0.0, 5.0, 0.8057576042),
            ([39, 8843, 26675, 9240, 44], 0.5, 2.5, 2.9416752080),
            ([20, 10, 30, 10, 20], -3.0, 3.0, 0.0),
            ([3, 0, 5, 0, 1], 0.0, 10.0, -0.1293067086),
        ];
        for (counts, elo0, elo1, want) in cases {
            let got = llr(counts, elo0, elo1);
            assert!(
                (got - want).abs() < 1e-6,
                "{counts:?} [{elo0}, {elo1}]: {got} not {want}"
            );
        }
        assert_eq!(llr([0; 5], 0.0, 5.0), 0.0);
    }

    #[test]
    fn bounds_and_decisions() {
        let sprt = Sprt::parse(&words("elo0=0 elo1=5 alpha=0.05 beta=0.05")).unwrap();
        let (lower, upper) = sprt.bounds();
        // ln(0.05 / 0.95) and ln(0.95 / 0.05).
        assert!((lower + 2.944_438_979_166_440_3).abs() < 1e-12);
        assert!((upper - 2.944_438_979_166_440_3).abs() < 1e-12);
        assert_eq!(sprt.decide(3.0), Decision::AcceptH1);
        assert_eq!(sprt.decide(-3.0), Decision::AcceptH0);
        assert_eq!(sprt.decide(0.1), Decision::Continue);
        let wide = Sprt::parse(&words("elo1=50")).unwrap();
        assert_eq!(wide.elo0, 0.0);
        assert_eq!(wide.alpha, 0.05);
        assert_eq!(Sprt::parse(&[]).unwrap(), Sprt::default());
    }

    #[test]
    fn bad_parameters_are_refused() {
        for text in [
            "elo0=5 elo1=5",
            "alpha=0",
            "beta=1",
            "alpha=0.6 beta=0.5",
            "elo1",
            "x=1",
        ] {
            assert!(Sprt::parse(&words(text)).is_err(), "{text}");
        }
    }

    #[test]
    fn llr_grows_with_evidence_for_the_stronger_side() {
        let mut previous = 0.0;
        for n in [10, 20, 40, 80] {
            let value = llr([0, n / 10, n / 5, n / 2, n / 5], 0.0, 5.0);
            assert!(value > previous, "{n}: {value} <= {previous}");
            previous = value;
        }
        assert!(llr([20, 50, 20, 10, 0], 0.0, 5.0) < -1.0);
    }
}
