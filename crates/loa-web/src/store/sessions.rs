//! Sign-in sessions for `tower-sessions`, in the same database as everything else (its
//! own SQLite store is built on another `sqlx` than ours). A session row names its
//! account, so that "sign out everywhere" is one statement.

use super::{Store, StoreError};
use async_trait::async_trait;
use sqlx::{AnyPool, Row};
use tower_sessions::session::{Id, Record};
use tower_sessions::session_store::{Error, ExpiredDeletion, Result as SessionResult};
use tower_sessions::SessionStore;

/// The key of the signed-in account's id in a session's data.
pub const ACCOUNT_KEY: &str = "account";

/// The sessions table, as `tower-sessions` uses it.
#[derive(Clone, Debug)]
pub struct Sessions {
    pool: AnyPool,
}

impl Store {
    pub fn sessions(&self) -> Sessions {
        Sessions {
            pool: self.pool.clone(),
        }
    }

    /// Ends every session of an account but `except` (sign out everywhere).
    pub async fn end_sessions(&self, account: i64, except: Option<&str>) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND id IS DISTINCT FROM $2")
            .bind(account)
            .bind(except)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

/// How often expired sessions are swept out.
const SWEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

impl Sessions {
    /// Sweeps expired sessions out, at the start and every hour; a failed sweep is
    /// logged and tried again at the next.
    pub fn sweep_expired(self) {
        tokio::spawn(async move {
            loop {
                if let Err(e) = self.delete_expired().await {
                    tracing::warn!("expired sessions were not swept: {e}");
                }
                tokio::time::sleep(SWEEP_EVERY).await;
            }
        });
    }
}

#[async_trait]
impl ExpiredDeletion for Sessions {
    async fn delete_expired(&self) -> SessionResult<()> {
        let now = time::OffsetDateTime::now_utc().unix_timestamp();
        sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
            .bind(now)
            .execute(&self.pool)
            .await
            .map_err(backend)?;
        Ok(())
    }
}

fn backend(err: sqlx::Error) -> Error {
    Error::Backend(err.to_string())
}

#[async_trait]
impl SessionStore for Sessions {
    /// A new session: written only under an id no session has, drawn again on the
    /// (unlikely) collision.
    async fn create(&self, record: &mut Record) -> SessionResult<()> {
        let data = serde_json::to_string(&record.data).map_err(|e| Error::Encode(e.to_string()))?;
        let account = record.data.get(ACCOUNT_KEY).and_then(|v| v.as_i64());
        loop {
            let inserted = sqlx::query(
                "INSERT INTO sessions (id, account_id, data, expires_at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (id) DO NOTHING",
            )
            .bind(record.id.to_string())
            .bind(account)
            .bind(&data)
            .bind(record.expiry_date.unix_timestamp())
            .execute(&self.pool)
            .await
            .map_err(backend)?;
            if inserted.rows_affected() == 1 {
                return Ok(());
            }
            record.id = Id::default();
        }
    }

    async fn save(&self, record: &Record) -> SessionResult<()> {
        let data = serde_json::to_string(&record.data).map_err(|e| Error::Encode(e.to_string()))?;
        let account = record.data.get(ACCOUNT_KEY).and_then(|v| v.as_i64());
        sqlx::query(
            "INSERT INTO sessions (id, account_id, data, expires_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (id) DO UPDATE SET account_id = $2, data = $3, expires_at = $4",
        )
        .bind(record.id.to_string())
        .bind(account)
        .bind(data)
        .bind(record.expiry_date.unix_timestamp())
        .execute(&self.pool)
        .await
        .map_err(backend)?;
        Ok(())
    }

    async fn load(&self, id: &Id) -> SessionResult<Option<Record>> {
        let now = time::OffsetDateTime::now_utc().unix_timestamp();
        let row =
            sqlx::query("SELECT data, expires_at FROM sessions WHERE id = $1 AND expires_at > $2")
                .bind(id.to_string())
                .bind(now)
                .fetch_optional(&self.pool)
                .await
                .map_err(backend)?;
        let Some(row) = row else {
            return Ok(None);
        };
        let data: String = row.try_get("data").map_err(backend)?;
        let expires: i64 = row.try_get("expires_at").map_err(backend)?;
        Ok(Some(Record {
            id: *id,
            data: serde_json::from_str(&data).map_err(|e| Error::Decode(e.to_string()))?,
            expiry_date: time::OffsetDateTime::from_unix_timestamp(expires)
                .map_err(|e| Error::Decode(e.to_string()))?,
        }))
    }

    async fn delete(&self, id: &Id) -> SessionResult<()> {
        sqlx::query("DELETE FROM sessions WHERE id = $1")
            .bind(id.to_string())
            .execute(&self.pool)
            .await
            .map_err(backend)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn expired_sessions_are_swept_live_ones_kept_and_new_ids_never_reused() {
        for db in super::super::testing::every_database().await {
            let store = db.open().await;
            let sessions = store.sessions();
            let now = time::OffsetDateTime::now_utc();
            let mut ids = Vec::new();
            for expiry in [
                now - time::Duration::seconds(1),
                now + time::Duration::hours(1),
            ] {
                let record = Record {
                    id: Id::default(),
                    data: Default::default(),
                    expiry_date: expiry,
                };
                sessions.save(&record).await.unwrap();
                ids.push(record.id);
            }
            sessions.delete_expired().await.unwrap();
            // A new session never takes the id of one that exists.
            let mut taken = Record {
                id: ids[1],
                data: Default::default(),
                expiry_date: now + time::Duration::hours(1),
            };
            sessions.create(&mut taken).await.unwrap();
            assert_ne!(taken.id, ids[1]);
            sqlx::query("DELETE FROM sessions WHERE id = $1")
                .bind(taken.id.to_string())
                .execute(&sessions.pool)
                .await
                .unwrap();
            let left: Vec<String> = sqlx::query_scalar("SELECT id FROM sessions")
                .fetch_all(&sessions.pool)
                .await
                .unwrap();
            assert_eq!(left, [ids[1].to_string()]);
        }
    }
}
