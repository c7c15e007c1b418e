//! Match statistics as pure functions: win/draw/loss and pentanomial (game pair) counts,
//! Elo with its 95% error, normalized Elo, LOS and draw ratio.
//!
//! A game pair is the same opening played twice with the colours swapped. Its score for
//! one engine is 0, 0.5, 1, 1.5 or 2 points, so the pentanomial counts are
//! `[LL, LD, WL+DD, WD, WW]`. The Elo estimate treats the pair as the unit of sampling,
//! as fastchess and OpenBench do: the mean pair score (per game, in 0..1) and its
//! variance give the error bars; the normalized Elo divides the score's distance from
//! 0.5 by the per-game standard deviation (`sqrt(2 * pair variance)`).

/// The 97.5% quantile of the standard normal distribution (a two-sided 95% interval).
pub const Z95: f64 = 1.959_963_984_540_054;

/// `800 / ln 10`: normalized Elo per unit of t-value.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The result of one game for one engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameScore {
    Loss,
    Draw,
    Win,
}

impl GameScore {
    pub fn flip(self) -> GameScore {
        match self {
            GameScore::Loss => GameScore::Win,
            GameScore::Draw => GameScore::Draw,
            GameScore::Win => GameScore::Loss,
        }
    }
}

/// Wins, draws and losses of one engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn add(&mut self, score: GameScore) {
        match score {
            GameScore::Win => self.wins += 1,
            GameScore::Draw => self.draws += 1,
            GameScore::Loss => self.losses += 1,
        }
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The share of draws (0 with no games).
    pub fn draw_ratio(&self) -> f64 {
        ratio(self.draws, self.games())
    }
}

/// Game pairs of one engine, by the points it scored in the pair. A pair with a win
/// and a loss (`wl`) and one with two draws (`dd`) both score one point; they are
/// kept apart for the report and added up for the statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub ll: u64,
    pub ld: u64,
    pub wl: u64,
    pub dd: u64,
    pub wd: u64,
    pub ww: u64,
}

impl Pentanomial {
    pub fn add(&mut self, first: GameScore, second: GameScore) {
        use GameScore::*;
        match (first, second) {
            (Loss, Loss) => self.ll += 1,
            (Loss, Draw) | (Draw, Loss) => self.ld += 1,
            (Win, Loss) | (Loss, Win) => self.wl += 1,
            (Draw, Draw) => self.dd += 1,
            (Win, Draw) | (Draw, Win) => self.wd += 1,
            (Win, Win) => self.ww += 1,
        }
    }

    pub fn pairs(&self) -> u64 {
        self.ll + self.ld + self.wl + self.dd + self.wd + self.ww
    }

    /// `[LL, LD, WL+DD, WD, WW]`: pairs scoring 0, 0.5, 1, 1.5 and 2 points.
    pub fn counts(&self) -> [u64; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }
}

/// An Elo estimate with its 95% error bars.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Mean score per game, 0..1.
    pub score: f64,
    /// Logistic Elo difference.
    pub elo: f64,
    /// Half the width of the 95% interval, in Elo.
    pub elo_error: f64,
    /// Normalized Elo (the score's distance from 0.5 in per-game standard deviations,
    /// times 800 / ln 10).
    pub nelo: f64,
    pub nelo_error: f64,
    /// Likelihood of superiority: the probability that the true score is above 0.5.
    pub los: f64,
}

