//! Ratings, their history, and championship medals.

use super::{Store, StoreError};
use sqlx::any::AnyRow;
use sqlx::Row;

/// A rating in one category.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub category: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i64,
}

/// A rating moved by a game: written with the game's end, in its transaction.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingUpdate {
    pub account: i64,
    pub rating: RatingRow,
}

/// A point of a rating's history: after which game, when, and where it stood.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryRow {
    pub category: String,
    pub game_id: String,
    pub at: i64,
    pub rating: f64,
    pub deviation: f64,
}

/// A leaderboard's line.
#[derive(Clone, Debug, PartialEq)]
pub struct RankedRow {
    pub name: String,
    pub bot: bool,
    pub rating: RatingRow,
}

impl RatingRow {
    /// The rating as the domain rates with it.
    pub fn rating(&self) -> crate::ratings::Rating {
        crate::ratings::Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
            games: u32::try_from(self.games).unwrap_or(u32::MAX),
        }
    }
}

fn rating_row(r: &AnyRow) -> Result<RatingRow, sqlx::Error> {
    Ok(RatingRow {
        category: r.try_get("category")?,
        rating: r.try_get("rating")?,
        deviation: r.try_get("deviation")?,
        volatility: r.try_get("volatility")?,
        games: r.try_get("games")?,
    })
}

/// Writes a rating after one more game: `false`, and nothing written, when the rating it
/// was computed from is no longer the one kept (another server wrote the player's other
/// game's rating meanwhile).
pub(super) async fn write(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    update: &RatingUpdate,
    game_id: &str,
    now: i64,
) -> Result<bool, StoreError> {
    let r = &update.rating;
    let written = sqlx::query(
        "INSERT INTO ratings (account_id, category, rating, deviation, volatility, games,
            updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (account_id, category) DO UPDATE SET rating = $3, deviation = $4,
            volatility = $5, games = $6, updated_at = $7
         WHERE ratings.games = $6 - 1",
    )
    .bind(update.account)
    .bind(&r.category)
    .bind(r.rating)
    .bind(r.deviation)
    .bind(r.volatility)
    .bind(r.games)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    if written.rows_affected() != 1 {
        return Ok(false);
    }
    sqlx::query(
        "INSERT INTO rating_history (account_id, category, game_id, at, rating, deviation, seq)
         VALUES ($1, $2, $3, $4, $5, $6,
            (SELECT COALESCE(MAX(seq), 0) + 1 FROM rating_history WHERE account_id = $1))",
    )
    .bind(update.account)
    .bind(&r.category)
    .bind(game_id)
    .bind(now)
    .bind(r.rating)
    .bind(r.deviation)
    .execute(&mut **tx)
    .await?;
    Ok(true)
}

impl Store {
    /// Every rating an account has, by category.
    pub async fn ratings(&self, account: i64) -> Result<Vec<RatingRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT category, rating, deviation, volatility, games FROM ratings
             WHERE account_id = $1 ORDER BY category",
        )
        .bind(account)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(rating_row).collect::<Result<_, _>>()?)
    }

    pub async fn rating(
        &self,
        account: i64,
        category: &str,
    ) -> Result<Option<RatingRow>, StoreError> {
        let row = sqlx::query(
            "SELECT category, rating, deviation, volatility, games FROM ratings
             WHERE account_id = $1 AND category = $2",
        )
        .bind(account)
        .bind(category)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(rating_row).transpose()?)
    }

    /// An account's rating history, oldest first.
    pub async fn rating_history(&self, account: i64) -> Result<Vec<HistoryRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT category, game_id, at, rating, deviation FROM rating_history
             WHERE account_id = $1 ORDER BY at, seq",
        )
        .bind(account)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(HistoryRow {
                    category: r.try_get("category")?,
                    game_id: r.try_get("game_id")?,
                    at: r.try_get("at")?,
                    rating: r.try_get("rating")?,
                    deviation: r.try_get("deviation")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError)
    }

    /// The ratings in each of `categories`, highest first, of accounts not deleted:
    /// `limit` a category.
    pub async fn leaderboard(
        &self,
        categories: &[String],
        limit: usize,
    ) -> Result<Vec<RankedRow>, StoreError> {
        let mut ranked = Vec::new();
        for category in categories {
            let rows = sqlx::query(
                "SELECT a.name, a.bot, r.category, r.rating, r.deviation, r.volatility, r.games
                 FROM ratings r JOIN accounts a ON a.id = r.account_id
                 WHERE r.category = $1 AND a.deleted_at IS NULL
                 ORDER BY r.rating DESC, a.name LIMIT $2",
            )
            .bind(category)
            .bind(i64::try_from(limit).unwrap_or(i64::MAX))
            .fetch_all(&self.pool)
            .await?;
            for r in &rows {
                ranked.push(RankedRow {
                    name: r.try_get("name")?,
                    bot: super::flag(r, "bot")?,
                    rating: rating_row(r)?,
                });
            }
        }
        Ok(ranked)
    }

    /// An account's medals: golds, silvers and bronzes.
    pub async fn medals(&self, account: i64) -> Result<[u32; 3], StoreError> {
        let rows: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT place, COUNT(*) FROM medals WHERE account_id = $1 AND place BETWEEN 1 AND 3
             GROUP BY place",
        )
        .bind(account)
        .fetch_all(&self.pool)
        .await?;
        let mut medals = [0; 3];
        for (place, count) in rows {
            medals[(place - 1) as usize] = u32::try_from(count).unwrap_or(u32::MAX);
        }
        Ok(medals)
    }
}
