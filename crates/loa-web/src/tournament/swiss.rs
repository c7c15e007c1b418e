//! Swiss pairing.

use super::standings::points;
use super::{Board, Entrant, PlayerId, Round};
use std::collections::{HashMap, HashSet};

/// The next round's boards among the active entrants, given the rounds played.
pub fn pair(entrants: &[Entrant], played: &[Round]) -> Vec<Board> {
    pair_ranked(&ranked_players(entrants, played))
}

/// The boards among players already in rank order.
fn pair_ranked(players: &[Player]) -> Vec<Board> {
    if players.is_empty() {
        return Vec::new();
    }
    let table = |rule: &dyn Fn(&Player, &Player) -> bool| -> Vec<Vec<bool>> {
        players
            .iter()
            .map(|p| players.iter().map(|q| rule(p, q)).collect())
            .collect()
    };
    let met = table(&|p, q| p.opponents.contains(&q.id));
    let strict = table(&|p, q| !p.opponents.contains(&q.id) && colours_fit(p, q));
    let no_rematch = table(&|p, q| !p.opponents.contains(&q.id));
    let everyone = table(&|_, _| true);

    let mut pool = Pool::new(players, &met);
    // The rules give way one at a time: colours first, then rematches, fewest first. With
    // as many rematches allowed as there are pairs, the first path pairs everyone.
    let found = pool
        .search(&strict, 0)
        .or_else(|| pool.search(&no_rematch, 0))
        .or_else(|| (1..=players.len() / 2).find_map(|limit| pool.search(&everyone, limit)))
        .expect("a pairing with every pair allowed");
    boards(players, found)
}

/// Nodes one stage of the search may visit before the rules are relaxed: far more than a
/// field that can be paired needs, small enough to give up quickly on one that cannot.
const NODE_BUDGET: u32 = 20_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Colour {
    Black,
    White,
}

/// What pairing knows of an active player.
#[derive(Debug)]
struct Player {
    id: PlayerId,
    points: f64,
    colours: Vec<Colour>,
    had_bye: bool,
    opponents: HashSet<PlayerId>,
}

impl Player {
    /// Games with Black minus games with White.
    fn balance(&self) -> i32 {
        self.colours
            .iter()
            .map(|&c| if c == Colour::Black { 1 } else { -1 })
            .sum()
    }

    /// Whether the colour rule lets this player have `colour` next: never the same colour
    /// three times running, and never more than two games' imbalance.
    fn may_take(&self, colour: Colour) -> bool {
        let step = if colour == Colour::Black { 1 } else { -1 };
        let twice_already = self.colours.len() >= 2
            && self.colours[self.colours.len() - 2..]
                .iter()
                .all(|&c| c == colour);
        (self.balance() + step).abs() <= 2 && !twice_already
    }
}

fn colours_fit(p: &Player, q: &Player) -> bool {
    (p.may_take(Colour::Black) && q.may_take(Colour::White))
        || (p.may_take(Colour::White) && q.may_take(Colour::Black))
}

/// The active entrants with their history, best ranked first.
fn ranked_players(entrants: &[Entrant], played: &[Round]) -> Vec<Player> {
    let scores = points(played);
    let mut rounds: Vec<&Round> = played.iter().collect();
    rounds.sort_by_key(|round| round.number);
    let mut history: HashMap<PlayerId, (Vec<Colour>, bool, HashSet<PlayerId>)> = HashMap::new();
    for board in rounds.iter().flat_map(|round| &round.boards) {
        match *board {
            Board::Game { black, white, .. } => {
                for (me, opponent, colour) in
                    [(black, white, Colour::Black), (white, black, Colour::White)]
                {
                    let (colours, _, opponents) = history.entry(me).or_default();
                    colours.push(colour);
                    opponents.insert(opponent);
                }
            }
            Board::Bye { player, .. } => history.entry(player).or_default().1 = true,
        }
    }
    let mut ranked: Vec<(&Entrant, Player)> = entrants
        .iter()
        .filter(|e| e.active)
        .map(|e| {
            let (colours, had_bye, opponents) = history.remove(&e.id).unwrap_or_default();
            let player = Player {
                id: e.id,
                points: scores.get(&e.id).copied().unwrap_or(0.0),
                colours,
                had_bye,
                opponents,
            };
            (e, player)
        })
        .collect();
    ranked.sort_by(|(a, p), (b, q)| {
        q.points
            .total_cmp(&p.points)
            .then(b.rating.total_cmp(&a.rating))
            .then(a.id.cmp(&b.id))
    });
    ranked.into_iter().map(|(_, player)| player).collect()
}

