//! Standings and tie-breaks.

use super::{Board, Entrant, GameResult, PlayerId, Round};
use std::collections::HashMap;

/// A player's line in the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub id: PlayerId,
    pub points: f64,
    pub sonneborn_berger: f64,
    pub buchholz: f64,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub byes: u32,
}

/// Every entrant's standing, best first: points, then Sonneborn-Berger, then Buchholz,
/// then rating, then id.
pub fn standings(entrants: &[Entrant], rounds: &[Round]) -> Vec<Standing> {
    let points = points(rounds);
    let mut lines: HashMap<PlayerId, Standing> = entrants
        .iter()
        .map(|entrant| {
            let line = Standing {
                id: entrant.id,
                points: points.get(&entrant.id).copied().unwrap_or(0.0),
                sonneborn_berger: 0.0,
                buchholz: 0.0,
                wins: 0,
                draws: 0,
                losses: 0,
                byes: 0,
            };
            (entrant.id, line)
        })
        .collect();
    let final_points = |id: PlayerId| points.get(&id).copied().unwrap_or(0.0);
    for board in rounds.iter().flat_map(|round| &round.boards) {
        match *board {
            Board::Bye { player, .. } => {
                if let Some(line) = lines.get_mut(&player) {
                    line.byes += 1;
                }
            }
            Board::Game {
                black,
                white,
                result: Some(result),
                ..
            } => {
                for (me, opponent) in [(black, white), (white, black)] {
                    let Some(line) = lines.get_mut(&me) else {
                        continue;
                    };
                    let theirs = final_points(opponent);
                    line.buchholz += theirs;
                    match score(result, me == black) {
                        Score::Win => {
                            line.wins += 1;
                            line.sonneborn_berger += theirs;
                        }
                        Score::Draw => {
                            line.draws += 1;
                            line.sonneborn_berger += theirs / 2.0;
                        }
                        Score::Loss => line.losses += 1,
                    }
                }
            }
            // A game still being played has no result to count yet.
            Board::Game { result: None, .. } => {}
        }
    }
    let rating: HashMap<PlayerId, f64> = entrants.iter().map(|e| (e.id, e.rating)).collect();
    let mut table: Vec<Standing> = lines.into_values().collect();
    table.sort_by(|a, b| {
        b.points
            .total_cmp(&a.points)
            .then(b.sonneborn_berger.total_cmp(&a.sonneborn_berger))
            .then(b.buchholz.total_cmp(&a.buchholz))
            .then(rating[&b.id].total_cmp(&rating[&a.id]))
            .then(a.id.cmp(&b.id))
    });
    table
}

/// Each player's points from the rounds: a win 1, a draw a half, a bye its points; a game
/// without a result nothing. Players who only had unfinished games are absent.
pub fn points(rounds: &[Round]) -> HashMap<PlayerId, f64> {
    let mut points = HashMap::new();
    for board in rounds.iter().flat_map(|round| &round.boards) {
        match *board {
            Board::Bye {
                player,
                points: bye,
            } => *points.entry(player).or_insert(0.0) += bye,
            Board::Game {
                black,
                white,
                result: Some(result),
                ..
            } => {
                *points.entry(black).or_insert(0.0) += score(result, true).points();
                *points.entry(white).or_insert(0.0) += score(result, false).points();
            }
            Board::Game { result: None, .. } => {}
        }
    }
    points
}

/// A finished game from one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Score {
    Win,
    Draw,
    Loss,
}

impl Score {
    fn points(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Draw => 0.5,
            Score::Loss => 0.0,
        }
    }
}

