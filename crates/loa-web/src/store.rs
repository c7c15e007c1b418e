//! The games on disk: one SQLite file in WAL mode through `sqlx`, its schema brought up
//! to date at start by the migrations in `crates/loa-web/migrations/` (the same queries
//! are meant to serve PostgreSQL). Every change to a game is one transaction, committed
//! before the change is acknowledged, so a server killed at any moment loses nothing it
//! has answered. This module is the only one that knows SQL.

use sqlx::migrate::{Migrate, Migrator};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use sqlx::{Row, SqlitePool};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The schema, a file a version.
static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

/// How many connections read and write at once (SQLite still writes one at a time).
const CONNECTIONS: u32 = 4;

/// A game row's columns, named (never `*`: a cached statement keeps the columns it was
/// prepared with).
const GAME_COLUMNS: &str = "id, created_at, updated_at, variant, rules, start, players, names,
    time_control, online, started_at, black_ms, white_ms, running_since, result, winner, reason,
    draw_offer, takeback_offer, rematch";

/// A game's row: what it is and where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub variant: String,
    pub rules: String,
    pub start: String,
    /// JSON: the players of the seats.
    pub players: String,
    /// JSON: Black's and White's names from an imported record.
    pub names: String,
    /// JSON: the time control, if the game has a clock.
    pub time_control: Option<String>,
    pub online: bool,
    pub started_at: Option<i64>,
    pub clock_ms: Option<[i64; 2]>,
    pub running_since: Option<i64>,
    pub result: Option<String>,
    pub winner: Option<String>,
    pub reason: Option<String>,
    pub draw_offer: Option<String>,
    pub takeback_offer: Option<String>,
    /// The id of this game's rematch, once one is made.
    pub rematch: Option<String>,
}

/// A move as kept: its text, when it was played and the clocks after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    pub text: String,
    pub played_at: i64,
    pub clock_ms: Option<[i64; 2]>,
}

/// A seat of an online game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    pub slot: String,
    pub token: String,
    pub joined: bool,
}

/// A game read back whole.
#[derive(Clone, Debug)]
pub struct StoredGame {
    pub row: GameRow,
    pub seats: Vec<SeatRow>,
    pub moves: Vec<MoveRow>,
}

