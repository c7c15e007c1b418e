//! Seeks (an open offer to play anyone) and challenges (to one player).

use super::{Limited, Store, StoreError};
use sqlx::any::AnyRow;
use sqlx::Row;

const SEEK_COLUMNS: &str = "s.id, s.account_id, s.token, s.variant, s.rules, s.time_control,
    s.rated, s.color, s.created_at, s.game_id, a.name";

const CHALLENGE_COLUMNS: &str = "c.id, c.from_account, c.to_account, c.variant, c.rules,
    c.time_control, c.rated, c.color, c.created_at, c.status, c.game_id,
    f.name AS from_name, t.name AS to_name";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeekRow {
    pub id: String,
    /// The account that made it; `None` for a person not signed in.
    pub account: Option<i64>,
    /// The maker's name, when an account made it.
    pub name: Option<String>,
    /// The token of the seat the maker will hold.
    pub token: String,
    pub variant: String,
    pub rules: String,
    /// JSON: the time control.
    pub time_control: String,
    pub rated: bool,
    /// `black`, `white` or `random`: the maker's.
    pub color: String,
    pub created_at: i64,
    pub game_id: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRow {
    pub id: String,
    pub from_account: i64,
    pub from_name: String,
    pub to_account: i64,
    pub to_name: String,
    pub variant: String,
    pub rules: String,
    pub time_control: String,
    pub rated: bool,
    /// The challenger's colour.
    pub color: String,
    pub created_at: i64,
    /// `open`, `accepted`, `declined` or `cancelled`.
    pub status: String,
    pub game_id: Option<String>,
}

fn seek_row(r: &AnyRow) -> Result<SeekRow, sqlx::Error> {
    Ok(SeekRow {
        id: r.try_get("id")?,
        account: r.try_get("account_id")?,
        name: r.try_get("name")?,
        token: r.try_get("token")?,
        variant: r.try_get("variant")?,
        rules: r.try_get("rules")?,
        time_control: r.try_get("time_control")?,
        rated: super::flag(r, "rated")?,
        color: r.try_get("color")?,
        created_at: r.try_get("created_at")?,
        game_id: r.try_get("game_id")?,
    })
}

fn challenge_row(r: &AnyRow) -> Result<ChallengeRow, sqlx::Error> {
    Ok(ChallengeRow {
        id: r.try_get("id")?,
        from_account: r.try_get("from_account")?,
        from_name: r.try_get("from_name")?,
        to_account: r.try_get("to_account")?,
        to_name: r.try_get("to_name")?,
        variant: r.try_get("variant")?,
        rules: r.try_get("rules")?,
        time_control: r.try_get("time_control")?,
        rated: super::flag(r, "rated")?,
        color: r.try_get("color")?,
        created_at: r.try_get("created_at")?,
        status: r.try_get("status")?,
        game_id: r.try_get("game_id")?,
    })
}

/// The condition of a seek `s` still open: not taken, and made after the time `live`,
/// or after the time `correspondence` for a correspondence clock (its kind is in the
/// clock's JSON as the server writes it). The lobby's list and the seeks' limits both
/// read it, so they never differ on which seeks are open.
fn open_seek(live: &str, correspondence: &str) -> String {
    format!(
        "s.game_id IS NULL AND (s.created_at > {live} OR (s.created_at > {correspondence}
             AND s.time_control LIKE '%\"kind\":\"correspondence\"%'))"
    )
}

/// The places a new seek may take: at most `of_owner` open seeks of its account (or of
/// everyone not signed in, for a seek without one), and `of_network` of its client's
/// network; open as [`open_seek`] says, from these times.
#[derive(Clone, Copy, Debug)]
pub struct SeekRoom {
    pub live_since: i64,
    pub correspondence_since: i64,
    pub of_owner: i64,
    pub of_network: i64,
}

