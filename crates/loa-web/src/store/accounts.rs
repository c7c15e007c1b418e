//! Accounts, their API tokens and their vacation days; the counts behind the limits by
//! name (sign-ins), by client (sign-ups) and by address (reset links).

use super::{Store, StoreError};
use crate::vacation::Vacation;
use sqlx::any::AnyRow;
use sqlx::Row;

const ACCOUNT_COLUMNS: &str = "id, name, email, bot, created_at, deleted_at";

/// What a limit counts: each tally is a table of its own, of the key a request is
/// counted under and when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tally {
    /// Accounts made, by the client's network.
    SignUps,
    /// Reset links asked for, by the client's network and by the address asked about.
    ResetRequests,
}

impl Tally {
    /// The tally's table, and its key's column.
    fn table(self) -> (&'static str, &'static str) {
        match self {
            Tally::SignUps => ("sign_ups", "network"),
            Tally::ResetRequests => ("password_reset_requests", "limit_key"),
        }
    }
}

/// An account as the rest of the server sees it (its password hash stays here).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRow {
    pub id: i64,
    pub name: String,
    pub email: Option<String>,
    pub bot: bool,
    pub created_at: i64,
    pub deleted: bool,
}

/// An API token as listed: never the token itself, which is kept only as a hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenRow {
    pub id: i64,
    pub label: String,
    pub created_at: i64,
    pub used_at: Option<i64>,
}

