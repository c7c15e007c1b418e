//! The games on disk: one SQLite file in WAL mode, or a PostgreSQL database shared by
//! several servers, through `sqlx`; the schema brought up to date at start by the
//! migrations in `crates/loa-web/migrations/` (a folder for each database, the same
//! tables). Every change to a game is one transaction, committed
//! before the change is acknowledged, so a server killed at any moment loses nothing it
//! has answered. This module is the only one that knows SQL.

mod accounts;
mod blocks;
mod engine_jobs;
mod events;
mod explorer;
mod game_lists;
mod games;
mod mail;
mod pairing;
mod puzzles;
mod ratings;
mod reports;
mod resets;
mod sessions;
mod tournaments;

#[cfg(any(test, feature = "testing"))]
pub mod testing;

pub use accounts::{AccountRow, Tally};
pub use events::{Event, Heard};
pub use explorer::{ExploredGame, ExploredMove, ExplorerQuery};
pub use game_lists::{GameFilter, Outcome};
pub use games::{BoardOf, Change, ChatRow, GameRow, MoveRow, SeatRow, StoredGame};
pub use pairing::{ChallengeRow, SeekRoom, SeekRow};
pub use puzzles::{NewPuzzle, PuzzleChoice, PuzzleRow, PuzzleTry, TryRating};
pub use ratings::{RankedRow, RatingRow, RatingUpdate};
pub use reports::ReportRow;
pub use resets::ResetLink;
pub use sessions::ACCOUNT_KEY;
pub use tournaments::{BoardRow, EntrantRow, TournamentRow};

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::{Migrate, Migrator};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{AnyPool, ConnectOptions};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The schema, a file a version, written once for each database.
static SQLITE_MIGRATOR: Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATOR: Migrator = sqlx::migrate!("./migrations/postgres");

/// How many connections read and write at once: SQLite still writes one at a time;
/// PostgreSQL's are shared by every server on it (its default allows 100).
const SQLITE_CONNECTIONS: u32 = 4;
const POSTGRES_CONNECTIONS: u32 = 16;

/// How long a server waits for PostgreSQL to answer its first connection, and then for
/// a connection of its pool: a database that is down or silent fails a request in this
/// time (with a clear error) rather than keeping it waiting.
const POSTGRES_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

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

/// Where the games are kept: a SQLite file (one server) or a PostgreSQL database (any
/// number of servers).
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    File(PathBuf),
    Postgres(String),
}

impl Database {
    /// The database from the text a person gave: a `postgres://` URL, or a file path.
    pub fn parse(text: &str) -> Result<Database, String> {
        let quoted = loa_core::excerpt(text);
        if text.trim().is_empty() {
            return Err("give a file path or a postgres:// URL for the database".into());
        }
        match text.split_once("://") {
            Some(("postgres" | "postgresql", _)) => {
                sqlx::postgres::PgConnectOptions::from_str(text)
                    .map_err(|e| format!("'{}': {e}", Database::hide_password(text)))?;
                Ok(Database::Postgres(text.to_string()))
            }
            Some(_) => Err(format!(
                "'{quoted}' is a URL: give a file path (SQLite) or a postgres:// URL"
            )),
            None => Ok(Database::File(PathBuf::from(text))),
        }
    }

    /// A URL as it may be shown or logged: without its password.
    fn hide_password(url: &str) -> String {
        let Some((scheme, rest)) = url.split_once("://") else {
            return url.to_string();
        };
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let shown = match authority.rsplit_once('@') {
            Some((user, host)) => match user.split_once(':') {
                Some((name, _)) => format!("{name}:***@{host}"),
                None => format!("{user}@{host}"),
            },
            None => authority.to_string(),
        };
        format!("{scheme}://{shown}{path}")
    }
}

impl fmt::Display for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::File(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => f.write_str(&Database::hide_password(url)),
        }
    }
}

impl fmt::Debug for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Database({self})")
    }
}

/// What differs between the two databases in the few queries that cannot be written
/// the same for both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    Sqlite,
    Postgres,
}

impl Dialect {
    /// The end of a `SELECT` that claims rows no other server's transaction holds:
    /// nothing on SQLite, where one writer at a time already makes the claim alone.
    pub(crate) fn skip_locked(self) -> &'static str {
        match self {
            Dialect::Sqlite => "",
            Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
        }
    }
}

