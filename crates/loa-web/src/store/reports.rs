//! Game reports: queued when a game ends (or when asked), claimed by one server's worker
//! for a lease renewed as it goes, and kept as JSON once done.

use super::{Store, StoreError};
use sqlx::{Any, Row, Transaction};

/// A report's row: waiting, being made, or done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportRow {
    pub queued_at: i64,
    /// When a worker took it (or last said how far it is), if one has.
    pub claimed_at: Option<i64>,
    /// Positions searched so far, of how many.
    pub searched: i64,
    pub positions: i64,
    pub done_at: Option<i64>,
    /// The report, as the API gives it.
    pub body: Option<String>,
    /// Why the report could not be made (a damaged game).
    pub error: Option<String>,
}

impl Store {
    /// Queues a game's report unless it has one, waiting or done: whether it was queued.
    pub async fn queue_report(&self, game: &str, now: i64) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let queued = queue_in(&mut tx, game, now).await?;
        tx.commit().await?;
        Ok(queued)
    }

    pub async fn report(&self, game: &str) -> Result<Option<ReportRow>, StoreError> {
        let row = sqlx::query(
            "SELECT queued_at, claimed_at, searched, positions, done_at, body, error
             FROM reports WHERE game_id = $1",
        )
        .bind(game)
        .fetch_optional(&self.pool)
        .await?;
        let Some(r) = row else {
            return Ok(None);
        };
        Ok(Some(ReportRow {
            queued_at: r.try_get("queued_at")?,
            claimed_at: r.try_get("claimed_at")?,
            searched: r.try_get("searched")?,
            positions: r.try_get("positions")?,
            done_at: r.try_get("done_at")?,
            body: r.try_get("body")?,
            error: r.try_get("error")?,
        }))
    }

    /// How many reports not yet done were queued before this time.
    pub async fn reports_ahead(&self, queued_at: i64) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT COUNT(*) FROM reports WHERE done_at IS NULL AND queued_at < $1",
        )
        .bind(queued_at)
        .fetch_one(&self.pool)
        .await?)
    }

    /// Takes the oldest report waiting, or one whose worker has not said anything since
    /// `stale_before` (its server stopped), for the worker `claimant`: the game's id.
    pub async fn claim_report(
        &self,
        claimant: &str,
        now: i64,
        stale_before: i64,
    ) -> Result<Option<String>, StoreError> {
        // Another server claiming at the same moment takes the next row.
        let claim = format!(
            "UPDATE reports SET claimed_at = $1, server = $2
             WHERE game_id = (SELECT game_id FROM reports
                              WHERE done_at IS NULL AND (claimed_at IS NULL OR claimed_at < $3)
                              ORDER BY queued_at, game_id LIMIT 1{})
               AND done_at IS NULL AND (claimed_at IS NULL OR claimed_at < $3)
             RETURNING game_id",
            self.dialect.skip_locked()
        );
        Ok(sqlx::query_scalar(sqlx::AssertSqlSafe(claim))
            .bind(now)
            .bind(claimant)
            .bind(stale_before)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// Lets go of the reports this server's workers had taken: at start on SQLite, where
    /// this server is the only one and a claim left over is from before a restart.
    pub async fn release_reports(&self) -> Result<(), StoreError> {
        if !self.is_shared() {
            sqlx::query("UPDATE reports SET claimed_at = NULL WHERE done_at IS NULL")
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// How far a report being made is (`None`: as before); renews the claim. `false`
    /// when the report is no longer `claimant`'s (another worker took it over).
    pub async fn report_progress(
        &self,
        game: &str,
        claimant: &str,
        progress: Option<(usize, usize)>,
        now: i64,
    ) -> Result<bool, StoreError> {
        let count = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        let (searched, positions) = progress.unzip();
        let done = sqlx::query(
            "UPDATE reports SET searched = COALESCE($3, searched),
                positions = COALESCE($4, positions), claimed_at = $5
             WHERE game_id = $1 AND server = $2 AND done_at IS NULL",
        )
        .bind(game)
        .bind(claimant)
        .bind(searched.map(count))
        .bind(positions.map(count))
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Keeps a finished report, if it is still `claimant`'s.
    pub async fn finish_report(
        &self,
        game: &str,
        claimant: &str,
        body: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE reports SET done_at = $3, body = $4, searched = positions
             WHERE game_id = $1 AND server = $2 AND done_at IS NULL",
        )
        .bind(game)
        .bind(claimant)
        .bind(now)
        .bind(body)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Ends a report that cannot be made, saying why: it is not tried again.
    pub async fn fail_report(
        &self,
        game: &str,
        claimant: &str,
        error: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE reports SET done_at = $3, error = $4
             WHERE game_id = $1 AND server = $2 AND done_at IS NULL",
        )
        .bind(game)
        .bind(claimant)
        .bind(now)
        .bind(error)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

/// Queues a report in a transaction already open (the game's end is written with it).
pub(super) async fn queue_in(
    tx: &mut Transaction<'_, Any>,
    game: &str,
    now: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "INSERT INTO reports (game_id, queued_at) VALUES ($1, $2)
         ON CONFLICT (game_id) DO NOTHING",
    )
    .bind(game)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{every_database, TestDatabase};
    use crate::store::games::tests::row as sample;
    use crate::store::{Store, StoredGame};

    async fn game(store: &Store, id: &str) {
        let mut row = sample(id);
        row.result = Some("1-0".to_string());
        store
            .insert(
                &StoredGame {
                    row,
                    seats: Vec::new(),
                    moves: Vec::new(),
                    chat: Vec::new(),
                },
                None,
            )
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn a_report_is_queued_once_claimed_once_and_kept() {
        for db in every_database().await {
            let store = db.open().await;
            game(&store, "g1").await;
            game(&store, "g2").await;
            assert!(store.queue_report("g1", 10).await.unwrap());
            assert!(!store.queue_report("g1", 11).await.unwrap(), "queued once");
            assert!(store.queue_report("g2", 12).await.unwrap());
            assert_eq!(store.reports_ahead(12).await.unwrap(), 1);
            // The oldest first, then the next; none while both are held.
            let claim = |who: &'static str, now, stale| {
                let store = &store;
                async move { store.claim_report(who, now, stale).await.unwrap() }
            };
            assert_eq!(claim("a", 20, 0).await.as_deref(), Some("g1"));
            assert_eq!(claim("b", 21, 0).await.as_deref(), Some("g2"));
            assert_eq!(claim("c", 22, 0).await, None);
            assert!(store
                .report_progress("g1", "a", Some((3, 9)), 30)
                .await
                .unwrap());
            let row = store.report("g1").await.unwrap().unwrap();
            assert_eq!(
                (row.searched, row.positions, row.claimed_at),
                (3, 9, Some(30))
            );
            assert!(store.report_progress("g1", "a", None, 31).await.unwrap());
            let row = store.report("g1").await.unwrap().unwrap();
            assert_eq!(
                (row.searched, row.claimed_at),
                (3, Some(31)),
                "renewed only"
            );
            // g2's worker said nothing since 21: stale from 25 on, taken over by c, and
            // b's word no longer counts. g1's was renewed.
            assert_eq!(claim("c", 40, 25).await.as_deref(), Some("g2"));
            assert!(!store
                .report_progress("g2", "b", Some((1, 2)), 41)
                .await
                .unwrap());
            store.finish_report("g2", "b", "{}", 42).await.unwrap();
            assert_eq!(store.report("g2").await.unwrap().unwrap().done_at, None);
            store.finish_report("g1", "a", "{}", 50).await.unwrap();
            let row = store.report("g1").await.unwrap().unwrap();
            assert_eq!(
                (row.done_at, row.body.as_deref(), row.searched),
                (Some(50), Some("{}"), 9)
            );
            assert_eq!(store.reports_ahead(100).await.unwrap(), 1);
            store.finish_report("g2", "c", "{}", 61).await.unwrap();
            assert_eq!(claim("e", 70, 100).await, None, "done reports stay done");
            assert!(store.report("none").await.unwrap().is_none());
            // A report that cannot be made says why, and is not tried again.
            game(&store, "g3").await;
            store.queue_report("g3", 80).await.unwrap();
            assert_eq!(claim("f", 81, 0).await.as_deref(), Some("g3"));
            store.fail_report("g3", "f", "damaged", 82).await.unwrap();
            let row = store.report("g3").await.unwrap().unwrap();
            assert_eq!(
                (row.done_at, row.body, row.error.as_deref()),
                (Some(82), None, Some("damaged"))
            );
            assert_eq!(
                claim("g", 1_000_000, 999_999).await,
                None,
                "not tried again"
            );
            drop(db);
        }
    }

    #[tokio::test]
    async fn two_servers_never_make_the_same_report_at_once() {
        let Some(db) = TestDatabase::postgres().await else {
            return;
        };
        let (one, other) = (db.open().await, db.open().await);
        for n in 0..20 {
            game(&one, &format!("g{n}")).await;
            one.queue_report(&format!("g{n}"), n).await.unwrap();
        }
        let (a, b) = tokio::join!(claim_all(&one), claim_all(&other));
        let mut all: Vec<String> = a.into_iter().chain(b).collect();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 20);
    }

    async fn claim_all(store: &Store) -> Vec<String> {
        let mut got = Vec::new();
        while let Some(id) = store.claim_report("worker", 100, 0).await.unwrap() {
            got.push(id);
        }
        got
    }
}
