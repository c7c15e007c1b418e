//! Who plays whom, in which order: head to head, a gauntlet (the first engine against
//! each of the others) or a round robin (everyone against everyone). A round is one
//! opening played twice by every pairing, the colours swapped.

/// The form of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchFormat {
    HeadToHead,
    Gauntlet,
    RoundRobin,
}

impl MatchFormat {
    pub fn name(self) -> &'static str {
        match self {
            MatchFormat::HeadToHead => "head to head",
            MatchFormat::Gauntlet => "gauntlet",
            MatchFormat::RoundRobin => "round robin",
        }
    }

    /// The pairings of `engines` engines, each as `(first, second)` indices.
    pub fn pairings(self, engines: usize) -> Vec<(usize, usize)> {
        match self {
            MatchFormat::HeadToHead => vec![(0, 1)],
            MatchFormat::Gauntlet => (1..engines).map(|i| (0, i)).collect(),
            MatchFormat::RoundRobin => (0..engines)
                .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
                .collect(),
        }
    }
}

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixture {
    /// Games are numbered from 0 in the order they are handed out.
    pub number: u64,
    /// The round (from 0): which opening.
    pub round: u64,
    /// Index into the pairings.
    pub pairing: usize,
    /// `false` for the game in which the pairing's first engine is Black.
    pub swapped: bool,
    pub black: usize,
    pub white: usize,
}

/// Hands out the games in order: round by round, pairing by pairing, each opening
/// first with the pairing's first engine as Black, then with the colours swapped.
#[derive(Clone, Debug)]
pub struct Schedule {
    pairings: Vec<(usize, usize)>,
    /// Games per pairing; `None` for no end (an SPRT decides).
    games_per_pairing: Option<u64>,
    /// The next slot (round * 2 * pairings + pairing * 2 + game).
    slot: u64,
    handed_out: u64,
}

impl Schedule {
    pub fn new(pairings: Vec<(usize, usize)>, games_per_pairing: Option<u64>) -> Schedule {
        assert!(!pairings.is_empty());
        Schedule {
            pairings,
            games_per_pairing,
            slot: 0,
            handed_out: 0,
        }
    }

    /// All games, if the number is known.
    pub fn total(&self) -> Option<u64> {
        self.games_per_pairing
            .map(|g| g * self.pairings.len() as u64)
    }

    pub fn pairings(&self) -> &[(usize, usize)] {
        &self.pairings
    }

    pub fn next_fixture(&mut self) -> Option<Fixture> {
        let per_round = 2 * self.pairings.len() as u64;
        loop {
            let slot = self.slot;
            let round = slot / per_round;
            let pairing = ((slot % per_round) / 2) as usize;
            let game = slot % 2;
            if let Some(limit) = self.games_per_pairing {
                if 2 * round >= limit {
                    return None;
                }
                if 2 * round + game >= limit {
                    // An odd number of games: the last opening is played once.
                    self.slot += 1;
                    continue;
                }
            }
            self.slot += 1;
            let (a, b) = self.pairings[pairing];
            let swapped = game == 1;
            let (black, white) = if swapped { (b, a) } else { (a, b) };
            let number = self.handed_out;
            self.handed_out += 1;
            return Some(Fixture {
                number,
                round,
                pairing,
                swapped,
                black,
                white,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_of_each_format() {
        assert_eq!(MatchFormat::HeadToHead.pairings(2), [(0, 1)]);
        assert_eq!(MatchFormat::Gauntlet.pairings(4), [(0, 1), (0, 2), (0, 3)]);
        assert_eq!(
            MatchFormat::RoundRobin.pairings(4),
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
    }

    #[test]
    fn games_come_in_colour_swapped_pairs_round_by_round() {
        let mut schedule = Schedule::new(vec![(0, 1), (0, 2)], Some(3));
        assert_eq!(schedule.total(), Some(6));
        let fixtures: Vec<Fixture> = std::iter::from_fn(|| schedule.next_fixture()).collect();
        let summary: Vec<(u64, u64, usize, usize, usize)> = fixtures
            .iter()
            .map(|j| (j.number, j.round, j.pairing, j.black, j.white))
            .collect();
        assert_eq!(
            summary,
            [
                (0, 0, 0, 0, 1),
                (1, 0, 0, 1, 0),
                (2, 0, 1, 0, 2),
                (3, 0, 1, 2, 0),
                (4, 1, 0, 0, 1),
                (5, 1, 1, 0, 2),
            ]
        );
        let mut endless = Schedule::new(vec![(0, 1)], None);
        for _ in 0..1000 {
            assert!(endless.next_fixture().is_some());
        }
    }
}
