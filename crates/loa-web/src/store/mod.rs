//! The games on disk: one SQLite file in WAL mode through `sqlx`, its schema brought up
//! to date at start by the migrations in `crates/loa-web/migrations/` (the same queries
//! are meant to serve PostgreSQL). Every change to a game is one transaction, committed
//! before the change is acknowledged, so a server killed at any moment loses nothing it
//! has answered. This module is the only one that knows SQL.

mod accounts;
mod game_lists;
mod games;
mod mail;
mod pairing;
mod ratings;
mod sessions;
mod tournaments;

pub use accounts::AccountRow;
pub use game_lists::{GameFilter, Outcome};
pub use games::{Change, ChatRow, GameRow, MoveRow, SeatRow, StoredGame};
pub use pairing::{ChallengeRow, SeekRow};
pub use ratings::{RankedRow, RatingRow, RatingUpdate};
pub use sessions::ACCOUNT_KEY;
pub use tournaments::{BoardRow, EntrantRow, TournamentRow};

use sqlx::migrate::{Migrate, Migrator};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The schema, a file a version.
static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

/// How many connections read and write at once (SQLite still writes one at a time).
const CONNECTIONS: u32 = 4;

#[derive(Debug, thiserror::Error)]
#[error("database: {0}")]
pub struct StoreError(#[from] sqlx::Error);

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(err: sqlx::migrate::MigrateError) -> StoreError {
        StoreError(sqlx::Error::Migrate(Box::new(err)))
    }
}

impl StoreError {
    /// Whether a row held what no version of the schema writes (a value of the wrong type
    /// or out of range), rather than the database failing.
    pub fn is_damaged_row(&self) -> bool {
        matches!(
            self.0,
            sqlx::Error::ColumnDecode { .. } | sqlx::Error::Decode(_)
        )
    }
}

/// The database's file from the text a person gave. The store is one SQLite file: a URL
/// (`postgres://...`) is refused with why, as it would otherwise be taken for a folder
/// name.
pub fn database_path(text: &str) -> Result<PathBuf, String> {
    let quoted = loa_core::excerpt(text);
    if text.trim().is_empty() {
        return Err("give a file path for the database".into());
    }
    match text.split_once("://") {
        Some((scheme, _)) if scheme.to_ascii_lowercase().starts_with("postgres") => Err(format!(
            "'{quoted}': PostgreSQL is not supported yet: give a file path"
        )),
        Some(_) => Err(format!(
            "'{quoted}' is a URL: give a file path (the games are kept in SQLite)"
        )),
        None => Ok(PathBuf::from(text)),
    }
}

/// The database: games, accounts and their sessions and tokens, ratings, seeks and
/// challenges, each in a file of this module.
pub struct Store {
    pool: SqlitePool,
}

impl Store {
    /// Opens (or creates) the database and brings its schema up to date.
    pub async fn open(path: &Path) -> Result<Store, StoreError> {
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // NORMAL in WAL mode: a commit survives the process being killed; only a
            // power loss can take the last commits.
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5));
        let pool = SqlitePoolOptions::new()
            .max_connections(CONNECTIONS)
            .connect_with(options)
            .await?;
        adopt_numbered_schema(&pool).await?;
        MIGRATOR.run(&pool).await?;
        Ok(Store { pool })
    }
}

/// A database written before the schema moved to migration files counts its applied
/// migrations in `PRAGMA user_version`: those are recorded as the files' migrations
/// already applied, so that they are not run twice.
async fn adopt_numbered_schema(pool: &SqlitePool) -> Result<(), StoreError> {
    let mut conn = pool.acquire().await?;
    let version: i64 = sqlx::query_scalar("PRAGMA user_version")
        .fetch_one(&mut *conn)
        .await?;
    if version == 0 {
        return Ok(());
    }
    conn.ensure_migrations_table(MIGRATOR.table_name.as_ref())
        .await?;
    for migration in MIGRATOR.iter().filter(|m| m.version <= version) {
        // The migrator's own table, named as it names it by default.
        sqlx::query(
            "INSERT OR IGNORE INTO _sqlx_migrations (version, description, success, checksum,
                execution_time) VALUES (?1, ?2, TRUE, ?3, 0)",
        )
        .bind(migration.version)
        .bind(migration.description.as_ref())
        .bind(migration.checksum.as_ref())
        .execute(&mut *conn)
        .await?;
    }
    sqlx::query("PRAGMA user_version = 0")
        .execute(&mut *conn)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_database_is_a_file_never_a_url() {
        assert_eq!(
            database_path("postgres://u@h/games"),
            Err("'postgres://u@h/games': PostgreSQL is not supported yet: give a file path".into())
        );
        assert_eq!(
            database_path("postgresql://h/games"),
            Err("'postgresql://h/games': PostgreSQL is not supported yet: give a file path".into())
        );
        assert_eq!(
            database_path("sqlite://games.db"),
            Err(
                "'sqlite://games.db' is a URL: give a file path (the games are kept in SQLite)"
                    .into()
            )
        );
        assert_eq!(
            database_path(""),
            Err("give a file path for the database".into())
        );
        assert_eq!(database_path("games.db"), Ok("games.db".into()));
    }
    use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};

    #[tokio::test]
    async fn a_database_of_the_first_schema_is_brought_up_to_date_and_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.db");
        {
            // As the first version wrote it: its one script, counted in user_version.
            let options = SqliteConnectOptions::new()
                .filename(&path)
                .create_if_missing(true);
            let pool = SqlitePoolOptions::new()
                .connect_with(options)
                .await
                .unwrap();
            sqlx::raw_sql(include_str!("../../migrations/0001_games.sql"))
                .execute(&pool)
                .await
                .unwrap();
            sqlx::raw_sql(
                "PRAGMA user_version = 1;
                 INSERT INTO games (id, created_at, updated_at, variant, rules, start, players,
                    names, online) VALUES ('old', 1, 2, 'standard', 'draw', 's', '[]',
                    '[null,null]', 0);
                 INSERT INTO moves (game_id, ply, move, played_at) VALUES ('old', 0, 'b1-b3', 1);",
            )
            .execute(&pool)
            .await
            .unwrap();
            pool.close().await;
        }
        for _ in 0..2 {
            // Opened twice: the second time nothing is left to migrate.
            let store = Store::open(&path).await.unwrap();
            let game = store.load("old").await.unwrap().unwrap();
            assert_eq!(game.moves[0].text, "b1-b3");
            let mut row = game.row.clone();
            row.rematch = Some("new".into());
            store.update(&row, &Change::default()).await.unwrap();
            assert_eq!(
                store
                    .load("old")
                    .await
                    .unwrap()
                    .unwrap()
                    .row
                    .rematch
                    .as_deref(),
                Some("new")
            );
            let applied: Vec<i64> =
                sqlx::query_scalar("SELECT version FROM _sqlx_migrations ORDER BY version")
                    .fetch_all(&store.pool)
                    .await
                    .unwrap();
            let every: Vec<i64> = MIGRATOR.iter().map(|m| m.version).collect();
            assert_eq!(applied, every);
            assert_eq!(&every[..4], [1, 2, 3, 4]);
            store.pool.close().await;
        }
    }
}
