//! The running tally of a match: results per pairing (games and completed game pairs),
//! per engine, per colour, and why games ended.

use super::referee::GameResult;
use super::schedule::Fixture;
use super::stats::{GameScore, Pentanomial, Wdl};
use loa_core::Color;
use std::collections::{BTreeMap, HashMap};

/// One pairing's results, from its first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct PairingTally {
    pub first: usize,
    pub second: usize,
    pub wdl: Wdl,
    pub penta: Pentanomial,
    /// The first game of a pair whose second game has not come in, by round.
    open: HashMap<u64, GameScore>,
}

/// Everything counted so far.
#[derive(Clone, Debug)]
pub struct Standings {
    pub names: Vec<String>,
    pub pairings: Vec<PairingTally>,
    /// Per engine, against everyone.
    pub engines: Vec<Wdl>,
    /// From Black's (the first player's) point of view.
    pub black: Wdl,
    /// Games by how they ended.
    pub terminations: BTreeMap<&'static str, u64>,
    /// Per engine: games it lost by failing, by kind.
    pub failures: Vec<BTreeMap<&'static str, u64>>,
    pub games: u64,
    pub plies: u64,
}

impl Standings {
    pub fn new(names: Vec<String>, pairings: &[(usize, usize)]) -> Standings {
        let n = names.len();
        Standings {
            names,
            pairings: pairings
                .iter()
                .map(|&(first, second)| PairingTally {
                    first,
                    second,
                    ..PairingTally::default()
                })
                .collect(),
            engines: vec![Wdl::default(); n],
            black: Wdl::default(),
            terminations: BTreeMap::new(),
            failures: vec![BTreeMap::new(); n],
            games: 0,
            plies: 0,
        }
    }

    /// Counts a finished game; `true` if it completed a game pair.
    pub fn record(&mut self, fixture: &Fixture, result: &GameResult) -> bool {
        let black_score = match result.winner {
            Some(Color::Black) => GameScore::Win,
            Some(Color::White) => GameScore::Loss,
            None => GameScore::Draw,
        };
        self.games += 1;
        self.plies += result.game.ply() as u64;
        self.black.add(black_score);
        self.engines[fixture.black].add(black_score);
        self.engines[fixture.white].add(black_score.flip());
        *self
            .terminations
            .entry(result.termination.category())
            .or_default() += 1;
        if result.termination.is_failure() {
            if let Some(winner) = result.winner {
                let loser = if winner == Color::Black {
                    fixture.white
                } else {
                    fixture.black
                };
                *self.failures[loser]
                    .entry(result.termination.category())
                    .or_default() += 1;
            }
        }
        let tally = &mut self.pairings[fixture.pairing];
        let first_score = if fixture.black == tally.first {
            black_score
        } else {
            black_score.flip()
        };
        tally.wdl.add(first_score);
        match tally.open.remove(&fixture.round) {
            Some(other) => {
                tally.penta.add(other, first_score);
                true
            }
            None => {
                tally.open.insert(fixture.round, first_score);
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::Termination;
    use loa_core::{Game, Position, Reason, RuleSet};

    fn result(winner: Option<Color>, termination: Termination) -> GameResult {
        GameResult {
            game: Game::new(Position::startpos().into(), RuleSet::Draw),
            winner,
            termination,
        }
    }

    fn fixture(round: u64, swapped: bool) -> Fixture {
        let (black, white) = if swapped { (1, 0) } else { (0, 1) };
        Fixture {
            number: round * 2 + u64::from(swapped),
            round,
            pairing: 0,
            swapped,
            black,
            white,
        }
    }

    #[test]
    fn pairs_complete_in_any_order_and_count_from_the_first_engine() {
        let mut s = Standings::new(vec!["a".into(), "b".into()], &[(0, 1)]);
        let connection = Termination::Rules(Reason::Connection);
        // Round 0: a wins as Black, then a wins as White (Black loses).
        assert!(!s.record(
            &fixture(0, false),
            &result(Some(Color::Black), connection.clone())
        ));
        // Round 1's second game comes in before its first.
        assert!(!s.record(
            &fixture(1, true),
            &result(None, Termination::Rules(Reason::Repetition))
        ));
        assert!(s.record(
            &fixture(0, true),
            &result(Some(Color::White), connection.clone())
        ));
        let crash = Termination::Crash {
            how: "exited with code 3".into(),
        };
        // Round 1's first game: a, Black, crashes and loses.
        assert!(s.record(&fixture(1, false), &result(Some(Color::White), crash)));
        let t = &s.pairings[0];
        assert_eq!((t.wdl.wins, t.wdl.draws, t.wdl.losses), (2, 1, 1));
        assert_eq!(t.penta.counts(), [0, 1, 0, 0, 1]);
        assert_eq!(s.engines[1].wins, 1);
        assert_eq!(s.failures[0].get("crash"), Some(&1));
        assert_eq!(s.terminations.get("connection"), Some(&2));
        assert_eq!(s.black.wins, 1);
    }
}