/// The logistic Elo difference of a mean score (`±inf` at 0 and 1).
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The estimate from counts of outcomes worth `values` points (per game, 0..1), where
/// each counted unit is made of `games_per_unit` games (1 for single games, 2 for pairs).
pub fn estimate(values: &[f64], counts: &[u64], games_per_unit: f64) -> Option<Estimate> {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let mean = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| v * c as f64)
        .sum::<f64>()
        / n;
    let variance = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| c as f64 * (v - mean).powi(2))
        .sum::<f64>()
        / n;
    let std_error = (variance / n).sqrt();
    let (elo_error, nelo, nelo_error, los);
    if variance > 0.0 {
        let hi = mean + Z95 * std_error;
        let lo = mean - Z95 * std_error;
        elo_error = (elo_from_score(hi) - elo_from_score(lo)) / 2.0;
        let per_game_sd = (games_per_unit * variance).sqrt();
        nelo = (mean - 0.5) / per_game_sd * NELO_PER_T;
        nelo_error = Z95 * std_error / per_game_sd * NELO_PER_T;
        los = normal_cdf((mean - 0.5) / std_error);
    } else {
        // Every unit scored the same: no spread to measure.
        elo_error = 0.0;
        nelo = if mean == 0.5 {
            0.0
        } else {
            (mean - 0.5).signum() * f64::INFINITY
        };
        nelo_error = 0.0;
        los = if mean > 0.5 {
            1.0
        } else if mean < 0.5 {
            0.0
        } else {
            0.5
        };
    }
    Some(Estimate {
        score: mean,
        elo: elo_from_score(mean),
        elo_error,
        nelo,
        nelo_error,
        los,
    })
}

/// The estimate from game pairs (the pentanomial model).
pub fn pentanomial_estimate(penta: &Pentanomial) -> Option<Estimate> {
    estimate(&[0.0, 0.25, 0.5, 0.75, 1.0], &penta.counts(), 2.0)
}

/// The estimate from single games (the trinomial model), for tables where games do
/// not come in pairs.
pub fn trinomial_estimate(wdl: &Wdl) -> Option<Estimate> {
    estimate(&[0.0, 0.5, 1.0], &[wdl.losses, wdl.draws, wdl.wins], 1.0)
}

/// The standard normal distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function, with a fractional error below 1.2e-7 everywhere
/// (the Chebyshev fit of Numerical Recipes, `erfcc`).
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * (-z * z + poly).exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

fn ratio(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// A number of Elo for a report: one decimal, `+inf`/`-inf` for a clean sweep.
pub fn fmt_elo(x: f64) -> String {
    if x.is_nan() {
        "n/a".to_string()
    } else if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // A difference that rounds to nothing has no sign: `0.0`, not `-0.0`.
        let rounded = (x * 10.0).round() / 10.0;
        format!("{:.1}", rounded + 0.0)
    }
}