fn score(result: GameResult, as_black: bool) -> Score {
    match (result, as_black) {
        (GameResult::Draw, _) => Score::Draw,
        (GameResult::BlackWins, true) | (GameResult::WhiteWins, false) => Score::Win,
        _ => Score::Loss,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameResult::{BlackWins, Draw, WhiteWins};

    fn entrant(id: PlayerId, rating: f64) -> Entrant {
        Entrant {
            id,
            rating,
            active: true,
        }
    }

    fn played(black: PlayerId, white: PlayerId, result: GameResult) -> Board {
        Board::Game {
            black,
            white,
            result: Some(result),
            forfeit: false,
        }
    }

    fn round(number: u32, boards: Vec<Board>) -> Round {
        Round { number, boards }
    }

    /// (id, points, Sonneborn-Berger, Buchholz, wins, draws, losses, byes) of each line.
    type Line = (PlayerId, f64, f64, f64, u32, u32, u32, u32);

    fn lines(table: &[Standing]) -> Vec<Line> {
        table
            .iter()
            .map(|s| {
                let Standing {
                    id,
                    points,
                    sonneborn_berger,
                    buchholz,
                    wins,
                    draws,
                    losses,
                    byes,
                } = *s;
                (
                    id,
                    points,
                    sonneborn_berger,
                    buchholz,
                    wins,
                    draws,
                    losses,
                    byes,
                )
            })
            .collect()
    }

    #[test]
    fn sonneborn_berger_breaks_a_tie_on_points() {
        // A four-player round robin. 1 and 2 both score 1.5; 1 beat 3 (2 points) and
        // drew 2 (1.5), 2 beat 4 (1 point) and drew 1 (1.5).
        let entrants = [
            entrant(1, 1500.0),
            entrant(2, 1900.0),
            entrant(3, 1700.0),
            entrant(4, 1600.0),
        ];
        let rounds = [
            round(1, vec![played(1, 4, WhiteWins), played(2, 3, WhiteWins)]),
            round(2, vec![played(4, 3, WhiteWins), played(1, 2, Draw)]),
            round(3, vec![played(2, 4, BlackWins), played(3, 1, WhiteWins)]),
        ];
        assert_eq!(
            lines(&standings(&entrants, &rounds)),
            vec![
                (3, 2.0, 2.5, 4.0, 2, 0, 1, 0),
                (1, 1.5, 2.75, 4.5, 1, 1, 1, 0),
                (2, 1.5, 1.75, 4.5, 1, 1, 1, 0),
                (4, 1.0, 1.5, 5.0, 1, 0, 2, 0),
            ]
        );
    }

    #[test]
    fn buchholz_breaks_a_tie_on_sonneborn_berger_then_rating_decides() {
        // Two Swiss rounds of six. 60, 10 and 20 score 1; 60 beat 20 (SB 1), while 10
        // and 20 each beat a half-pointer (SB 0.5) and lost to 40 (2) and 60 (1): their
        // Buchholz is 0.5 + 2 and 0.5 + 1. 50 and 30 tie on everything but rating.
        let entrants = [
            entrant(10, 1700.0),
            entrant(20, 1800.0),
            entrant(30, 1500.0),
            entrant(40, 1400.0),
            entrant(50, 1600.0),
            entrant(60, 1900.0),
        ];
        let rounds = [
            round(
                1,
                vec![
                    played(10, 30, BlackWins),
                    played(50, 20, WhiteWins),
                    played(40, 60, BlackWins),
                ],
            ),
            round(
                2,
                vec![
                    played(10, 40, WhiteWins),
                    played(60, 20, BlackWins),
                    played(30, 50, Draw),
                ],
            ),
        ];
        assert_eq!(
            lines(&standings(&entrants, &rounds)),
            vec![
                (40, 2.0, 2.0, 2.0, 2, 0, 0, 0),
                (60, 1.0, 1.0, 3.0, 1, 0, 1, 0),
                (10, 1.0, 0.5, 2.5, 1, 0, 1, 0),
                (20, 1.0, 0.5, 1.5, 1, 0, 1, 0),
                (50, 0.5, 0.25, 1.5, 0, 1, 1, 0),
                (30, 0.5, 0.25, 1.5, 0, 1, 1, 0),
            ]
        );
    }

    #[test]
    fn byes_forfeits_unfinished_games_and_withdrawn_players() {
        // 3 withdrew after losing round 1 by forfeit; 4 has a bye in round 1 and a game
        // still going in round 2.
        let mut entrants = vec![
            entrant(1, 1500.0),
            entrant(2, 1500.0),
            entrant(3, 2000.0),
            entrant(4, 1500.0),
        ];
        entrants[2].active = false;
        let rounds = [
            round(
                1,
                vec![
                    Board::Game {
                        black: 3,
                        white: 1,
                        result: Some(WhiteWins),
                        forfeit: true,
                    },
                    Board::bye(4),
                    Board::Bye {
                        player: 2,
                        points: 0.5,
                    },
                ],
            ),
            round(2, vec![played(1, 2, Draw), Board::game(4, 3)]),
        ];
        assert_eq!(
            lines(&standings(&entrants, &rounds)),
            vec![
                // 1: beat 3 (0 points) and drew 2 (1 point).
                (1, 1.5, 0.5, 1.0, 1, 1, 0, 0),
                // 2: half a point of bye, drew 1 (1.5 points).
                (2, 1.0, 0.75, 1.5, 0, 1, 0, 1),
                (4, 1.0, 0.0, 0.0, 0, 0, 0, 1),
                (3, 0.0, 0.0, 1.5, 0, 0, 1, 0),
            ]
        );
    }

    #[test]
    fn equal_in_everything_the_lower_id_comes_first() {
        let entrants = [entrant(7, 1500.0), entrant(5, 1500.0)];
        let rounds = [round(1, vec![played(7, 5, Draw)])];
        let order: Vec<PlayerId> = standings(&entrants, &rounds).iter().map(|s| s.id).collect();
        assert_eq!(order, vec![5, 7]);
        assert!(standings(&[], &rounds).is_empty());
    }
}
