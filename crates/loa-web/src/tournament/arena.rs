//! Arena: players paired again as soon as they finish.

use super::{GameResult, PlayerId};
use std::collections::{BTreeMap, HashMap};

/// How long two players who have met in each of their last two games wait for someone
/// else before they meet a third time running, while another game of the arena may yet
/// free one.
pub const REMATCH_AFTER_MS: i64 = 30_000;

/// A player waiting for a game in an arena.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting {
    pub id: PlayerId,
    pub points: u32,
    pub rating: f64,
    pub last_opponent: Option<PlayerId>,
    /// Games in a row against the last opponent, up to the last one.
    pub games_with_last: u32,
    /// Games with Black minus games with White so far.
    pub color_balance: i32,
    /// How long the player has been waiting.
    pub waited_ms: i64,
}

/// Pairs of the waiting players as (black, white), by arena points, then rating, each
/// with the best ranked player left whom neither has just met; else with the one they
/// just met, at once the first time (players are paired again as soon as they finish).
/// Two who have met in each of their last two games meet a third time running only when
/// nobody else can be had: no other game of the arena is going on (`others_playing`
/// false), or both have waited `REMATCH_AFTER_MS` for one to end, so that a small arena
/// is not split into matches. Some may be left to wait.
pub fn pair(waiting: &[Waiting], others_playing: bool) -> Vec<(PlayerId, PlayerId)> {
    let mut queue: Vec<&Waiting> = waiting.iter().collect();
    queue.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.rating.total_cmp(&a.rating))
            .then(a.id.cmp(&b.id))
    });
    let mut pairs = Vec::with_capacity(queue.len() / 2);
    let mut queue = std::collections::VecDeque::from(queue);
    while let Some(better) = queue.pop_front() {
        // Games running between the two, up to the last of either.
        let running = |a: &Waiting, b: &Waiting| {
            let of = |p: &Waiting, other: &Waiting| {
                if p.last_opponent == Some(other.id) {
                    p.games_with_last
                } else {
                    0
                }
            };
            of(a, b).max(of(b, a))
        };
        let due = |p: &Waiting| p.waited_ms >= REMATCH_AFTER_MS;
        let may_meet_again = |other: &Waiting| {
            running(better, other) < 2 || !others_playing || (due(better) && due(other))
        };
        let at = (queue.iter().position(|other| !just_met(better, other)))
            .or_else(|| queue.iter().position(|other| may_meet_again(other)));
        let Some(worse) = at.and_then(|at| queue.remove(at)) else {
            continue;
        };
        // White goes to whoever has had Black more often, the better ranked if even.
        if worse.color_balance > better.color_balance {
            pairs.push((better.id, worse.id));
        } else {
            pairs.push((worse.id, better.id));
        }
    }
    pairs
}

fn just_met(a: &Waiting, b: &Waiting) -> bool {
    a.last_opponent == Some(b.id) || b.last_opponent == Some(a.id)
}

/// An arena game, finished, in the order the games ended.
#[derive(Clone, Debug, PartialEq)]
pub struct ArenaGame {
    pub black: PlayerId,
    pub white: PlayerId,
    pub result: GameResult,
}

