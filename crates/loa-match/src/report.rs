//! What the match prints: a line per game, a status line, and the final report (W/L/D,
//! pentanomial counts, Elo and normalized Elo with 95% errors, LOS, draw ratio, the
//! SPRT, and tables per engine and per pairing when there are more than two engines).

use super::referee::GameResult;
use super::schedule::Fixture;
use super::sprt::{Decision, Sprt};
use super::standings::{PairingTally, Standings};
use super::stats::{fmt_elo, fmt_error, pentanomial_estimate, trinomial_estimate, Wdl};
use loa_core::Color;
use std::fmt::Write as _;
use std::time::Duration;

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug)]
pub struct SprtState {
    pub sprt: Sprt,
    pub llr: f64,
    pub decision: Decision,
}

impl SprtState {
    pub fn describe(&self) -> String {
        let (lower, upper) = self.sprt.bounds();
        let verdict = match self.decision {
            Decision::Continue => "continue",
            Decision::AcceptH0 => "H0 accepted",
            Decision::AcceptH1 => "H1 accepted",
        };
        format!("LLR {:.2} ({lower:.2}, {upper:.2}) {verdict}", self.llr)
    }
}

/// `game 12: d4 (Black) vs d1 (White) 1-0, connection`.
pub fn game_line(fixture: &Fixture, names: &[String], result: &GameResult) -> String {
    let score = match result.winner {
        Some(Color::Black) => "1-0",
        Some(Color::White) => "0-1",
        None => "1/2-1/2",
    };
    format!(
        "game {}: {} (Black) vs {} (White) {score}, {}",
        fixture.number + 1,
        names[fixture.black],
        names[fixture.white],
        result.termination
    )
}

/// One line on where the match stands.
pub fn status_line(standings: &Standings, sprt: Option<&SprtState>) -> String {
    if standings.pairings.len() == 1 {
        let tally = &standings.pairings[0];
        let mut line = format!(
            "{} vs {}: {}-{}-{}",
            standings.names[tally.first],
            standings.names[tally.second],
            tally.wdl.wins,
            tally.wdl.losses,
            tally.wdl.draws
        );
        if let Some(e) = pentanomial_estimate(&tally.penta) {
            let _ = write!(
                line,
                ", Elo {} +/- {}",
                fmt_elo(e.elo),
                fmt_error(e.elo_error)
            );
        }
        if let Some(state) = sprt {
            let _ = write!(line, ", {}", state.describe());
        }
        return line;
    }
    // The leader by score.
    let (best, wdl) = standings
        .engines
        .iter()
        .enumerate()
        .max_by(|a, b| score_share(a.1).total_cmp(&score_share(b.1)))
        .expect("engines");
    format!(
        "{} games, leader {} {:.1}/{}",
        standings.games,
        standings.names[best],
        wdl.points(),
        wdl.games()
    )
}

fn score_share(wdl: &Wdl) -> f64 {
    if wdl.games() == 0 {
        0.0
    } else {
        wdl.points() / wdl.games() as f64
    }
}

/// Facts about the match for the head of the report.
pub struct Heading {
    pub format: &'static str,
    pub limits: Vec<String>,
    pub openings: String,
    pub rules: String,
    pub variant: String,
    pub seed: u64,
    pub concurrency: usize,
}

/// The final report.
pub fn final_report(
    heading: &Heading,
    standings: &Standings,
    sprt: Option<&SprtState>,
    elapsed: Duration,
    abandoned: u64,
) -> String {
    let mut out = String::new();
    let names = &standings.names;
    let _ = writeln!(
        out,
        "Match: {} of {} engines, {}, {}, rules {}, seed {}, concurrency {}",
        heading.format,
        names.len(),
        heading.variant,
        heading.openings,
        heading.rules,
        heading.seed,
        heading.concurrency
    );
    for (name, limits) in names.iter().zip(&heading.limits) {
        let _ = writeln!(out, "  {name}: {limits}");
    }
    out.push('\n');
    if standings.pairings.len() == 1 {
        pairing_block(&mut out, standings, &standings.pairings[0], sprt);
    } else {
        engine_table(&mut out, standings);
        out.push('\n');
        for tally in &standings.pairings {
            pairing_block(&mut out, standings, tally, None);
            out.push('\n');
        }
    }
    let b = &standings.black;
    let _ = writeln!(
        out,
        "Black (first player): {}-{}-{} (wins-losses-draws), score {}",
        b.wins,
        b.losses,
        b.draws,
        percent(b.points(), b.games())
    );
    let terminations: Vec<String> = standings
        .terminations
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    let _ = writeln!(out, "Terminations: {}", join_or_none(&terminations));
    let failures: Vec<String> = names
        .iter()
        .zip(&standings.failures)
        .filter(|(_, f)| !f.is_empty())
        .map(|(name, f)| {
            let kinds: Vec<String> = f.iter().map(|(k, v)| format!("{k} {v}")).collect();
            format!("{name}: {}", kinds.join(", "))
        })
        .collect();
    let _ = writeln!(out, "Engine failures: {}", join_or_none(&failures));
    let seconds = elapsed.as_secs_f64();
    let rate = if seconds > 0.0 {
        standings.games as f64 / seconds
    } else {
        0.0
    };
    let mean_plies = if standings.games > 0 {
        standings.plies as f64 / standings.games as f64
    } else {
        0.0
    };
    let _ = write!(
        out,
        "Played {} games in {seconds:.1} s ({rate:.1} games/s), {mean_plies:.1} moves a game",
        standings.games
    );
    if abandoned > 0 {
        let _ = write!(
            out,
            "; {} in progress at the stop were dropped",
            loa_core::counted(abandoned, "game")
        );
    }
    out.push('\n');
    out
}