/// What changed in a game, written in one transaction.
#[derive(Debug, Default)]
pub struct Change<'a> {
    /// Moves from this ply on are taken back first.
    pub truncate_from: Option<usize>,
    /// Moves added, starting at ply `first_new_ply`.
    pub new_moves: &'a [MoveRow],
    pub first_new_ply: usize,
    /// Seats whose `joined` changed.
    pub seats: &'a [SeatRow],
}

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

    /// Adds a new game with its seats and any moves it starts with.
    pub async fn insert(&self, game: &StoredGame) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        let r = &game.row;
        sqlx::query(
            "INSERT INTO games (id, created_at, updated_at, variant, rules, start, players,
                names, time_control, online, started_at, black_ms, white_ms, running_since,
                result, winner, reason, draw_offer, takeback_offer, rematch)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
                ?17, ?18, ?19, ?20)",
        )
        .bind(&r.id)
        .bind(r.created_at)
        .bind(r.updated_at)
        .bind(&r.variant)
        .bind(&r.rules)
        .bind(&r.start)
        .bind(&r.players)
        .bind(&r.names)
        .bind(&r.time_control)
        .bind(r.online)
        .bind(r.started_at)
        .bind(r.clock_ms.map(|c| c[0]))
        .bind(r.clock_ms.map(|c| c[1]))
        .bind(r.running_since)
        .bind(&r.result)
        .bind(&r.winner)
        .bind(&r.reason)
        .bind(&r.draw_offer)
        .bind(&r.takeback_offer)
        .bind(&r.rematch)
        .execute(&mut *tx)
        .await?;
        for seat in &game.seats {
            sqlx::query("INSERT INTO seats (game_id, slot, token, joined) VALUES (?1, ?2, ?3, ?4)")
                .bind(&r.id)
                .bind(&seat.slot)
                .bind(&seat.token)
                .bind(seat.joined)
                .execute(&mut *tx)
                .await?;
        }
        insert_moves(&mut tx, &r.id, 0, &game.moves).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Writes a game's new state and what changed with it.
    pub async fn update(&self, row: &GameRow, change: &Change<'_>) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        if let Some(ply) = change.truncate_from {
            sqlx::query("DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2")
                .bind(&row.id)
                .bind(ply_number(ply))
                .execute(&mut *tx)
                .await?;
        }
        insert_moves(&mut tx, &row.id, change.first_new_ply, change.new_moves).await?;
        for seat in change.seats {
            sqlx::query("UPDATE seats SET joined = ?3 WHERE game_id = ?1 AND slot = ?2")
                .bind(&row.id)
                .bind(&seat.slot)
                .bind(seat.joined)
                .execute(&mut *tx)
                .await?;
        }
        let updated = sqlx::query(
            "UPDATE games SET updated_at = ?2, started_at = ?3, black_ms = ?4, white_ms = ?5,
                running_since = ?6, result = ?7, winner = ?8, reason = ?9, draw_offer = ?10,
                takeback_offer = ?11, rematch = ?12
             WHERE id = ?1",
        )
        .bind(&row.id)
        .bind(row.updated_at)
        .bind(row.started_at)
        .bind(row.clock_ms.map(|c| c[0]))
        .bind(row.clock_ms.map(|c| c[1]))
        .bind(row.running_since)
        .bind(&row.result)
        .bind(&row.winner)
        .bind(&row.reason)
        .bind(&row.draw_offer)
        .bind(&row.takeback_offer)
        .bind(&row.rematch)
        .execute(&mut *tx)
        .await?;
        if updated.rows_affected() != 1 {
            return Err(StoreError(sqlx::Error::RowNotFound));
        }
        tx.commit().await?;
        Ok(())
    }

    /// A game whole, or `None` if there is no such game.
    pub async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let select = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1");
        let Some(row) = sqlx::query(sqlx::AssertSqlSafe(select))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        let row = game_row(&row)?;
        let seats =
            sqlx::query("SELECT slot, token, joined FROM seats WHERE game_id = ?1 ORDER BY slot")
                .bind(id)
                .fetch_all(&self.pool)
                .await?
                .iter()
                .map(|r| {
                    Ok(SeatRow {
                        slot: r.try_get("slot")?,
                        token: r.try_get("token")?,
                        joined: r.try_get("joined")?,
                    })
                })
                .collect::<Result<_, sqlx::Error>>()?;
        let moves = sqlx::query(
            "SELECT move, played_at, black_ms, white_ms FROM moves WHERE game_id = ?1
             ORDER BY ply",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| {
            let black: Option<i64> = r.try_get("black_ms")?;
            let white: Option<i64> = r.try_get("white_ms")?;
            Ok(MoveRow {
                text: r.try_get("move")?,
                played_at: r.try_get("played_at")?,
                clock_ms: black.zip(white).map(|(b, w)| [b, w]),
            })
        })
        .collect::<Result<_, sqlx::Error>>()?;
        Ok(Some(StoredGame { row, seats, moves }))
    }

    /// The ids of games not over that have a clock: their flags must be watched.
    pub async fn clocked_games_in_progress(&self) -> Result<Vec<String>, StoreError> {
        let ids = sqlx::query_scalar(
            "SELECT id FROM games WHERE result IS NULL AND time_control IS NOT NULL",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(ids)
    }

    /// The most recently changed games, newest first, with their move counts.
    pub async fn list(
        &self,
        limit: usize,
        offset: usize,
    ) -> Result<Vec<(GameRow, usize)>, StoreError> {
        let select = format!(
            "SELECT {GAME_COLUMNS},
                (SELECT COUNT(*) FROM moves m WHERE m.game_id = games.id) AS moves_played
             FROM games ORDER BY updated_at DESC, id LIMIT ?1 OFFSET ?2"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(select))
            .bind(i64::try_from(limit).unwrap_or(i64::MAX))
            .bind(i64::try_from(offset).unwrap_or(i64::MAX))
            .fetch_all(&self.pool)
            .await?;
        // A damaged row is left out of the list (and said so in the log), not the list
        // refused.
        Ok(rows
            .iter()
            .filter_map(|r| {
                let game = game_row(r).and_then(|row| {
                    let count: i64 = r.try_get("moves_played")?;
                    Ok((row, usize::try_from(count).unwrap_or(0)))
                });
                match game {
                    Ok(game) => Some(game),
                    Err(e) => {
                        let id: String = r.try_get("id").unwrap_or_default();
                        tracing::error!("game {id} is damaged in the database: {e}");
                        None
                    }
                }
            })
            .collect())
    }
}

fn ply_number(ply: usize) -> i64 {
    i64::try_from(ply).unwrap_or(i64::MAX)
}

async fn insert_moves(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    id: &str,
    first_ply: usize,
    moves: &[MoveRow],
) -> Result<(), StoreError> {
    for (i, mv) in moves.iter().enumerate() {
        sqlx::query(
            "INSERT INTO moves (game_id, ply, move, played_at, black_ms, white_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )
        .bind(id)
        .bind(ply_number(first_ply + i))
        .bind(&mv.text)
        .bind(mv.played_at)
        .bind(mv.clock_ms.map(|c| c[0]))
        .bind(mv.clock_ms.map(|c| c[1]))
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

fn game_row(r: &SqliteRow) -> Result<GameRow, sqlx::Error> {
    let black: Option<i64> = r.try_get("black_ms")?;
    let white: Option<i64> = r.try_get("white_ms")?;
    Ok(GameRow {
        id: r.try_get("id")?,
        created_at: r.try_get("created_at")?,
        updated_at: r.try_get("updated_at")?,
        variant: r.try_get("variant")?,
        rules: r.try_get("rules")?,
        start: r.try_get("start")?,
        players: r.try_get("players")?,
        names: r.try_get("names")?,
        time_control: r.try_get("time_control")?,
        online: r.try_get("online")?,
        started_at: r.try_get("started_at")?,
        clock_ms: black.zip(white).map(|(b, w)| [b, w]),
        running_since: r.try_get("running_since")?,
        result: r.try_get("result")?,
        winner: r.try_get("winner")?,
        reason: r.try_get("reason")?,
        draw_offer: r.try_get("draw_offer")?,
        takeback_offer: r.try_get("takeback_offer")?,
        rematch: r.try_get("rematch")?,
    })
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

    fn row(id: &str) -> GameRow {
        GameRow {
            id: id.into(),
            created_at: 1,
            updated_at: 1,
            variant: "standard".into(),
            rules: "draw".into(),
            start: "start".into(),
            players: "[]".into(),
            names: "[null,null]".into(),
            time_control: None,
            online: false,
            started_at: None,
            clock_ms: None,
            running_since: None,
            result: None,
            winner: None,
            reason: None,
            draw_offer: None,
            takeback_offer: None,
            rematch: None,
        }
    }

    fn mv(text: &str) -> MoveRow {
        MoveRow {
            text: text.into(),
            played_at: 5,
            clock_ms: Some([1, 2]),
        }
    }

    #[tokio::test]
    async fn games_survive_reopening_and_changes_apply_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.db");
        {
            let store = Store::open(&path).await.unwrap();
            let game = StoredGame {
                row: row("g1"),
                seats: vec![SeatRow {
                    slot: "black".into(),
                    token: "t".into(),
                    joined: false,
                }],
                moves: vec![mv("b1-b3")],
            };
            store.insert(&game).await.unwrap();
            let mut changed = row("g1");
            changed.updated_at = 9;
            changed.result = Some("1-0".into());
            let new = [mv("a2-c2"), mv("c1-c3")];
            let seats = [SeatRow {
                slot: "black".into(),
                token: "t".into(),
                joined: true,
            }];
            let change = Change {
                new_moves: &new,
                first_new_ply: 1,
                seats: &seats,
                ..Change::default()
            };
            store.update(&changed, &change).await.unwrap();
            // A change to a game that does not exist writes nothing.
            let ghost = row("nope");
            let change = Change {
                new_moves: &new,
                first_new_ply: 0,
                ..Change::default()
            };
            assert!(store.update(&ghost, &change).await.is_err());
        }
        let store = Store::open(&path).await.unwrap();
        let game = store.load("g1").await.unwrap().unwrap();
        assert_eq!(game.row.result.as_deref(), Some("1-0"));
        assert!(game.seats[0].joined);
        let texts: Vec<&str> = game.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["b1-b3", "a2-c2", "c1-c3"]);
        assert!(store.load("nope").await.unwrap().is_none());
        let truncate = Change {
            truncate_from: Some(1),
            ..Change::default()
        };
        store.update(&game.row, &truncate).await.unwrap();
        assert_eq!(store.load("g1").await.unwrap().unwrap().moves.len(), 1);
        assert_eq!(store.list(10, 0).await.unwrap()[0].1, 1);
    }

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
            sqlx::raw_sql(include_str!("../migrations/0001_games.sql"))
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
            assert_eq!(applied, [1, 2]);
            store.pool.close().await;
        }
    }
}