/// Each player's arena points from their finished games, in order.
pub fn points(games: &[ArenaGame]) -> BTreeMap<PlayerId, u32> {
    let mut points = BTreeMap::new();
    let mut wins_in_a_row: HashMap<PlayerId, u32> = HashMap::new();
    for game in games {
        let (black_points, white_points) = match game.result {
            GameResult::BlackWins => (2, 0),
            GameResult::WhiteWins => (0, 2),
            GameResult::Draw => (1, 1),
        };
        for (player, earned) in [(game.black, black_points), (game.white, white_points)] {
            let streak = wins_in_a_row.entry(player).or_insert(0);
            // Two wins running set a player on fire: double points until they fail to win.
            let factor = if *streak >= 2 { 2 } else { 1 };
            *points.entry(player).or_insert(0) += earned * factor;
            *streak = if earned == 2 { *streak + 1 } else { 0 };
        }
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameResult::{BlackWins, Draw, WhiteWins};

    fn waiting(id: PlayerId, points: u32, rating: f64, color_balance: i32) -> Waiting {
        Waiting {
            id,
            points,
            rating,
            last_opponent: None,
            games_with_last: 0,
            color_balance,
            waited_ms: 0,
        }
    }

    fn after(mut player: Waiting, opponent: PlayerId) -> Waiting {
        player.last_opponent = Some(opponent);
        player.games_with_last = 1;
        player
    }

    #[test]
    fn neighbours_by_points_then_rating_then_id_are_paired() {
        let queue = [
            waiting(1, 5, 1500.0, 0),
            waiting(2, 7, 1400.0, 1),
            waiting(3, 5, 1600.0, -1),
            waiting(4, 5, 1600.0, 0),
            waiting(5, 0, 2000.0, 0),
        ];
        // Ranked 2, 3, 4, 1, 5: 2 has had Black more than 3, so has White; 4 and 1 are
        // even, so 4, ranked higher, has White; 5 waits.
        assert_eq!(pair(&queue, true), vec![(3, 2), (1, 4)]);
        assert!(pair(&queue[..1], false).is_empty());
        assert!(pair(&[], false).is_empty());
    }

    #[test]
    fn the_last_opponent_waits_for_the_next_player() {
        let queue = [
            after(waiting(1, 4, 1500.0, 0), 2),
            after(waiting(2, 3, 1500.0, 0), 1),
            waiting(3, 2, 1500.0, 0),
            waiting(4, 1, 1500.0, 0),
        ];
        assert_eq!(pair(&queue, true), vec![(3, 1), (4, 2)]);
        // With three waiting, the last opponent is left to wait.
        assert_eq!(pair(&queue[..3], true), vec![(3, 1)]);
    }

    #[test]
    fn each_meets_the_best_ranked_player_they_have_not_just_met() {
        // 1 has just played 2, and 3 has just played 1: 1 meets 4, and 2 meets 3.
        let queue = [
            after(waiting(1, 4, 1500.0, 0), 2),
            waiting(2, 3, 1500.0, 0),
            after(waiting(3, 2, 1500.0, 0), 1),
            waiting(4, 1, 1500.0, 0),
        ];
        assert_eq!(pair(&queue, true), vec![(4, 1), (3, 2)]);
    }

    #[test]
    fn two_who_met_twice_running_wait_for_another_while_a_game_may_free_one() {
        // 1 and 2 have just played each other (`games` in a row); 3 and 4 still play.
        let pair_of = |games_with_last, waited_ms| {
            [1, 2].map(|id| Waiting {
                games_with_last,
                waited_ms,
                ..after(waiting(id, 4, 1500.0, 0), 3 - id)
            })
        };
        // After one game they meet again at once.
        assert_eq!(pair(&pair_of(1, 0), true), vec![(2, 1)]);
        // After two in a row they wait for 3 or 4 to be free.
        assert!(pair(&pair_of(2, 0), true).is_empty());
        assert!(pair(&pair_of(2, REMATCH_AFTER_MS - 1), true).is_empty());
        // Nobody came in time: they meet again.
        assert_eq!(pair(&pair_of(2, REMATCH_AFTER_MS), true), vec![(2, 1)]);
        // Nobody else is playing, so nobody can come: they meet again at once.
        assert_eq!(pair(&pair_of(5, 0), false), vec![(2, 1)]);
        // One who waited long enough and one who did not: the rematch waits.
        let mut two = pair_of(2, REMATCH_AFTER_MS);
        two[1].waited_ms = 10;
        assert!(pair(&two, true).is_empty());
        // 1's last two were with 2, but 3's last was with 1 once: 1 meets 3 at once.
        let three = [
            pair_of(2, 0)[0].clone(),
            pair_of(2, 0)[1].clone(),
            Waiting {
                games_with_last: 1,
                ..after(waiting(3, 1, 1500.0, 0), 1)
            },
        ];
        assert_eq!(pair(&three, true), vec![(3, 1)]);
    }

    fn game(black: PlayerId, white: PlayerId, result: GameResult) -> ArenaGame {
        ArenaGame {
            black,
            white,
            result,
        }
    }

    #[test]
    fn two_wins_running_double_the_points_until_a_game_is_not_won() {
        let games = [
            game(1, 2, BlackWins), // 1: 2
            game(3, 1, WhiteWins), // 1: 2, now on fire
            game(1, 2, BlackWins), // 1: 4
            game(1, 3, Draw),      // 1: 2, fire out; 3: 1
            game(2, 3, BlackWins), // 2: 2
            game(2, 1, BlackWins), // 2: 2, now on fire; 1: 0
            game(2, 3, Draw),      // 2: 2, fire out; 3: 1
            game(1, 3, BlackWins), // 1: 2
        ];
        let expected: BTreeMap<PlayerId, u32> = [(1, 12), (2, 6), (3, 2)].into();
        assert_eq!(points(&games), expected);
    }

    #[test]
    fn a_streak_stays_on_fire_while_the_wins_go_on() {
        let games = [
            game(1, 2, BlackWins),
            game(3, 1, WhiteWins),
            game(1, 2, BlackWins),
            game(3, 1, WhiteWins),
            game(1, 3, WhiteWins),
            game(1, 2, BlackWins),
        ];
        // 1: 2 + 2 + 4 + 4 + 0 + 2.
        let expected: BTreeMap<PlayerId, u32> = [(1, 14), (2, 0), (3, 2)].into();
        assert_eq!(points(&games), expected);
    }
}