impl Store {
    /// Keeps a new seek, with the network of the client that made it (for a seek made
    /// without an account), if `room` has a place for it: counted and kept in one step,
    /// so that seeks sent at once never pass a limit. Whether it was kept.
    pub async fn insert_seek(
        &self,
        seek: &SeekRow,
        network: Option<&str>,
        room: &SeekRoom,
    ) -> Result<bool, StoreError> {
        let insert = format!(
            "INSERT INTO seeks (id, account_id, token, variant, rules, time_control, rated,
                color, created_at, network)
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10
             WHERE (SELECT COUNT(*) FROM seeks s WHERE {open}
                     AND (s.account_id = $2 OR ($2 IS NULL AND s.account_id IS NULL))) < $13
               AND ($10 IS NULL OR (SELECT COUNT(*) FROM seeks s WHERE {open}
                     AND s.account_id IS NULL AND s.network = $10) < $14)",
            open = open_seek("$11", "$12")
        );
        let insert = sqlx::query(sqlx::AssertSqlSafe(insert))
            .bind(&seek.id)
            .bind(seek.account)
            .bind(&seek.token)
            .bind(&seek.variant)
            .bind(&seek.rules)
            .bind(&seek.time_control)
            .bind(i64::from(seek.rated))
            .bind(&seek.color)
            .bind(seek.created_at)
            .bind(network)
            .bind(room.live_since)
            .bind(room.correspondence_since)
            .bind(room.of_owner)
            .bind(room.of_network);
        self.insert_one_at_a_time(insert, Some(Limited::Seeks))
            .await
    }

    pub async fn seek(&self, id: &str) -> Result<Option<SeekRow>, StoreError> {
        let select = format!(
            "SELECT {SEEK_COLUMNS} FROM seeks s LEFT JOIN accounts a ON a.id = s.account_id
             WHERE s.id = $1"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(select))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(seek_row).transpose()?)
    }

    /// The seeks still open (see [`open_seek`]), oldest first.
    pub async fn open_seeks(
        &self,
        live_since: i64,
        correspondence_since: i64,
        limit: usize,
    ) -> Result<Vec<SeekRow>, StoreError> {
        let select = format!(
            "SELECT {SEEK_COLUMNS} FROM seeks s LEFT JOIN accounts a ON a.id = s.account_id
             WHERE {} ORDER BY s.created_at, s.id LIMIT $3",
            open_seek("$1", "$2")
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(select))
            .bind(live_since)
            .bind(correspondence_since)
            .bind(i64::try_from(limit).unwrap_or(i64::MAX))
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(seek_row).collect::<Result<_, _>>()?)
    }

    /// How many seeks still open (see [`open_seek`]) people not signed in made from one
    /// client's `network`.
    pub async fn count_open_seeks_from(
        &self,
        network: &str,
        live_since: i64,
        correspondence_since: i64,
    ) -> Result<i64, StoreError> {
        let count = format!(
            "SELECT COUNT(*) FROM seeks s
             WHERE {} AND s.account_id IS NULL AND s.network = $3",
            open_seek("$1", "$2")
        );
        Ok(sqlx::query_scalar(sqlx::AssertSqlSafe(count))
            .bind(live_since)
            .bind(correspondence_since)
            .bind(network)
            .fetch_one(&self.pool)
            .await?)
    }

    /// Forgets the networks of seeks made before `before` (no longer open, whatever their
    /// clock), and the sign-ups counted before `sign_ups_before`: client addresses are
    /// kept only while a limit counts them.
    pub async fn forget_client_networks(
        &self,
        before: i64,
        sign_ups_before: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE seeks SET network = NULL WHERE network IS NOT NULL AND created_at <= $1",
        )
        .bind(before)
        .execute(&self.pool)
        .await?;
        sqlx::query("DELETE FROM sign_ups WHERE at <= $1")
            .bind(sign_ups_before)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Claims an open seek for a game about to be written: `false` if someone was first.
    pub async fn take_seek(&self, id: &str, game_id: &str) -> Result<bool, StoreError> {
        // The maker's network counted the seek while it was open: no longer kept.
        let taken = sqlx::query(
            "UPDATE seeks SET game_id = $2, network = NULL WHERE id = $1 AND game_id IS NULL",
        )
        .bind(id)
        .bind(game_id)
        .execute(&self.pool)
        .await?;
        Ok(taken.rows_affected() == 1)
    }

    /// Gives a claimed seek back (its game could not be written).
    pub async fn release_seek(&self, id: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE seeks SET game_id = NULL WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Withdraws an open seek; whether there was one.
    pub async fn delete_seek(&self, id: &str) -> Result<bool, StoreError> {
        let deleted = sqlx::query("DELETE FROM seeks WHERE id = $1 AND game_id IS NULL")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(deleted.rows_affected() == 1)
    }

    /// Keeps a new challenge if its sender has fewer than `most_open` open (expired
    /// ones closed first): counted and kept in one step. Whether it was kept.
    pub async fn insert_challenge(
        &self,
        c: &ChallengeRow,
        most_open: i64,
    ) -> Result<bool, StoreError> {
        let insert = sqlx::query(
            "INSERT INTO challenges (id, from_account, to_account, variant, rules, time_control,
                rated, color, created_at, status)
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10
             WHERE (SELECT COUNT(*) FROM challenges
                    WHERE from_account = $2 AND status = 'open') < $11",
        )
        .bind(&c.id)
        .bind(c.from_account)
        .bind(c.to_account)
        .bind(&c.variant)
        .bind(&c.rules)
        .bind(&c.time_control)
        .bind(i64::from(c.rated))
        .bind(&c.color)
        .bind(c.created_at)
        .bind(&c.status)
        .bind(most_open);
        self.insert_one_at_a_time(insert, Some(Limited::Challenges))
            .await
    }

    pub async fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, StoreError> {
        let select = format!(
            "SELECT {CHALLENGE_COLUMNS} FROM challenges c
             JOIN accounts f ON f.id = c.from_account JOIN accounts t ON t.id = c.to_account
             WHERE c.id = $1"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(select))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(challenge_row).transpose()?)
    }

    /// The open challenges an account sent or received, oldest first.
    pub async fn open_challenges(&self, account: i64) -> Result<Vec<ChallengeRow>, StoreError> {
        let select = format!(
            "SELECT {CHALLENGE_COLUMNS} FROM challenges c
             JOIN accounts f ON f.id = c.from_account JOIN accounts t ON t.id = c.to_account
             WHERE c.status = 'open' AND (c.from_account = $1 OR c.to_account = $1)
             ORDER BY c.created_at, c.id LIMIT 200"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(select))
            .bind(account)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(challenge_row).collect::<Result<_, _>>()?)
    }

    /// Moves an open challenge to `status` (with its game, when accepted): `false` if it
    /// was no longer open.
    pub async fn close_challenge(
        &self,
        id: &str,
        status: &str,
        game_id: Option<&str>,
    ) -> Result<bool, StoreError> {
        let closed = sqlx::query(
            "UPDATE challenges SET status = $2, game_id = $3 WHERE id = $1 AND status = 'open'",
        )
        .bind(id)
        .bind(status)
        .bind(game_id)
        .execute(&self.pool)
        .await?;
        Ok(closed.rows_affected() == 1)
    }

    /// Reopens a challenge whose game could not be written.
    pub async fn reopen_challenge(&self, id: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE challenges SET status = 'open', game_id = NULL WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seek(id: &str, created_at: i64) -> SeekRow {
        SeekRow {
            id: id.into(),
            account: None,
            name: None,
            token: format!("{id}-token"),
            variant: "standard".into(),
            rules: "draw".into(),
            time_control: r#"{"kind":"correspondence","days":3}"#.into(),
            rated: false,
            color: "random".into(),
            created_at,
            game_id: None,
        }
    }

    #[tokio::test]
    async fn a_seek_is_kept_only_where_its_owner_and_network_have_room() {
        for db in super::super::testing::every_database().await {
            let store = db.open().await;
            let room = SeekRoom {
                live_since: 0,
                correspondence_since: 0,
                of_owner: 3,
                of_network: 2,
            };
            let keep = |id: &'static str, network: Option<&'static str>| {
                let store = &store;
                async move {
                    let seek = seek(id, 5_000);
                    store.insert_seek(&seek, network, &room).await.unwrap()
                }
            };
            assert!(keep("a1", Some("net-a")).await);
            assert!(keep("a2", Some("net-a")).await);
            // The network's two places are taken; another network's are not.
            assert!(!keep("a3", Some("net-a")).await);
            assert!(keep("b1", Some("net-b")).await);
            // Three seeks without an account: their owner's places are taken.
            assert!(!keep("b2", Some("net-b")).await);
            assert!(!keep("c1", None).await);
            assert_eq!(store.count_open_seeks_from("net-a", 0, 0).await.unwrap(), 2);
            assert!(store.seek("a3").await.unwrap().is_none());
            // A seek taken frees its place.
            assert!(store.take_seek("a1", "game1").await.unwrap());
            assert!(store
                .insert_seek(&seek("a4", 6_000), Some("net-a"), &room)
                .await
                .unwrap());
        }
    }

    #[tokio::test]
    async fn a_seeks_network_is_kept_while_it_is_open_only() {
        for db in super::super::testing::every_database().await {
            let store = db.open().await;
            let client = "203.0.113.7";
            for (id, at) in [("old", 1_000), ("taken", 2_000), ("new", 3_000)] {
                let room = SeekRoom {
                    live_since: 0,
                    correspondence_since: 0,
                    of_owner: 100,
                    of_network: 10,
                };
                assert!(store
                    .insert_seek(&seek(id, at), Some(client), &room)
                    .await
                    .unwrap());
            }
            let open_from = || store.count_open_seeks_from(client, 0, 0);
            assert_eq!(open_from().await.unwrap(), 3);
            assert!(store.take_seek("taken", "game1").await.unwrap());
            assert_eq!(open_from().await.unwrap(), 2);
            // Taken back: its network went with the taking.
            store.release_seek("taken").await.unwrap();
            assert_eq!(open_from().await.unwrap(), 2);
            store.forget_client_networks(1_000, 0).await.unwrap();
            assert_eq!(open_from().await.unwrap(), 1);
        }
    }
}
