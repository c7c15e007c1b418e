//! Correspondence leagues: divisions, promotion and relegation.

use super::PlayerId;

/// Divisions of 6 to 8 players from a ranking, best first (fewer than 6 players: one
/// division of them all).
pub fn divisions(ranked: &[PlayerId]) -> Vec<Vec<PlayerId>> {
    let mut rest = ranked;
    division_sizes(ranked.len())
        .into_iter()
        .map(|size| {
            let (division, below) = rest.split_at(size);
            rest = below;
            division.to_vec()
        })
        .collect()
}

/// The sizes of the divisions of `players`, top first: as few divisions as keep every one
/// to 8 players, as even as possible, the larger ones on top. Where that would leave a
/// division under 6 (9 to 11 players, and 17), one division fewer: 9 to 11 play as one,
/// 17 as 9 and 8.
pub fn division_sizes(players: usize) -> Vec<usize> {
    if players == 0 {
        return Vec::new();
    }
    let mut count = players.div_ceil(8);
    if players < 6 * count && count > 1 {
        count -= 1;
    }
    let (size, larger) = (players / count, players % count);
    (0..count).map(|i| size + usize::from(i < larger)).collect()
}

/// The next season's divisions from the last one's final standings (each division best
/// first): the top two of a division go up, the bottom two down; those who left are
/// removed and newcomers join the lowest division.
pub fn next_season(
    finished: &[Vec<PlayerId>],
    left: &[PlayerId],
    newcomers: &[PlayerId],
) -> Vec<Vec<PlayerId>> {
    let bottom = finished.len().saturating_sub(1);
    // Each division split into those going up, those staying and those going down.
    let moves: Vec<(&[PlayerId], &[PlayerId], &[PlayerId])> = finished
        .iter()
        .enumerate()
        .map(|(i, division)| {
            let up = if i > 0 { division.len().min(2) } else { 0 };
            let down = if i < bottom {
                (division.len() - up).min(2)
            } else {
                0
            };
            let (promoted, rest) = division.split_at(up);
            let (stay, relegated) = rest.split_at(rest.len() - down);
            (promoted, stay, relegated)
        })
        .collect();
    // Relegated players rank above their new division and promoted ones below theirs: the
    // ranking changes only where players crossed a line.
    let mut ranking: Vec<PlayerId> = Vec::new();
    for i in 0..moves.len() {
        if i > 0 {
            ranking.extend_from_slice(moves[i - 1].2);
        }
        ranking.extend_from_slice(moves[i].1);
        if let Some(below) = moves.get(i + 1) {
            ranking.extend_from_slice(below.0);
        }
    }
    ranking.retain(|player| !left.contains(player));
    for &newcomer in newcomers {
        if !ranking.contains(&newcomer) {
            ranking.push(newcomer);
        }
    }
    divisions(&ranking)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(range: std::ops::RangeInclusive<PlayerId>) -> Vec<PlayerId> {
        range.collect()
    }

    #[test]
    fn division_sizes_from_0_to_40_players() {
        let expected: [&[usize]; 41] = [
            &[],
            &[1],
            &[2],
            &[3],
            &[4],
            &[5],
            &[6],
            &[7],
            &[8],
            &[9],
            &[10],
            &[11],
            &[6, 6],
            &[7, 6],
            &[7, 7],
            &[8, 7],
            &[8, 8],
            &[9, 8],
            &[6, 6, 6],
            &[7, 6, 6],
            &[7, 7, 6],
            &[7, 7, 7],
            &[8, 7, 7],
            &[8, 8, 7],
            &[8, 8, 8],
            &[7, 6, 6, 6],
            &[7, 7, 6, 6],
            &[7, 7, 7, 6],
            &[7, 7, 7, 7],
            &[8, 7, 7, 7],
            &[8, 8, 7, 7],
            &[8, 8, 8, 7],
            &[8, 8, 8, 8],
            &[7, 7, 7, 6, 6],
            &[7, 7, 7, 7, 6],
            &[7, 7, 7, 7, 7],
            &[8, 7, 7, 7, 7],
            &[8, 8, 7, 7, 7],
            &[8, 8, 8, 7, 7],
            &[8, 8, 8, 8, 7],
            &[8, 8, 8, 8, 8],
        ];
        for (players, sizes) in expected.iter().enumerate() {
            let ranked: Vec<PlayerId> = (100..100 + players as PlayerId).collect();
            let split = divisions(&ranked);
            let got: Vec<usize> = split.iter().map(Vec::len).collect();
            assert_eq!(got, *sizes, "{players} players");
            assert_eq!(split.concat(), ranked, "{players} players keep their order");
        }
    }

    #[test]
    fn two_go_up_and_two_go_down_between_neighbouring_divisions() {
        let finished = [ids(1..=6), ids(7..=12), ids(13..=18)];
        assert_eq!(
            next_season(&finished, &[], &[]),
            vec![
                vec![1, 2, 3, 4, 7, 8],
                vec![5, 6, 9, 10, 13, 14],
                vec![11, 12, 15, 16, 17, 18],
            ]
        );
    }

    #[test]
    fn leavers_and_newcomers_rebalance_the_divisions() {
        let finished = [ids(1..=8), ids(9..=16)];
        // After the moves: 1-6, 9, 10 | 7, 8, 11-16. Without 3, 12 and 15 and with five
        // newcomers at the bottom, 18 players make three divisions of 6.
        assert_eq!(
            next_season(&finished, &[3, 12, 15], &[20, 21, 22, 23, 24]),
            vec![
                vec![1, 2, 4, 5, 6, 9],
                vec![10, 7, 8, 11, 13, 14],
                vec![16, 20, 21, 22, 23, 24],
            ]
        );
        // Two leaving from 12 leave 10: one division.
        assert_eq!(
            next_season(&[ids(1..=6), ids(7..=12)], &[1, 2], &[]),
            vec![vec![3, 4, 7, 8, 5, 6, 9, 10, 11, 12]]
        );
    }

    #[test]
    fn a_single_division_only_gains_newcomers() {
        assert_eq!(
            next_season(&[ids(1..=5)], &[4], &[9, 8, 2]),
            vec![vec![1, 2, 3, 5, 9, 8]]
        );
        assert_eq!(next_season(&[], &[], &[3, 1]), vec![vec![3, 1]]);
        assert!(next_season(&[], &[], &[]).is_empty());
    }

    #[test]
    fn in_a_division_of_three_those_going_up_come_first() {
        // 7 and 8 go up and 9 down. The ranking 1-4, 7, 8 | 5, 6, 10, 11 | 9, 12-15
        // then makes two divisions of 15.
        let finished = [ids(1..=6), ids(7..=9), ids(10..=15)];
        assert_eq!(
            next_season(&finished, &[], &[]),
            vec![
                vec![1, 2, 3, 4, 7, 8, 5, 6],
                vec![10, 11, 9, 12, 13, 14, 15],
            ]
        );
    }
}