fn join_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "none".to_string()
    } else {
        items.join(", ")
    }
}

fn percent(points: f64, games: u64) -> String {
    if games == 0 {
        "-".to_string()
    } else {
        format!("{:.2} %", 100.0 * points / games as f64)
    }
}

/// The results of one pairing, from its first engine's point of view.
fn pairing_block(
    out: &mut String,
    standings: &Standings,
    tally: &PairingTally,
    sprt: Option<&SprtState>,
) {
    let (a, b) = (
        &standings.names[tally.first],
        &standings.names[tally.second],
    );
    let w = &tally.wdl;
    let _ = writeln!(out, "Results of {a} vs {b}:");
    let _ = writeln!(
        out,
        "  Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({})",
        w.games(),
        w.wins,
        w.losses,
        w.draws,
        w.points(),
        percent(w.points(), w.games())
    );
    let p = &tally.penta;
    let c = p.counts();
    let _ = writeln!(
        out,
        "  Ptnml(0-2): [{}, {}, {}, {}, {}], WL/DD: {}/{} ({})",
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        p.wl,
        p.dd,
        loa_core::counted(p.pairs(), "pair")
    );
    match pentanomial_estimate(p) {
        Some(e) => {
            let _ = writeln!(
                out,
                "  Elo: {} +/- {}, nElo: {} +/- {} (95%, pentanomial)",
                fmt_elo(e.elo),
                fmt_error(e.elo_error),
                fmt_elo(e.nelo),
                fmt_error(e.nelo_error)
            );
            let _ = writeln!(
                out,
                "  LOS: {:.2} %, DrawRatio: {:.2} % of games, {:.2} % of pairs drawn both times",
                100.0 * e.los,
                100.0 * w.draw_ratio(),
                100.0 * p.dd as f64 / p.pairs() as f64
            );
        }
        None => {
            let _ = writeln!(
                out,
                "  Elo: no complete game pair yet; DrawRatio: {:.2} %",
                100.0 * w.draw_ratio()
            );
        }
    }
    if let Some(state) = sprt {
        let s = state.sprt;
        let _ = writeln!(
            out,
            "  SPRT: elo0 {}, elo1 {}, alpha {}, beta {} (normalized Elo): {}",
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta,
            state.describe()
        );
    }
}

/// Every engine against the field, best first.
fn engine_table(out: &mut String, standings: &Standings) {
    let mut order: Vec<usize> = (0..standings.names.len()).collect();
    order.sort_by(|&i, &j| {
        score_share(&standings.engines[j]).total_cmp(&score_share(&standings.engines[i]))
    });
    let width = standings
        .names
        .iter()
        .map(|n| n.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(
        out,
        "{:>4}  {:<width$}  {:>8}  {:>7}  {:>6}  {:>8}  {:>5}  {:>5}  {:>5}  {:>6}",
        "Rank", "Name", "Elo", "+/-", "Games", "Score", "W", "L", "D", "Draw%"
    );
    for (rank, &i) in order.iter().enumerate() {
        let w = &standings.engines[i];
        let (elo, err) = match trinomial_estimate(w) {
            Some(e) => (fmt_elo(e.elo), fmt_error(e.elo_error)),
            None => ("-".to_string(), "-".to_string()),
        };
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {:>8}  {:>7}  {:>6}  {:>8}  {:>5}  {:>5}  {:>5}  {:>6.1}",
            rank + 1,
            standings.names[i],
            elo,
            err,
            w.games(),
            percent(w.points(), w.games()),
            w.wins,
            w.losses,
            w.draws,
            100.0 * w.draw_ratio()
        );
    }
}
