//! The engine's searches, claimed so that servers sharing a database search each engine
//! move once. A claim is a lease rather than a row lock held through the search: a search
//! takes seconds, and a transaction open that long would hold one of the pool's
//! connections for each game the engine plays.

use super::{Store, StoreError};

impl Store {
    /// Claims the search of a game's engine move at `ply` for this server until
    /// `lease_until`: `Ok(None)` when this server is to search it (nobody had it, another
    /// server's lease ran out, or it is this server's already), else when the other
    /// server's lease ends. Always this server's on SQLite, where there is one.
    pub async fn claim_engine_move(
        &self,
        game: &str,
        ply: usize,
        lease_until: i64,
        now: i64,
    ) -> Result<Option<i64>, StoreError> {
        if !self.is_shared() {
            return Ok(None);
        }
        let ply = i64::try_from(ply).unwrap_or(i64::MAX);
        let claimed: Option<String> = sqlx::query_scalar(
            "INSERT INTO engine_jobs (game_id, ply, server, lease_until) VALUES ($1, $2, $3, $4)
             ON CONFLICT (game_id) DO UPDATE SET ply = $2, server = $3, lease_until = $4
             WHERE engine_jobs.ply <> $2 OR engine_jobs.server = $3
                OR engine_jobs.lease_until < $5
             RETURNING game_id",
        )
        .bind(game)
        .bind(ply)
        .bind(&self.origin)
        .bind(lease_until)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        if claimed.is_some() {
            return Ok(None);
        }
        let held: Option<i64> =
            sqlx::query_scalar("SELECT lease_until FROM engine_jobs WHERE game_id = $1")
                .bind(game)
                .fetch_optional(&self.pool)
                .await?;
        Ok(Some(held.unwrap_or(now)))
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::TestDatabase;

    #[tokio::test]
    async fn an_engine_move_is_searched_by_one_server_until_its_lease_runs_out() {
        let Some(db) = TestDatabase::postgres().await else {
            return;
        };
        let (one, other) = (db.open().await, db.open().await);
        one.execute_raw(
            "INSERT INTO games (id, created_at, updated_at, variant, rules, start, players,
                names, online) VALUES ('g', 0, 0, 'standard', 'draw', '', '[]', '[]', 0)",
        )
        .await
        .unwrap();
        assert_eq!(one.claim_engine_move("g", 1, 100, 0).await.unwrap(), None);
        // Asked again by the server that has it: still its own.
        assert_eq!(one.claim_engine_move("g", 1, 100, 10).await.unwrap(), None);
        assert_eq!(
            other.claim_engine_move("g", 1, 200, 50).await.unwrap(),
            Some(100)
        );
        // The lease has run out (the server stopped): the other takes it over.
        assert_eq!(
            other.claim_engine_move("g", 1, 300, 150).await.unwrap(),
            None
        );
        assert_eq!(
            one.claim_engine_move("g", 1, 400, 160).await.unwrap(),
            Some(300)
        );
        // The next move is free to whoever asks first.
        assert_eq!(one.claim_engine_move("g", 3, 400, 170).await.unwrap(), None);
        // On SQLite there is one server: always its own.
        let sqlite = TestDatabase::sqlite().open().await;
        assert_eq!(sqlite.claim_engine_move("g", 1, 0, 0).await.unwrap(), None);
    }
}