/// A pairing: pairs of rank indices (better first) and the rank index of the bye.
#[derive(Debug)]
struct Pairing {
    pairs: Vec<(usize, usize)>,
    bye: Option<usize>,
}

/// The depth-first search for a pairing, over rank indices.
struct Pool<'a> {
    points: Vec<f64>,
    met: &'a [Vec<bool>],
    /// Who may meet whom in the current stage.
    allowed: &'a [Vec<bool>],
    rematch_limit: usize,
    bye_order: Vec<usize>,
    unpaired: Vec<bool>,
    /// How many unpaired players each unpaired player may still be paired with...
    partners: Vec<usize>,
    /// ...and how many of those it has not met.
    unmet: Vec<usize>,
    pairs: Vec<(usize, usize)>,
    rematches: usize,
    nodes_left: u32,
}

impl<'a> Pool<'a> {
    fn new(players: &[Player], met: &'a [Vec<bool>]) -> Pool<'a> {
        let count = players.len();
        let mut bye_order = Vec::new();
        if count % 2 == 1 {
            // Lowest ranked first, among those without a bye if any are left.
            bye_order = (0..count).rev().filter(|&i| !players[i].had_bye).collect();
            if bye_order.is_empty() {
                bye_order = (0..count).rev().collect();
            }
        }
        Pool {
            points: players.iter().map(|p| p.points).collect(),
            met,
            allowed: met,
            rematch_limit: 0,
            bye_order,
            unpaired: vec![true; count],
            partners: vec![0; count],
            unmet: vec![0; count],
            pairs: Vec::new(),
            rematches: 0,
            nodes_left: 0,
        }
    }

    /// A pairing within `allowed` with at most `rematch_limit` rematches, if one is
    /// found within the stage's budget.
    fn search(&mut self, allowed: &'a [Vec<bool>], rematch_limit: usize) -> Option<Pairing> {
        self.allowed = allowed;
        self.rematch_limit = rematch_limit;
        self.nodes_left = NODE_BUDGET;
        let byes: Vec<Option<usize>> = if self.bye_order.is_empty() {
            vec![None]
        } else {
            self.bye_order.iter().map(|&i| Some(i)).collect()
        };
        let count = self.unpaired.len();
        for bye in byes {
            self.unpaired.fill(true);
            if let Some(bye) = bye {
                self.unpaired[bye] = false;
            }
            self.pairs.clear();
            self.rematches = 0;
            let met = self.met;
            for (r, (may_meet, has_met)) in allowed.iter().zip(met).enumerate() {
                let others = (0..count).filter(|&s| s != r && self.unpaired[s]);
                self.partners[r] = others.clone().filter(|&s| may_meet[s]).count();
                self.unmet[r] = others.filter(|&s| !has_met[s]).count();
            }
            if self.viable() && self.extend(0) {
                let pairs = std::mem::take(&mut self.pairs);
                return Some(Pairing { pairs, bye });
            }
            if self.nodes_left == 0 {
                return None;
            }
        }
        None
    }

    /// Whether the unpaired may still all be paired: each has someone allowed left, and
    /// the rematches left cover those who have met everyone left (two to a rematch).
    fn viable(&self) -> bool {
        let mut met_all = 0;
        for r in (0..self.unpaired.len()).filter(|&r| self.unpaired[r]) {
            if self.partners[r] == 0 {
                return false;
            }
            met_all += usize::from(self.unmet[r] == 0);
        }
        self.rematches + met_all.div_ceil(2) <= self.rematch_limit
    }

    /// Pairs the best unpaired player (at or after `from`) and, recursively, the rest.
    fn extend(&mut self, from: usize) -> bool {
        let Some(top) = (from..self.unpaired.len()).find(|&i| self.unpaired[i]) else {
            return true;
        };
        for other in self.candidates(top) {
            if !self.allowed[top][other] {
                continue;
            }
            let rematch = self.met[top][other];
            if rematch && self.rematches == self.rematch_limit {
                continue;
            }
            if self.nodes_left == 0 {
                return false;
            }
            self.nodes_left -= 1;
            self.take(top, other, rematch);
            if self.viable() && self.extend(top + 1) {
                return true;
            }
            self.give_back(top, other, rematch);
            if self.nodes_left == 0 {
                return false;
            }
        }
        false
    }

    /// The opponents to try for `top`, most wanted first: in `top`'s score group G (in rank
    /// order, `top` first), G[len/2] and those below it, then those above it back up to
    /// G[1]; then lower scores in rank order. The first choices pair the top half of a
    /// group with the bottom half, and let a group's odd player float down.
    fn candidates(&self, top: usize) -> Vec<usize> {
        let count = self.unpaired.len();
        let group_end = (top..count)
            .find(|&i| self.points[i] != self.points[top])
            .unwrap_or(count);
        let group: Vec<usize> = (top..group_end).filter(|&i| self.unpaired[i]).collect();
        let half = group.len() / 2;
        let mut order = Vec::with_capacity(count - top);
        if group.len() >= 2 {
            order.extend_from_slice(&group[half..]);
            order.extend(group[1..half].iter().rev());
        }
        order.extend((group_end..count).filter(|&i| self.unpaired[i]));
        order
    }

    fn take(&mut self, a: usize, b: usize, rematch: bool) {
        self.unpaired[a] = false;
        self.unpaired[b] = false;
        self.pairs.push((a, b));
        self.rematches += usize::from(rematch);
        self.recount(a, b, |count, lost| count - lost);
    }

    fn give_back(&mut self, a: usize, b: usize, rematch: bool) {
        self.recount(a, b, |count, lost| count + lost);
        self.rematches -= usize::from(rematch);
        self.pairs.pop();
        self.unpaired[a] = true;
        self.unpaired[b] = true;
    }

    /// Updates the unpaired players' counts for `a` and `b` leaving or rejoining them.
    fn recount(&mut self, a: usize, b: usize, update: impl Fn(usize, usize) -> usize) {
        for r in 0..self.unpaired.len() {
            if self.unpaired[r] {
                let allowed = usize::from(self.allowed[r][a]) + usize::from(self.allowed[r][b]);
                let unmet = usize::from(!self.met[r][a]) + usize::from(!self.met[r][b]);
                self.partners[r] = update(self.partners[r], allowed);
                self.unmet[r] = update(self.unmet[r], unmet);
            }
        }
    }
}

/// The boards of a pairing, best pair first, the bye last.
fn boards(players: &[Player], mut pairing: Pairing) -> Vec<Board> {
    pairing.pairs.sort_unstable();
    let mut boards: Vec<Board> = pairing
        .pairs
        .iter()
        .enumerate()
        .map(|(board, &(better, worse))| {
            let (better, worse) = (&players[better], &players[worse]);
            if better_takes_black(better, worse, board) {
                Board::game(better.id, worse.id)
            } else {
                Board::game(worse.id, better.id)
            }
        })
        .collect();
    boards.extend(pairing.bye.map(|i| Board::bye(players[i].id)));
    boards
}

/// Whether the better-ranked of a pair gets Black on board `board` (0-based).
fn better_takes_black(better: &Player, worse: &Player, board: usize) -> bool {
    let better_black = better.may_take(Colour::Black) && worse.may_take(Colour::White);
    let worse_black = worse.may_take(Colour::Black) && better.may_take(Colour::White);
    if better_black != worse_black {
        return better_black;
    }
    let (better_balance, worse_balance) = (better.balance(), worse.balance());
    if better_balance != worse_balance {
        return better_balance < worse_balance;
    }
    let mut last_colours = better.colours.iter().rev().zip(worse.colours.iter().rev());
    if let Some((&mine, _)) = last_colours.find(|(a, b)| a != b) {
        return mine == Colour::White;
    }
    match better.colours.last() {
        Some(&last) => last == Colour::White,
        // Nothing to go by (round 1): the better player alternates colours down the boards.
        None => board.is_multiple_of(2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::GameResult::{self, BlackWins, Draw, WhiteWins};

    /// Players 1, 2, 3, ... rated 1900, 1850, 1800, ...: ids are the seeds. Listed in
    /// reverse, so that only the ranking puts them in order.
    fn field(count: i64) -> Vec<Entrant> {
        (1..=count)
            .rev()
            .map(|id| Entrant {
                id,
                rating: 1950.0 - 50.0 * id as f64,
                active: true,
            })
            .collect()
    }

    /// A round's boards with results filled in, board by board.
    fn finish(number: u32, boards: &[Board], results: &[GameResult]) -> Round {
        let mut results = results.iter();
        let boards = boards
            .iter()
            .map(|board| match *board {
                Board::Game { black, white, .. } => Board::Game {
                    black,
                    white,
                    result: Some(*results.next().expect("a result for every game")),
                    forfeit: false,
                },
                Board::Bye { .. } => board.clone(),
            })
            .collect();
        Round { number, boards }
    }

    fn game(black: PlayerId, white: PlayerId) -> Board {
        Board::game(black, white)
    }

    #[test]
    fn round_one_pairs_the_top_half_against_the_bottom_half() {
        // 1-4, 2-5, 3-6; the better player has Black on boards 1 and 3, White on 2.
        assert_eq!(
            pair(&field(6), &[]),
            vec![game(1, 4), game(5, 2), game(3, 6)]
        );
    }

    #[test]
    fn round_two_pairs_score_groups_floats_one_down_and_balances_colours() {
        let round_one = pair(&field(6), &[]);
        // 1 beats 4, 5 beats 2, 3 beats 6. Winners 1, 3, 5 and losers 2, 4, 6: 1 meets
        // 3 (1-3: the group's top half against its bottom half); 5 floats down, where 2
        // would be a rematch, so 5 meets 4; 2 meets 6.
        let played = [finish(1, &round_one, &[BlackWins, BlackWins, BlackWins])];
        // 1 and 3 both had Black: 1, ranked higher, alternates to White. 4 had White, so
        // Black against 5. 2 and 6 both had White: 2 alternates to Black.
        assert_eq!(
            pair(&field(6), &played),
            vec![game(3, 1), game(4, 5), game(2, 6)]
        );
    }

    #[test]
    fn a_rematch_is_passed_over_for_the_next_candidate() {
        // 1 beats 4, 5 and 2 draw, 6 beats 3: 1 and 6 on 1 point, 2 and 5 on a half
        // (having met), 3 and 4 on nothing.
        let played = [finish(
            1,
            &pair(&field(6), &[]),
            &[BlackWins, Draw, WhiteWins],
        )];
        // 6 has a lower balance than 1 (White against Black), so has Black; likewise
        // 2 against 3 and 4 against 5.
        assert_eq!(
            pair(&field(6), &played),
            vec![game(6, 1), game(2, 3), game(4, 5)]
        );
    }

    #[test]
    fn the_bye_goes_to_the_lowest_ranked_player_without_one() {
        let entrants = field(5);
        let round_one = pair(&entrants, &[]);
        assert_eq!(round_one, vec![game(1, 3), game(4, 2), Board::bye(5)]);
        let mut played = vec![finish(1, &round_one, &[Draw, Draw])];
        // 5 leads on its bye point and meets 1, the best of the half-pointers; 4, the
        // lowest, has the bye.
        let round_two = pair(&entrants, &played);
        assert_eq!(round_two, vec![game(5, 1), game(2, 3), Board::bye(4)]);
        played.push(finish(2, &round_two, &[WhiteWins, Draw]));
        // 1 and 4 lead on 1.5; 2, 3 and 5 have 1. 5 is the lowest but had a bye: 3 has
        // this one.
        assert_eq!(
            pair(&entrants, &played),
            vec![game(1, 4), game(2, 5), Board::bye(3)]
        );
    }

    #[test]
    fn backtracking_finds_the_one_pairing_without_rematches() {
        // 2, 3 and 6 have met each other, and 4 and 5 have met; all drew every game,
        // some against players since withdrawn (7, 8, 9). 1's first choices, 4 and 5,
        // each leave 2, 3 and 6 needing the same opponent; only 1-6 works.
        let mut entrants = field(9);
        for e in entrants.iter_mut().filter(|e| e.id > 6) {
            e.active = false;
        }
        let played = [
            finish(1, &[game(2, 3), game(4, 5), game(1, 7)], &[Draw; 3]),
            finish(
                2,
                &[game(6, 2), game(7, 4), game(5, 8), game(9, 1)],
                &[Draw; 4],
            ),
            finish(3, &[game(3, 6)], &[Draw]),
        ];
        assert_eq!(
            pair(&entrants, &played),
            vec![game(1, 6), game(2, 4), game(5, 3)]
        );
    }

    #[test]
    fn withdrawn_players_are_not_paired() {
        let mut entrants = field(4);
        entrants[0].active = false; // 4
        assert_eq!(pair(&entrants, &[]), vec![game(1, 2), Board::bye(3)]);
        assert!(pair(&[], &[]).is_empty());
    }

    fn player(id: PlayerId, colours: &[Colour], opponents: &[PlayerId]) -> Player {
        Player {
            id,
            points: 0.0,
            colours: colours.to_vec(),
            had_bye: false,
            opponents: opponents.iter().copied().collect(),
        }
    }

    #[test]
    fn the_colour_rule_gives_way_before_a_rematch() {
        use Colour::White;
        // Both have had White twice: one of them must have it a third time.
        let players = [
            player(1, &[White, White], &[]),
            player(2, &[White, White], &[]),
        ];
        assert_eq!(pair_ranked(&players), vec![game(1, 2)]);
        // Two players who have met meet again rather than not play.
        let players = [player(1, &[], &[2]), player(2, &[], &[1])];
        assert_eq!(pair_ranked(&players), vec![game(1, 2)]);
    }

    #[test]
    fn when_rematches_cannot_be_avoided_the_fewest_are_taken() {
        // 1 has met everyone and 3 everyone but 4. Taking 1's first choice, 4, leaves 3
        // a rematch too; 1-5 leaves 2-6 and 3-4, one rematch in all.
        let players = [
            player(1, &[], &[2, 3, 4, 5, 6]),
            player(2, &[], &[1, 3]),
            player(3, &[], &[1, 2, 5, 6]),
            player(4, &[], &[1]),
            player(5, &[], &[1, 3]),
            player(6, &[], &[1, 3]),
        ];
        assert_eq!(
            pair_ranked(&players),
            vec![game(1, 5), game(6, 2), game(3, 4)]
        );
    }

    /// A small deterministic generator (xorshift) for simulated results.
    struct Results(u64);

    impl Results {
        fn next(&mut self) -> GameResult {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            match self.0 % 10 {
                0..=3 => BlackWins,
                4..=5 => Draw,
                _ => WhiteWins,
            }
        }
    }

    fn simulate(count: i64, seed: u64) {
        let entrants = field(count);
        let mut results = Results(seed);
        let mut played: Vec<Round> = Vec::new();
        let mut met = HashSet::new();
        let mut byes = HashSet::new();
        let mut colours: HashMap<PlayerId, Vec<i32>> = HashMap::new();
        for number in 1..=7 {
            let started = std::time::Instant::now();
            let boards = pair(&entrants, &played);
            eprintln!("{count} players, round {number}: {:?}", started.elapsed());
            let mut seen = HashSet::new();
            for board in &boards {
                match *board {
                    Board::Game { black, white, .. } => {
                        assert!(seen.insert(black) && seen.insert(white));
                        assert!(met.insert((black.min(white), black.max(white))));
                        colours.entry(black).or_default().push(1);
                        colours.entry(white).or_default().push(-1);
                    }
                    Board::Bye { player, .. } => {
                        assert!(seen.insert(player) && byes.insert(player));
                    }
                }
            }
            assert_eq!(seen.len() as i64, count, "round {number} is full");
            for sequence in colours.values() {
                assert!(sequence.iter().sum::<i32>().abs() <= 2, "{sequence:?}");
                assert!(sequence.windows(3).all(|w| w[0] != w[1] || w[1] != w[2]));
            }
            let outcomes: Vec<GameResult> = boards.iter().map(|_| results.next()).collect();
            played.push(finish(number, &boards, &outcomes));
        }
    }

    #[test]
    fn a_64_player_field_pairs_seven_full_rounds_by_the_rules() {
        simulate(64, 0x2545_f491_4f6c_dd1d);
        simulate(63, 0x9e37_79b9_7f4a_7c15);
    }
}
