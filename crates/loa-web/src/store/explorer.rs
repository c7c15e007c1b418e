//! The opening explorer's counts: the moves played from each position, by source and
//! rating band, and which games and archives were counted.

use super::{Store, StoreError};
use sqlx::{Any, Row, Transaction};

/// One move of a game counted: from which position, in which band, and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExploredMove {
    pub position_key: i64,
    pub played: String,
}

/// A game's moves to count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExploredGame {
    pub variant: String,
    pub band: i64,
    /// `Some(true)` Black won, `Some(false)` White, `None` a draw.
    pub black_won: Option<bool>,
    pub moves: Vec<ExploredMove>,
}

/// A move's counts from a position, over the bands and sources asked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveCounts {
    pub played: String,
    pub games: i64,
    pub black_wins: i64,
    pub white_wins: i64,
    pub draws: i64,
}

/// What the explorer is asked.
#[derive(Clone, Debug)]
pub struct ExplorerQuery<'a> {
    pub variant: &'a str,
    pub position_key: i64,
    /// `rated`, `archive`, or both when `None`.
    pub source: Option<&'a str>,
    /// The bands counted (their lower bounds); all when empty.
    pub bands: &'a [i64],
}

async fn count_in(
    tx: &mut Transaction<'_, Any>,
    source: &str,
    game: &ExploredGame,
) -> Result<(), StoreError> {
    let (black, white, draw) = match game.black_won {
        Some(true) => (1, 0, 0),
        Some(false) => (0, 1, 0),
        None => (0, 0, 1),
    };
    for m in &game.moves {
        sqlx::query(
            "INSERT INTO explorer_moves (variant, position_key, source, band, played, games,
                black_wins, white_wins, draws) VALUES ($1, $2, $3, $4, $5, 1, $6, $7, $8)
             ON CONFLICT (variant, position_key, source, band, played) DO UPDATE SET
                games = explorer_moves.games + 1,
                black_wins = explorer_moves.black_wins + $6,
                white_wins = explorer_moves.white_wins + $7,
                draws = explorer_moves.draws + $8",
        )
        .bind(&game.variant)
        .bind(m.position_key)
        .bind(source)
        .bind(game.band)
        .bind(&m.played)
        .bind(black)
        .bind(white)
        .bind(draw)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

impl Store {
    /// Counts a site's game once: `false`, and nothing counted, when it was before (by
    /// another server, say).
    pub async fn explore_game(
        &self,
        game_id: &str,
        game: &ExploredGame,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let first = sqlx::query(
            "INSERT INTO explorer_games (game_id, at) VALUES ($1, $2)
             ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game_id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if first.rows_affected() == 0 {
            return Ok(false);
        }
        count_in(&mut tx, "rated", game).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Counts an archive's games once, by the digest of its text: `false`, and nothing
    /// counted, when it was before.
    pub async fn explore_archive(
        &self,
        digest: &str,
        name: &str,
        games: &[ExploredGame],
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let first = sqlx::query(
            "INSERT INTO explorer_archives (digest, name, games, at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (digest) DO NOTHING",
        )
        .bind(digest)
        .bind(name)
        .bind(games.len() as i64)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if first.rows_affected() == 0 {
            return Ok(false);
        }
        for game in games {
            count_in(&mut tx, "archive", game).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Rated games that ended with their ratings written and are not counted yet, the
    /// oldest first.
    pub async fn games_to_explore(&self, limit: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id FROM games g
             WHERE g.rated = 1 AND g.result IS NOT NULL
               AND EXISTS (SELECT 1 FROM rating_history h WHERE h.game_id = g.id)
               AND NOT EXISTS (SELECT 1 FROM explorer_games e WHERE e.game_id = g.id)
             ORDER BY g.updated_at, g.id LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("id"))
            .collect::<Result<_, _>>()?)
    }

    /// The mean of a rated game's players' ratings after it.
    pub async fn mean_rating_after(&self, game_id: &str) -> Result<Option<f64>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT AVG(rating) FROM rating_history WHERE game_id = $1")
                .bind(game_id)
                .fetch_one(&self.pool)
                .await?,
        )
    }

    /// The moves played from a position, the most played first.
    pub async fn explore(&self, query: &ExplorerQuery<'_>) -> Result<Vec<MoveCounts>, StoreError> {
        let rows = sqlx::query(
            "SELECT played, band, source, games, black_wins, white_wins, draws
             FROM explorer_moves WHERE variant = $1 AND position_key = $2",
        )
        .bind(query.variant)
        .bind(query.position_key)
        .fetch_all(&self.pool)
        .await?;
        let mut moves: Vec<MoveCounts> = Vec::new();
        for r in &rows {
            let band: i64 = r.try_get("band")?;
            let source: String = r.try_get("source")?;
            if !query.bands.is_empty() && !query.bands.contains(&band)
                || query.source.is_some_and(|s| s != source)
            {
                continue;
            }
            let played: String = r.try_get("played")?;
            let at = match moves.iter().position(|m| m.played == played) {
                Some(at) => at,
                None => {
                    moves.push(MoveCounts {
                        played,
                        ..MoveCounts::default()
                    });
                    moves.len() - 1
                }
            };
            let m = &mut moves[at];
            m.games += r.try_get::<i64, _>("games")?;
            m.black_wins += r.try_get::<i64, _>("black_wins")?;
            m.white_wins += r.try_get::<i64, _>("white_wins")?;
            m.draws += r.try_get::<i64, _>("draws")?;
        }
        moves.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.played.cmp(&b.played)));
        Ok(moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::testing::every_database;

    fn game(band: i64, black_won: Option<bool>, moves: &[(i64, &str)]) -> ExploredGame {
        ExploredGame {
            variant: "standard".into(),
            band,
            black_won,
            moves: moves
                .iter()
                .map(|&(position_key, played)| ExploredMove {
                    position_key,
                    played: played.into(),
                })
                .collect(),
        }
    }

    #[tokio::test]
    async fn moves_are_counted_once_by_source_and_band() {
        for db in every_database().await {
            let store = db.open().await;
            let games = [
                game(1600, Some(true), &[(1, "b1-d3"), (2, "a2-c4")]),
                game(1800, Some(false), &[(1, "b1-d3")]),
                game(1600, None, &[(1, "c1-c3")]),
            ];
            assert!(store
                .explore_archive("d1", "a.pgn", &games, 1)
                .await
                .unwrap());
            assert!(!store
                .explore_archive("d1", "again.pgn", &games, 2)
                .await
                .unwrap());
            let ask = |bands: &'static [i64], source| {
                let store = &store;
                async move {
                    let query = ExplorerQuery {
                        variant: "standard",
                        position_key: 1,
                        source,
                        bands,
                    };
                    store.explore(&query).await.unwrap()
                }
            };
            let all = ask(&[], None).await;
            assert_eq!(
                all,
                [
                    MoveCounts {
                        played: "b1-d3".into(),
                        games: 2,
                        black_wins: 1,
                        white_wins: 1,
                        draws: 0
                    },
                    MoveCounts {
                        played: "c1-c3".into(),
                        games: 1,
                        black_wins: 0,
                        white_wins: 0,
                        draws: 1
                    }
                ]
            );
            let band = ask(&[1800], None).await;
            assert_eq!(band.len(), 1);
            assert_eq!((band[0].games, band[0].white_wins), (1, 1));
            assert!(ask(&[], Some("rated")).await.is_empty());
            assert_eq!(ask(&[], Some("archive")).await, all);
        }
    }
}
