//! Round robins by Berger tables.

/// The rounds of a round robin among `players` seeds (0-based, best first): each round's
/// pairs as (black, white), `None` for the bye when the number is odd. `double` adds a
/// second cycle with the colours reversed.
pub fn schedule(players: usize, double: bool) -> Vec<Vec<(usize, Option<usize>)>> {
    if players < 2 {
        return Vec::new();
    }
    // An odd field gets a dummy as the last seed; whoever meets it has the bye.
    let seats = players + players % 2;
    let half = seats / 2;
    let last = seats - 1;
    let mut rounds = Vec::with_capacity(2 * last);
    for round in 0..last {
        let rotate = |seat: usize| (seat + round * half) % last;
        let mut pairs = Vec::with_capacity(half);
        let mut bye = None;
        for board in 0..half {
            let (first, second) = if board == 0 {
                // The last seat alternates colours: second in odd rounds (1-based),
                // first in even ones.
                let other = rotate(0);
                if round % 2 == 0 {
                    (other, last)
                } else {
                    (last, other)
                }
            } else {
                (rotate(board), rotate(last - board))
            };
            if first >= players {
                bye = Some((second, None));
            } else if second >= players {
                bye = Some((first, None));
            } else {
                pairs.push((first, Some(second)));
            }
        }
        // The bye is listed after the games, as a round's boards are.
        pairs.extend(bye);
        rounds.push(pairs);
    }
    if double {
        let reversed: Vec<_> = rounds
            .iter()
            .map(|pairs| {
                pairs
                    .iter()
                    .map(|&(black, white)| match white {
                        Some(white) => (white, Some(black)),
                        None => (black, None),
                    })
                    .collect()
            })
            .collect();
        rounds.extend(reversed);
    }
    rounds
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A schedule in 1-based seeds, as FIDE prints Berger tables.
    fn one_based(rounds: &[Vec<(usize, Option<usize>)>]) -> Vec<Vec<(usize, Option<usize>)>> {
        rounds
            .iter()
            .map(|pairs| {
                pairs
                    .iter()
                    .map(|&(black, white)| (black + 1, white.map(|w| w + 1)))
                    .collect()
            })
            .collect()
    }

    fn games(pairs: &[(usize, usize)]) -> Vec<(usize, Option<usize>)> {
        pairs.iter().map(|&(b, w)| (b, Some(w))).collect()
    }

    #[test]
    fn four_players_follow_the_fide_berger_table() {
        assert_eq!(
            one_based(&schedule(4, false)),
            vec![
                games(&[(1, 4), (2, 3)]),
                games(&[(4, 3), (1, 2)]),
                games(&[(2, 4), (3, 1)]),
            ]
        );
    }

    #[test]
    fn six_players_follow_the_fide_berger_table() {
        assert_eq!(
            one_based(&schedule(6, false)),
            vec![
                games(&[(1, 6), (2, 5), (3, 4)]),
                games(&[(6, 4), (5, 3), (1, 2)]),
                games(&[(2, 6), (3, 1), (4, 5)]),
                games(&[(6, 5), (1, 4), (2, 3)]),
                games(&[(3, 6), (4, 2), (5, 1)]),
            ]
        );
    }

    #[test]
    fn five_players_are_the_six_player_table_with_seed_six_as_the_bye() {
        let mut expected = vec![
            games(&[(2, 5), (3, 4)]),
            games(&[(5, 3), (1, 2)]),
            games(&[(3, 1), (4, 5)]),
            games(&[(1, 4), (2, 3)]),
            games(&[(4, 2), (5, 1)]),
        ];
        for (pairs, bye) in expected.iter_mut().zip([1, 4, 2, 5, 3]) {
            pairs.push((bye, None));
        }
        assert_eq!(one_based(&schedule(5, false)), expected);
    }

    #[test]
    fn a_double_round_robin_repeats_the_cycle_with_colours_reversed() {
        let rounds = one_based(&schedule(3, true));
        assert_eq!(
            rounds,
            vec![
                vec![(2, Some(3)), (1, None)],
                vec![(1, Some(2)), (3, None)],
                vec![(3, Some(1)), (2, None)],
                vec![(3, Some(2)), (1, None)],
                vec![(2, Some(1)), (3, None)],
                vec![(1, Some(3)), (2, None)],
            ]
        );
    }

    #[test]
    fn fewer_than_two_players_have_no_rounds() {
        assert!(schedule(0, false).is_empty());
        assert!(schedule(1, true).is_empty());
    }

    /// How many times each pair met as (black, white), and each seed's byes.
    fn tally(players: usize, rounds: &[Vec<(usize, Option<usize>)>]) -> (Vec<Vec<u32>>, Vec<u32>) {
        let mut met = vec![vec![0; players]; players];
        let mut byes = vec![0; players];
        for pairs in rounds {
            let mut seen = vec![false; players];
            for &(black, white) in pairs {
                assert!(!seen[black], "seed {black} twice in a round");
                seen[black] = true;
                match white {
                    Some(white) => {
                        assert!(!seen[white], "seed {white} twice in a round");
                        seen[white] = true;
                        met[black][white] += 1;
                    }
                    None => byes[black] += 1,
                }
            }
            assert!(seen.iter().all(|&s| s), "a seed left out of a round");
        }
        (met, byes)
    }

    fn each_pair(players: usize) -> impl Iterator<Item = (usize, usize)> {
        (0..players).flat_map(move |a| (a + 1..players).map(move |b| (a, b)))
    }

    #[test]
    fn every_pair_meets_once_a_cycle_and_an_odd_field_has_one_bye_each() {
        for players in 2..=12 {
            let single = schedule(players, false);
            assert_eq!(single.len(), players - 1 + players % 2, "{players} players");
            let (met, byes) = tally(players, &single);
            for (a, b) in each_pair(players) {
                assert_eq!(met[a][b] + met[b][a], 1, "{players} players: {a} and {b}");
            }
            assert!(byes.iter().all(|&n| n == (players % 2) as u32));

            let double = schedule(players, true);
            assert_eq!(double.len(), 2 * single.len());
            let (met, byes) = tally(players, &double);
            for (a, b) in each_pair(players) {
                assert_eq!((met[a][b], met[b][a]), (1, 1), "{players}: {a} and {b}");
            }
            assert!(byes.iter().all(|&n| n == 2 * (players % 2) as u32));
        }
    }

    #[test]
    fn colours_are_as_even_as_a_berger_table_makes_them() {
        for players in 2..=12 {
            let rounds = schedule(players, false);
            let mut black = vec![0i32; players];
            let mut white = vec![0i32; players];
            for pairs in &rounds {
                for &(b, w) in pairs {
                    if let Some(w) = w {
                        black[b] += 1;
                        white[w] += 1;
                    }
                }
            }
            for seed in 0..players {
                let difference = black[seed] - white[seed];
                // An even field plays an odd number of games: one colour once more.
                // An odd field plays an even number, half with each colour.
                let expected = if players % 2 == 0 { 1 } else { 0 };
                assert_eq!(difference.abs(), expected, "{players} players, seed {seed}");
            }
        }
    }
}