/// An error bar for a report: one decimal, `inf` when a bound is a clean sweep.
pub fn fmt_error(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else {
        "inf".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    // Reference values: the textbook formulas evaluated by scripts/match_stats_reference.py
    // (plain Python, math.erfc for the normal distribution), independent of this code:
    //   mu = sum(a_i n_i)/N, var = sum(n_i (a_i-mu)^2)/N, se = sqrt(var/N),
    //   elo(s) = -400 log10(1/s - 1), error = (elo(mu + 1.96 se) - elo(mu - 1.96 se))/2,
    //   nelo = (mu - 0.5)/sqrt(2 var) * 800/ln 10, LOS = Phi((mu - 0.5)/se).
    #[test]
    fn pentanomial_elo_matches_hand_computed_values() {
        // [LL, LD, WL+DD, WD, WW] = [10, 20, 30, 25, 15]: 100 pairs.
        let penta = Pentanomial {
            ll: 10,
            ld: 20,
            wl: 12,
            dd: 18,
            wd: 25,
            ww: 15,
        };
        let e = pentanomial_estimate(&penta).unwrap();
        assert!(close(e.score, 0.5375, 1e-12));
        assert!(close(e.elo, 26.1066926050, 1e-6), "{}", e.elo);
        assert!(close(e.elo_error, 41.1040120597, 1e-6), "{}", e.elo_error);
        assert!(close(e.nelo, 30.8434181029, 1e-6), "{}", e.nelo);
        assert!(close(e.nelo_error, 48.1512306691, 1e-6), "{}", e.nelo_error);
        assert!(close(e.los, 0.8953442579, 1e-6), "{}", e.los);

        // [1, 3, 6, 4, 2]: 16 pairs.
        let penta = Pentanomial {
            ll: 1,
            ld: 3,
            wl: 0,
            dd: 6,
            wd: 4,
            ww: 2,
        };
        let e = pentanomial_estimate(&penta).unwrap();
        assert!(close(e.score, 0.546875, 1e-12));
        assert!(close(e.elo, 32.6680185805, 1e-6), "{}", e.elo);
        assert!(close(e.elo_error, 94.5098980670, 1e-6), "{}", e.elo_error);
        assert!(close(e.nelo, 42.9110900838, 1e-6), "{}", e.nelo);
        assert!(
            close(e.nelo_error, 120.3780766727, 1e-6),
            "{}",
            e.nelo_error
        );
        assert!(close(e.los, 0.7576199228, 1e-6), "{}", e.los);
    }

    #[test]
    fn trinomial_elo_matches_hand_computed_values() {
        // 40 wins, 30 draws, 30 losses.
        let wdl = Wdl {
            wins: 40,
            draws: 30,
            losses: 30,
        };
        let e = trinomial_estimate(&wdl).unwrap();
        assert!(close(e.score, 0.55, 1e-12));
        assert!(close(e.elo, 34.8600702876, 1e-6), "{}", e.elo);
        assert!(close(e.elo_error, 57.6761703882, 1e-6), "{}", e.elo_error);
        assert!(close(e.nelo, 41.8263293555, 1e-6), "{}", e.nelo);
        assert!(close(e.los, 0.8856778688, 1e-6), "{}", e.los);
        assert!(close(wdl.draw_ratio(), 0.3, 1e-12));
    }

    #[test]
    fn edge_cases() {
        assert_eq!(pentanomial_estimate(&Pentanomial::default()), None);
        let sweep = Pentanomial {
            ww: 8,
            ..Pentanomial::default()
        };
        let e = pentanomial_estimate(&sweep).unwrap();
        assert_eq!(e.elo, f64::INFINITY);
        assert_eq!(e.los, 1.0);
        assert_eq!(fmt_elo(e.elo), "+inf");
        // Nothing between them reads 0.0 whichever side of it the estimate fell.
        assert_eq!(fmt_elo(-0.04), "0.0");
        assert_eq!(fmt_elo(-0.05), "-0.1");
        assert_eq!(fmt_elo(12.34), "12.3");
        let even = Pentanomial {
            dd: 3,
            ..Pentanomial::default()
        };
        let e = pentanomial_estimate(&even).unwrap();
        assert_eq!((e.elo, e.nelo, e.los), (0.0, 0.0, 0.5));
        assert!(close(elo_from_score(0.75), 400.0 * 3f64.log10(), 1e-9));
    }

    #[test]
    fn pairs_are_classified() {
        use GameScore::*;
        let mut p = Pentanomial::default();
        p.add(Win, Loss);
        p.add(Draw, Draw);
        p.add(Win, Draw);
        p.add(Loss, Loss);
        assert_eq!(p.counts(), [1, 0, 2, 1, 0]);
        assert_eq!((p.wl, p.dd), (1, 1));
        assert_eq!(p.pairs(), 4);
    }

    #[test]
    fn erfc_is_accurate() {
        // Values of erfc from tables.
        for (x, want) in [
            (0.0, 1.0),
            (0.5, 0.479_500_122_186_953_5),
            (1.0, 0.157_299_207_050_285_1),
            (2.0, 0.004_677_734_981_047_266),
            (-1.0, 1.842_700_792_949_715),
        ] {
            assert!(
                (erfc(x) - want).abs() <= 1.2e-7 * want.max(1e-300),
                "erfc({x}) = {} not {want}",
                erfc(x)
            );
        }
        assert!(close(normal_cdf(Z95), 0.975, 1e-7));
    }
}