/// What a person makes under a limit of how many may be open at once: each kind is
/// counted and made one at a time (see [`Store::insert_one_at_a_time`]).
#[derive(Clone, Copy, Debug)]
enum Limited {
    Seeks = 1,
    Challenges = 2,
    Tournaments = 3,
    Blocks = 4,
}

/// The database: games, accounts and their sessions and tokens, ratings, seeks and
/// challenges, each in a file of this module. The same queries serve SQLite and
/// PostgreSQL (sqlx's `Any` driver, numbered `$1` parameters, flags as 0/1 integers).
pub struct Store {
    pool: AnyPool,
    dialect: Dialect,
    database: Database,
    /// This server's random id among those sharing the database.
    origin: String,
}

/// The error of a database that said nothing for `waited` (down, or silent once
/// connected).
fn silent_database(waited: std::time::Duration) -> StoreError {
    StoreError(sqlx::Error::Io(std::io::Error::new(
        std::io::ErrorKind::TimedOut,
        format!("the database did not answer within {} s", waited.as_secs()),
    )))
}

impl Store {
    /// Whether the database answers a query within `wait`: the health check's question.
    pub async fn answers(&self, wait: std::time::Duration) -> Result<(), StoreError> {
        let asked = sqlx::query("SELECT 1").execute(&self.pool);
        tokio::time::timeout(wait, asked)
            .await
            .map_err(|_| silent_database(wait))??;
        Ok(())
    }

    /// Closes the pool: every later query fails, as with a database gone.
    #[cfg(test)]
    pub(crate) async fn close(&self) {
        self.pool.close().await;
    }

    /// Opens (or creates) the database and brings its schema up to date.
    pub async fn open(database: &Database) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        match database {
            Database::File(path) => Store::open_file(path).await,
            Database::Postgres(url) => {
                // One connection first: the server's own refusal (no such database, a
                // wrong password, nobody listening) is said at once, where the pool
                // would only time out.
                let connecting = <sqlx::AnyConnection as sqlx::Connection>::connect(url);
                let first = tokio::time::timeout(POSTGRES_WAIT, connecting)
                    .await
                    .map_err(|_| silent_database(POSTGRES_WAIT))??;
                sqlx::Connection::close(first).await?;
                let pool = AnyPoolOptions::new()
                    .max_connections(POSTGRES_CONNECTIONS)
                    .acquire_timeout(POSTGRES_WAIT)
                    .connect(url)
                    .await?;
                // The migrator holds an advisory lock: servers starting together migrate
                // once.
                POSTGRES_MIGRATOR.run(&pool).await?;
                Ok(Store {
                    pool,
                    dialect: Dialect::Postgres,
                    database: database.clone(),
                    origin: new_origin(),
                })
            }
        }
    }

    async fn open_file(path: &Path) -> Result<Store, StoreError> {
        let url = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .to_url_lossy();
        let pool = AnyPoolOptions::new()
            .max_connections(SQLITE_CONNECTIONS)
            .after_connect(|conn, _| {
                Box::pin(async move {
                    // WAL with synchronous NORMAL: a commit survives the process being
                    // killed; only a power loss can take the last commits.
                    sqlx::raw_sql(
                        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
                         PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;",
                    )
                    .execute(conn)
                    .await?;
                    Ok(())
                })
            })
            .connect(url.as_str())
            .await?;
        adopt_numbered_schema(&pool).await?;
        SQLITE_MIGRATOR.run(&pool).await?;
        Ok(Store {
            pool,
            dialect: Dialect::Sqlite,
            database: Database::File(path.to_path_buf()),
            origin: new_origin(),
        })
    }

    /// Runs `insert`, an insert whose own condition counts what is open already, after
    /// any other of the same `kind` (none: at once) on every server, so that the count
    /// and the row that rests on it are one step: two made at once cannot both take the
    /// last place. SQLite writes one statement at a time already; PostgreSQL counts in
    /// each statement's own view, so it takes a lock of the kind first. Whether a row
    /// was inserted.
    async fn insert_one_at_a_time(
        &self,
        insert: sqlx::query::Query<'_, sqlx::Any, sqlx::any::AnyArguments>,
        kind: Option<Limited>,
    ) -> Result<bool, StoreError> {
        // Our own range of PostgreSQL's advisory lock numbers: "loa" and the kind.
        const LOCKS: i64 = 0x6c6f_6100_0000_0000;
        let mut tx = self.pool.begin().await?;
        if let Some(kind) = kind.filter(|_| self.dialect == Dialect::Postgres) {
            sqlx::query("SELECT COUNT(*) FROM (SELECT pg_advisory_xact_lock($1)) AS locked")
                .bind(LOCKS | kind as i64)
                .execute(&mut *tx)
                .await?;
        }
        let inserted = insert.execute(&mut *tx).await?.rows_affected() == 1;
        tx.commit().await?;
        Ok(inserted)
    }

    /// Whether other servers may share the database (PostgreSQL): what a server holds in
    /// memory may then be a moment behind it.
    pub fn is_shared(&self) -> bool {
        self.dialect == Dialect::Postgres
    }

    /// Runs SQL as it is, for tests that change rows behind the server's back.
    #[cfg(test)]
    pub async fn execute_raw(&self, sql: &str) -> Result<(), StoreError> {
        sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_string()))
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

