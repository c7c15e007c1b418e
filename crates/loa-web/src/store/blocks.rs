//! Blocks: an account's list of the players it will not meet. A blocked player cannot
//! challenge the account, take its seeks or be paired with it.

use super::{Limited, Store, StoreError};
use sqlx::Row;

/// A player an account blocked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockRow {
    pub name: String,
    pub created_at: i64,
}

impl Store {
    /// Blocks `blocked` for `account`, unless `account` blocks `most` players already:
    /// whether newly blocked (or blocked before) and since when; `None` when the list is
    /// full. Counted as the block is kept: blocks sent at once cannot pass the limit.
    pub async fn block(
        &self,
        account: i64,
        blocked: i64,
        now: i64,
        most: i64,
    ) -> Result<Option<(bool, i64)>, StoreError> {
        let insert = sqlx::query(
            "INSERT INTO blocks (account_id, blocked_id, created_at)
             SELECT $1, $2, $3
             WHERE (SELECT COUNT(*) FROM blocks WHERE account_id = $1) < $4
               AND NOT EXISTS (SELECT 1 FROM blocks WHERE account_id = $1 AND blocked_id = $2)",
        )
        .bind(account)
        .bind(blocked)
        .bind(now)
        .bind(most);
        if self
            .insert_one_at_a_time(insert, Some(Limited::Blocks))
            .await?
        {
            return Ok(Some((true, now)));
        }
        let since: Option<i64> = sqlx::query_scalar(
            "SELECT created_at FROM blocks WHERE account_id = $1 AND blocked_id = $2",
        )
        .bind(account)
        .bind(blocked)
        .fetch_optional(&self.pool)
        .await?;
        Ok(since.map(|at| (false, at)))
    }

    /// Unblocks: whether `blocked` was blocked.
    pub async fn unblock(&self, account: i64, blocked: i64) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM blocks WHERE account_id = $1 AND blocked_id = $2")
            .bind(account)
            .bind(blocked)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// The players `account` blocks, the latest first.
    pub async fn blocks(&self, account: i64) -> Result<Vec<BlockRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.name, b.created_at FROM blocks b JOIN accounts a ON a.id = b.blocked_id
             WHERE b.account_id = $1 ORDER BY b.created_at DESC, a.name_key",
        )
        .bind(account)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(BlockRow {
                    name: r.try_get("name")?,
                    created_at: r.try_get("created_at")?,
                })
            })
            .collect()
    }

    /// Whether either of two accounts blocks the other.
    pub async fn blocked_between(&self, a: i64, b: i64) -> Result<bool, StoreError> {
        let count: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM blocks
             WHERE (account_id = $1 AND blocked_id = $2) OR (account_id = $2 AND blocked_id = $1)",
        )
        .bind(a)
        .bind(b)
        .fetch_one(&self.pool)
        .await?;
        Ok(count > 0)
    }
}