/// The password set and every other way in closed, as [`Store::set_password`] says,
/// within the caller's transaction.
pub(super) async fn new_password(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: i64,
    password_hash: &str,
    keep: Option<&str>,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE accounts SET password_hash = $2 WHERE id = $1 AND deleted_at IS NULL")
        .bind(id)
        .bind(password_hash)
        .execute(&mut **tx)
        .await?;
    sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND id IS DISTINCT FROM $2")
        .bind(id)
        .bind(keep)
        .execute(&mut **tx)
        .await?;
    for statement in [
        "DELETE FROM api_tokens WHERE account_id = $1",
        "DELETE FROM devices WHERE account_id = $1",
    ] {
        sqlx::query(statement).bind(id).execute(&mut **tx).await?;
    }
    sqlx::query(
        "UPDATE password_resets SET used_at = $2 WHERE account_id = $1 AND used_at IS NULL",
    )
    .bind(id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub(super) fn account_row(r: &AnyRow) -> Result<AccountRow, sqlx::Error> {
    Ok(AccountRow {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        email: r.try_get("email")?,
        bot: super::flag(r, "bot")?,
        created_at: r.try_get("created_at")?,
        deleted: r.try_get::<Option<i64>, _>("deleted_at")?.is_some(),
    })
}

impl Store {
    /// A new account; `None` when its name (ignoring case) is taken.
    pub async fn create_account(
        &self,
        name: &str,
        key: &str,
        password_hash: &str,
        email: Option<&str>,
        bot: bool,
        now: i64,
    ) -> Result<Option<AccountRow>, StoreError> {
        let inserted: Option<i64> = sqlx::query_scalar(
            "INSERT INTO accounts (name, name_key, password_hash, email, bot, created_at)
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (name_key) DO NOTHING RETURNING id",
        )
        .bind(name)
        .bind(key)
        .bind(password_hash)
        .bind(email)
        .bind(i64::from(bot))
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        let Some(id) = inserted else {
            return Ok(None);
        };
        Ok(Some(AccountRow {
            id,
            name: name.to_string(),
            email: email.map(str::to_string),
            bot,
            created_at: now,
            deleted: false,
        }))
    }

    /// The account a name leads to, with its password hash.
    pub async fn account_by_key(
        &self,
        key: &str,
    ) -> Result<Option<(AccountRow, String)>, StoreError> {
        let select =
            format!("SELECT {ACCOUNT_COLUMNS}, password_hash FROM accounts WHERE name_key = $1");
        let Some(r) = sqlx::query(sqlx::AssertSqlSafe(select))
            .bind(key)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        Ok(Some((account_row(&r)?, r.try_get("password_hash")?)))
    }

    pub async fn account(&self, id: i64) -> Result<Option<AccountRow>, StoreError> {
        let select = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = $1");
        let row = sqlx::query(sqlx::AssertSqlSafe(select))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(account_row).transpose()?)
    }

    pub async fn password_hash(&self, id: i64) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT password_hash FROM accounts WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    /// Sets a new password and ends every session but `keep` (the one that set it, if
    /// any), and revokes every API token and device of the account and every reset link
    /// mailed before: a session, a token made, or a browser signed in, by whoever held a
    /// session must not outlive the password that ends it. One transaction: a stop
    /// half-way leaves no way in open.
    pub async fn set_password(
        &self,
        id: i64,
        password_hash: &str,
        keep: Option<&str>,
        now: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        new_password(&mut tx, id, password_hash, keep, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Deletes an account: its games stay, under the name `deleted-N`; its password,
    /// e-mail (with its links and reply addresses), sessions, tokens, seeks, blocks (its
    /// own and of it) and open challenges go. Answers the games renamed: each has a new version, so that a copy
    /// held in memory with the old name is read again before it is written over it.
    pub async fn delete_account(&self, id: i64, now: i64) -> Result<Vec<String>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let anonymous = format!("deleted-{id}");
        sqlx::query(
            "UPDATE accounts SET name = $2, name_key = $2, password_hash = '', email = NULL,
                email_verified_at = NULL, unsubscribe_token = NULL, notices = 'off', deleted_at = $3
             WHERE id = $1",
        )
        .bind(id)
        .bind(&anonymous)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        // The games keep the account, under its new name (the names' JSON rewritten
        // here: the two databases' JSON functions differ).
        let games: Vec<(String, String, i64)> = sqlx::query_as(
            "SELECT id, names, CASE WHEN black_account = $1 THEN 0 ELSE 1 END AS seat
             FROM games WHERE black_account = $1 OR white_account = $1",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        let mut renamed = Vec::with_capacity(games.len());
        for (game, names, seat) in games {
            let mut names: Vec<Option<String>> =
                serde_json::from_str(&names).unwrap_or_else(|_| vec![None, None]);
            names.resize(2, None);
            names[usize::from(seat != 0)] = Some(anonymous.clone());
            let version: i64 = sqlx::query_scalar(
                "UPDATE games SET names = $2, version = version + 1 WHERE id = $1
                 RETURNING version",
            )
            .bind(&game)
            .bind(serde_json::to_string(&names).unwrap_or_default())
            .fetch_one(&mut *tx)
            .await?;
            let event = super::Event::Game {
                id: game.clone(),
                version,
            };
            self.announce_in(&mut tx, &event).await?;
            renamed.push(game);
        }
        for statement in [
            "DELETE FROM sessions WHERE account_id = $1",
            "DELETE FROM api_tokens WHERE account_id = $1",
            "DELETE FROM devices WHERE account_id = $1",
            "DELETE FROM email_verifications WHERE account_id = $1",
            "DELETE FROM password_resets WHERE account_id = $1",
            "DELETE FROM mail_moves WHERE account_id = $1",
            "DELETE FROM seeks WHERE account_id = $1 AND game_id IS NULL",
            "DELETE FROM blocks WHERE account_id = $1 OR blocked_id = $1",
            "UPDATE challenges SET status = 'cancelled'
             WHERE status = 'open' AND (from_account = $1 OR to_account = $1)",
        ] {
            sqlx::query(statement).bind(id).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(renamed)
    }

    /// The site's own bot account of this name (an engine level), made the first time
    /// it is asked for. Nobody signs in as it: it has no password.
    pub async fn bot_account(&self, name: &str, now: i64) -> Result<AccountRow, StoreError> {
        let key = name.to_ascii_lowercase();
        if let Some((account, _)) = self.account_by_key(&key).await? {
            return Ok(account);
        }
        if let Some(account) = self.create_account(name, &key, "", None, true, now).await? {
            return Ok(account);
        }
        // Made meanwhile by another request.
        let made = self.account_by_key(&key).await?;
        Ok(made.ok_or(StoreError(sqlx::Error::RowNotFound))?.0)
    }

    pub async fn create_token(
        &self,
        account: i64,
        label: &str,
        token_hash: &str,
        now: i64,
    ) -> Result<i64, StoreError> {
        let id = sqlx::query_scalar(
            "INSERT INTO api_tokens (account_id, label, token_hash, created_at)
             VALUES ($1, $2, $3, $4) RETURNING id",
        )
        .bind(account)
        .bind(label)
        .bind(token_hash)
        .bind(now)
        .fetch_one(&self.pool)
        .await?;
        Ok(id)
    }

    /// The account an API token acts as (noting when it was used).
    pub async fn account_by_token(
        &self,
        token_hash: &str,
        now: i64,
    ) -> Result<Option<AccountRow>, StoreError> {
        let token: Option<(i64, Option<i64>)> =
            sqlx::query_as("SELECT account_id, used_at FROM api_tokens WHERE token_hash = $1")
                .bind(token_hash)
                .fetch_optional(&self.pool)
                .await?;
        // Written at most once a minute: every request of a bot carries its token, and on
        // SQLite each write waits for the one writer.
        if let Some((_, used_at)) = token {
            if used_at.is_none_or(|at| now - at >= 60_000) {
                sqlx::query("UPDATE api_tokens SET used_at = $2 WHERE token_hash = $1")
                    .bind(token_hash)
                    .bind(now)
                    .execute(&self.pool)
                    .await?;
            }
        }
        let account = token.map(|(account, _)| account);
        match account {
            Some(id) => self.account(id).await,
            None => Ok(None),
        }
    }

    pub async fn tokens(&self, account: i64) -> Result<Vec<TokenRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, label, created_at, used_at FROM api_tokens WHERE account_id = $1
             ORDER BY id",
        )
        .bind(account)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(TokenRow {
                    id: r.try_get("id")?,
                    label: r.try_get("label")?,
                    created_at: r.try_get("created_at")?,
                    used_at: r.try_get("used_at")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError)
    }

    /// Revokes one of the account's tokens; whether there was one.
    pub async fn revoke_token(&self, account: i64, id: i64) -> Result<bool, StoreError> {
        let deleted = sqlx::query("DELETE FROM api_tokens WHERE account_id = $1 AND id = $2")
            .bind(account)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(deleted.rows_affected() == 1)
    }

    /// Marks an account as a bot (its API tokens play; the lobby shows BOT).
    pub async fn set_bot(&self, account: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE accounts SET bot = 1 WHERE id = $1")
            .bind(account)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

impl Store {
    pub async fn vacation(&self, account: i64) -> Result<Vacation, StoreError> {
        let row = sqlx::query(
            "SELECT vacation_until, vacation_year, vacation_days FROM accounts WHERE id = $1",
        )
        .bind(account)
        .fetch_optional(&self.pool)
        .await?;
        let Some(r) = row else {
            return Ok(Vacation::default());
        };
        let out_of_range = |column: &str| sqlx::Error::ColumnDecode {
            index: column.into(),
            source: "out of range".into(),
        };
        let year: Option<i64> = r.try_get("vacation_year")?;
        let days: i64 = r.try_get("vacation_days")?;
        Ok(Vacation {
            until: r.try_get("vacation_until")?,
            year: year
                .map(i32::try_from)
                .transpose()
                .map_err(|_| out_of_range("vacation_year"))?,
            days: u32::try_from(days).map_err(|_| out_of_range("vacation_days"))?,
        })
    }

    pub async fn set_vacation(&self, account: i64, vacation: &Vacation) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE accounts SET vacation_until = $2, vacation_year = $3, vacation_days = $4
             WHERE id = $1",
        )
        .bind(account)
        .bind(vacation.until)
        .bind(vacation.year.map(i64::from))
        .bind(i64::from(vacation.days))
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

impl Store {
    /// How many sign-ins failed for a name since `since`.
    pub async fn sign_in_failures(&self, name_key: &str, since: i64) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT COUNT(*) FROM sign_in_failures WHERE name_key = $1 AND at > $2",
        )
        .bind(name_key)
        .bind(since)
        .fetch_one(&self.pool)
        .await?)
    }

    /// Counts a failed sign-in, and forgets every failure from before `forget_before`.
    pub async fn note_sign_in_failure(
        &self,
        name_key: &str,
        now: i64,
        forget_before: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM sign_in_failures WHERE at <= $1")
            .bind(forget_before)
            .execute(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO sign_in_failures (name_key, at) VALUES ($1, $2)")
            .bind(name_key)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Notes a browser the account signed in from, by its device cookie's hash; the
    /// account keeps its `keep` latest devices, so that the sign-in limits they each have
    /// cannot be added up without end.
    pub async fn add_device(
        &self,
        token_hash: &str,
        account: i64,
        now: i64,
        keep: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("INSERT INTO devices (token_hash, account_id, created_at) VALUES ($1, $2, $3)")
            .bind(token_hash)
            .bind(account)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "DELETE FROM devices WHERE account_id = $1 AND token_hash NOT IN (
                 SELECT token_hash FROM devices WHERE account_id = $1
                 ORDER BY created_at DESC, token_hash LIMIT $2)",
        )
        .bind(account)
        .bind(keep)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The account a device cookie's hash was given to after `since`, if any.
    pub async fn device_account(
        &self,
        token_hash: &str,
        since: i64,
    ) -> Result<Option<i64>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT account_id FROM devices WHERE token_hash = $1 AND created_at > $2",
        )
        .bind(token_hash)
        .bind(since)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Counts a request under `key` (a client's network, an address) for a limit, and
    /// forgets every one of the tally's from before `forget_before`.
    pub async fn note_request(
        &self,
        tally: Tally,
        key: &str,
        now: i64,
        forget_before: i64,
    ) -> Result<(), StoreError> {
        let (table, column) = tally.table();
        let mut tx = self.pool.begin().await?;
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "DELETE FROM {table} WHERE at <= $1"
        )))
        .bind(forget_before)
        .execute(&mut *tx)
        .await?;
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO {table} ({column}, at) VALUES ($1, $2)"
        )))
        .bind(key)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Takes back the requests counted under `key` at `at` (one refused).
    pub async fn forget_request(&self, tally: Tally, key: &str, at: i64) -> Result<(), StoreError> {
        let (table, column) = tally.table();
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "DELETE FROM {table} WHERE {column} = $1 AND at = $2"
        )))
        .bind(key)
        .bind(at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// How many requests were counted under `key` since `since`.
    pub async fn requests(&self, tally: Tally, key: &str, since: i64) -> Result<i64, StoreError> {
        let (table, column) = tally.table();
        Ok(sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT COUNT(*) FROM {table} WHERE {column} = $1 AND at > $2"
        )))
        .bind(key)
        .bind(since)
        .fetch_one(&self.pool)
        .await?)
    }

    pub async fn clear_sign_in_failures(&self, name_key: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sign_in_failures WHERE name_key = $1")
            .bind(name_key)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {

    #[tokio::test]
    async fn names_are_unique_without_case_and_deletion_anonymises() {
        for db in super::super::testing::every_database().await {
            let store = db.open().await;
            let ann = store
                .create_account("Ann", "ann", "h", Some("a@b.org"), false, 1)
                .await
                .unwrap()
                .unwrap();
            assert!(store
                .create_account("ANN", "ann", "h", None, false, 2)
                .await
                .unwrap()
                .is_none());
            let (found, hash) = store.account_by_key("ann").await.unwrap().unwrap();
            assert_eq!((found.id, hash.as_str()), (ann.id, "h"));
            let id = store.create_token(ann.id, "bot", "th", 3).await.unwrap();
            assert_eq!(
                store.account_by_token("th", 4).await.unwrap().unwrap().id,
                ann.id
            );
            assert_eq!(store.tokens(ann.id).await.unwrap()[0].used_at, Some(4));
            store.delete_account(ann.id, 5).await.unwrap();
            let gone = store.account(ann.id).await.unwrap().unwrap();
            assert!(gone.deleted);
            assert_eq!(gone.name, format!("deleted-{}", ann.id));
            assert_eq!(gone.email, None);
            assert!(store.account_by_token("th", 6).await.unwrap().is_none());
            assert!(!store.revoke_token(ann.id, id).await.unwrap());
            // The name is free again; the old games keep the deleted account.
            assert!(store
                .create_account("ann", "ann", "h", None, false, 7)
                .await
                .unwrap()
                .is_some());
        }
    }

    #[tokio::test]
    async fn failed_sign_ins_are_counted_by_name_for_a_while_and_cleared() {
        for db in super::super::testing::every_database().await {
            let (store, other_server) = (db.open().await, db.open().await);
            for at in 1_000..1_010 {
                store
                    .note_sign_in_failure("ann", at, at - 60_000)
                    .await
                    .unwrap();
            }
            // Every server counts the same failures.
            assert_eq!(other_server.sign_in_failures("ann", 0).await.unwrap(), 10);
            assert_eq!(store.sign_in_failures("bob", 0).await.unwrap(), 0);
            // A minute on, the oldest no longer count, and are forgotten.
            assert_eq!(store.sign_in_failures("ann", 1_004).await.unwrap(), 5);
            store
                .note_sign_in_failure("bob", 61_005, 1_005)
                .await
                .unwrap();
            assert_eq!(store.sign_in_failures("ann", 0).await.unwrap(), 4);
            store.clear_sign_in_failures("ann").await.unwrap();
            assert_eq!(store.sign_in_failures("ann", 0).await.unwrap(), 0);
            assert_eq!(store.sign_in_failures("bob", 0).await.unwrap(), 1);
        }
    }

    #[tokio::test]
    async fn sign_ups_are_counted_by_network_for_a_day() {
        use super::Tally::SignUps;
        for db in super::super::testing::every_database().await {
            let (store, other_server) = (db.open().await, db.open().await);
            for at in [1_000, 2_000, 3_000] {
                store
                    .note_request(SignUps, "203.0.113.7", at, 0)
                    .await
                    .unwrap();
            }
            async fn counted(store: &super::Store, key: &str, since: i64) -> i64 {
                store.requests(SignUps, key, since).await.unwrap()
            }
            assert_eq!(counted(&other_server, "203.0.113.7", 0).await, 3);
            assert_eq!(counted(&store, "203.0.113.7", 1_000).await, 2);
            assert_eq!(counted(&store, "2001:db8::/64", 0).await, 0);
            // Those from before the day are forgotten as the next is counted.
            store
                .note_request(SignUps, "2001:db8::/64", 9_000, 2_000)
                .await
                .unwrap();
            assert_eq!(counted(&store, "203.0.113.7", 0).await, 1);
            assert_eq!(counted(&store, "2001:db8::/64", 0).await, 1);
            // One refused is taken back.
            store
                .forget_request(SignUps, "2001:db8::/64", 9_000)
                .await
                .unwrap();
            assert_eq!(counted(&store, "2001:db8::/64", 0).await, 0);
        }
    }
}