/// A server's id: 64 random bits, in hexadecimal.
fn new_origin() -> String {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the system's random numbers");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A flag as kept: 0 or 1 in an integer column, the same in both databases.
pub(super) fn flag(row: &AnyRow, column: &str) -> Result<bool, sqlx::Error> {
    use sqlx::Row;
    Ok(row.try_get::<i64, _>(column)? != 0)
}

/// Binds a number that may be missing. sqlx's `Any` driver sends a missing `f64` to
/// PostgreSQL as a 4-byte float (the nulls of its two float kinds are swapped), which a
/// statement prepared for 8-byte floats refuses; a missing `f32` goes as 8 bytes.
pub(super) fn bind_real<'q>(
    query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
    value: Option<f64>,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
    match value {
        Some(value) => query.bind(value),
        None => query.bind(None::<f32>),
    }
}

/// A database written before the schema moved to migration files counts its applied
/// migrations in `PRAGMA user_version`: those are recorded as the files' migrations
/// already applied, so that they are not run twice.
async fn adopt_numbered_schema(pool: &AnyPool) -> Result<(), StoreError> {
    let mut conn = pool.acquire().await?;
    let version: i64 = sqlx::query_scalar("PRAGMA user_version")
        .fetch_one(&mut *conn)
        .await?;
    if version == 0 {
        return Ok(());
    }
    conn.ensure_migrations_table(SQLITE_MIGRATOR.table_name.as_ref())
        .await?;
    for migration in SQLITE_MIGRATOR.iter().filter(|m| m.version <= version) {
        // The migrator's own table, named as it names it by default.
        sqlx::query(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum,
                execution_time) VALUES ($1, $2, TRUE, $3, 0) ON CONFLICT DO NOTHING",
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
    fn the_database_is_a_file_or_a_postgres_url() {
        assert_eq!(
            Database::parse("postgres://u:secret@h:5433/games"),
            Ok(Database::Postgres(
                "postgres://u:secret@h:5433/games".into()
            ))
        );
        assert_eq!(
            Database::parse("postgresql://h/games"),
            Ok(Database::Postgres("postgresql://h/games".into()))
        );
        // Shown and logged without its password.
        assert_eq!(
            Database::parse("postgres://u:secret@h:5433/games")
                .unwrap()
                .to_string(),
            "postgres://u:***@h:5433/games"
        );
        assert_eq!(
            Database::parse("sqlite://games.db"),
            Err(
                "'sqlite://games.db' is a URL: give a file path (SQLite) or a postgres:// URL"
                    .into()
            )
        );
        assert!(Database::parse("postgres://u@h:notaport/games")
            .unwrap_err()
            .starts_with("'postgres://u@h:notaport/games': "));
        assert_eq!(
            Database::parse(""),
            Err("give a file path or a postgres:// URL for the database".into())
        );
        assert_eq!(
            Database::parse("games.db"),
            Ok(Database::File("games.db".into()))
        );
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
            sqlx::raw_sql(include_str!("../../migrations/sqlite/0001_games.sql"))
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
            let store = Store::open(&Database::File(path.clone())).await.unwrap();
            let game = store.load("old").await.unwrap().unwrap();
            assert_eq!(game.moves[0].text, "b1-b3");
            let mut row = game.row.clone();
            row.rematch = Some("new".into());
            assert!(store.update(&row, &Change::default()).await.unwrap());
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
            let every: Vec<i64> = SQLITE_MIGRATOR.iter().map(|m| m.version).collect();
            assert_eq!(applied, every);
            assert_eq!(&every[..4], [1, 2, 3, 4]);
            store.pool.close().await;
        }
    }
}
