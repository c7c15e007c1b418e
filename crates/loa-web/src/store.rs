//! The games on disk: one SQLite file in WAL mode, its schema brought up to date by
//! numbered migrations at start. Every change to a game is one transaction, committed
//! before the change is acknowledged, so a server killed at any moment loses nothing it
//! has answered.

use rusqlite::{params, Connection, OptionalExtension, Row};
use std::path::Path;
use std::sync::Mutex;

/// The schema, one script a version; `PRAGMA user_version` counts those applied.
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        variant TEXT NOT NULL,
        rules TEXT NOT NULL,
        start TEXT NOT NULL,
        players TEXT NOT NULL,
        names TEXT NOT NULL,
        time_control TEXT,
        online INTEGER NOT NULL,
        started_at INTEGER,
        black_ms INTEGER,
        white_ms INTEGER,
        running_since INTEGER,
        result TEXT,
        winner TEXT,
        reason TEXT,
        draw_offer TEXT,
        takeback_offer TEXT
    );
    CREATE INDEX games_by_update ON games(updated_at);
    CREATE TABLE seats (
        game_id TEXT NOT NULL REFERENCES games(id),
        slot TEXT NOT NULL,
        token TEXT NOT NULL,
        joined INTEGER NOT NULL,
        PRIMARY KEY (game_id, slot)
    );
    CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games(id),
        ply INTEGER NOT NULL,
        move TEXT NOT NULL,
        played_at INTEGER NOT NULL,
        black_ms INTEGER,
        white_ms INTEGER,
        PRIMARY KEY (game_id, ply)
    );",
    // The game a finished one's rematch is.
    "ALTER TABLE games ADD COLUMN rematch TEXT;",
];

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
pub struct StoreError(#[from] rusqlite::Error);

impl StoreError {
    /// Whether a row held what no version of the schema writes (a value of the wrong type
    /// or out of range), rather than the database failing.
    pub fn is_damaged_row(&self) -> bool {
        matches!(
            self.0,
            rusqlite::Error::FromSqlConversionFailure(..)
                | rusqlite::Error::InvalidColumnType(..)
                | rusqlite::Error::IntegralValueOutOfRange(..)
        )
    }
}

pub struct Store {
    conn: Mutex<Connection>,
}

impl Store {
    /// Opens (or creates) the database and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let mut conn = Connection::open(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // NORMAL in WAL mode: a commit survives the process being killed; only a power
        // loss can take the last commits.
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        migrate(&mut conn)?;
        Ok(Store {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a transaction half-done: SQLite
        // rolls back an uncommitted one when it is dropped.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds a new game with its seats and any moves it starts with.
    pub fn insert(&self, game: &StoredGame) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let r = &game.row;
        tx.execute(
            "INSERT INTO games (id, created_at, updated_at, variant, rules, start, players,
                names, time_control, online, started_at, black_ms, white_ms, running_since,
                result, winner, reason, draw_offer, takeback_offer, rematch)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
                ?17, ?18, ?19, ?20)",
            params![
                r.id,
                r.created_at,
                r.updated_at,
                r.variant,
                r.rules,
                r.start,
                r.players,
                r.names,
                r.time_control,
                r.online,
                r.started_at,
                r.clock_ms.map(|c| c[0]),
                r.clock_ms.map(|c| c[1]),
                r.running_since,
                r.result,
                r.winner,
                r.reason,
                r.draw_offer,
                r.takeback_offer,
                r.rematch
            ],
        )?;
        for seat in &game.seats {
            tx.execute(
                "INSERT INTO seats (game_id, slot, token, joined) VALUES (?1, ?2, ?3, ?4)",
                params![r.id, seat.slot, seat.token, seat.joined],
            )?;
        }
        insert_moves(&tx, &r.id, 0, &game.moves)?;
        tx.commit()?;
        Ok(())
    }

    /// Writes a game's new state and what changed with it.
    pub fn update(&self, row: &GameRow, change: &Change<'_>) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        if let Some(ply) = change.truncate_from {
            tx.execute(
                "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
                params![row.id, ply as i64],
            )?;
        }
        insert_moves(&tx, &row.id, change.first_new_ply, change.new_moves)?;
        for seat in change.seats {
            tx.execute(
                "UPDATE seats SET joined = ?3 WHERE game_id = ?1 AND slot = ?2",
                params![row.id, seat.slot, seat.joined],
            )?;
        }
        let updated = tx.execute(
            "UPDATE games SET updated_at = ?2, started_at = ?3, black_ms = ?4, white_ms = ?5,
                running_since = ?6, result = ?7, winner = ?8, reason = ?9, draw_offer = ?10,
                takeback_offer = ?11, rematch = ?12
             WHERE id = ?1",
            params![
                row.id,
                row.updated_at,
                row.started_at,
                row.clock_ms.map(|c| c[0]),
                row.clock_ms.map(|c| c[1]),
                row.running_since,
                row.result,
                row.winner,
                row.reason,
                row.draw_offer,
                row.takeback_offer,
                row.rematch
            ],
        )?;
        if updated != 1 {
            return Err(StoreError(rusqlite::Error::QueryReturnedNoRows));
        }
        tx.commit()?;
        Ok(())
    }

    /// A game whole, or `None` if there is no such game.
    pub fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let conn = self.conn();
        let Some(row) = conn
            .query_row("SELECT * FROM games WHERE id = ?1", [id], game_row)
            .optional()?
        else {
            return Ok(None);
        };
        let seats = conn
            .prepare("SELECT slot, token, joined FROM seats WHERE game_id = ?1 ORDER BY slot")?
            .query_map([id], |r| {
                Ok(SeatRow {
                    slot: r.get(0)?,
                    token: r.get(1)?,
                    joined: r.get(2)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        let moves = conn
            .prepare(
                "SELECT move, played_at, black_ms, white_ms FROM moves WHERE game_id = ?1
                 ORDER BY ply",
            )?
            .query_map([id], |r| {
                let black: Option<i64> = r.get(2)?;
                let white: Option<i64> = r.get(3)?;
                Ok(MoveRow {
                    text: r.get(0)?,
                    played_at: r.get(1)?,
                    clock_ms: black.zip(white).map(|(b, w)| [b, w]),
                })
            })?
            .collect::<Result<_, _>>()?;
        Ok(Some(StoredGame { row, seats, moves }))
    }

    /// The ids of games not over that have a clock: their flags must be watched.
    pub fn clocked_games_in_progress(&self) -> Result<Vec<String>, StoreError> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare("SELECT id FROM games WHERE result IS NULL AND time_control IS NOT NULL")?;
        let ids = stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(ids)
    }

    /// The most recently changed games, newest first, with their move counts.
    pub fn list(&self, limit: usize, offset: usize) -> Result<Vec<(GameRow, usize)>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT g.*, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS moves_played
             FROM games g ORDER BY g.updated_at DESC, g.id LIMIT ?1 OFFSET ?2",
        )?;
        let games = stmt
            .query_map(params![limit as i64, offset as i64], |r| {
                let id: String = r.get("id")?;
                let count: i64 = r.get("moves_played")?;
                Ok((
                    id,
                    game_row(r).map(|row| (row, usize::try_from(count).unwrap_or(0))),
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        // A damaged row is left out of the list (and said so in the log), not the list
        // refused.
        Ok(games
            .into_iter()
            .filter_map(|(id, game)| match game {
                Ok(game) => Some(game),
                Err(e) => {
                    tracing::error!("game {id} is damaged in the database: {e}");
                    None
                }
            })
            .collect())
    }
}

fn insert_moves(
    tx: &rusqlite::Transaction<'_>,
    id: &str,
    first_ply: usize,
    moves: &[MoveRow],
) -> Result<(), StoreError> {
    let mut stmt = tx.prepare_cached(
        "INSERT INTO moves (game_id, ply, move, played_at, black_ms, white_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for (i, mv) in moves.iter().enumerate() {
        stmt.execute(params![
            id,
            (first_ply + i) as i64,
            mv.text,
            mv.played_at,
            mv.clock_ms.map(|c| c[0]),
            mv.clock_ms.map(|c| c[1])
        ])?;
    }
    Ok(())
}

fn game_row(r: &Row<'_>) -> rusqlite::Result<GameRow> {
    let black: Option<i64> = r.get("black_ms")?;
    let white: Option<i64> = r.get("white_ms")?;
    Ok(GameRow {
        id: r.get("id")?,
        created_at: r.get("created_at")?,
        updated_at: r.get("updated_at")?,
        variant: r.get("variant")?,
        rules: r.get("rules")?,
        start: r.get("start")?,
        players: r.get("players")?,
        names: r.get("names")?,
        time_control: r.get("time_control")?,
        online: r.get("online")?,
        started_at: r.get("started_at")?,
        clock_ms: black.zip(white).map(|(b, w)| [b, w]),
        running_since: r.get("running_since")?,
        result: r.get("result")?,
        winner: r.get("winner")?,
        reason: r.get("reason")?,
        draw_offer: r.get("draw_offer")?,
        takeback_offer: r.get("takeback_offer")?,
        rematch: r.get("rematch")?,
    })
}

fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let version: usize = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    for (i, script) in MIGRATIONS.iter().enumerate().skip(version) {
        let tx = conn.transaction()?;
        tx.execute_batch(script)?;
        tx.pragma_update(None, "user_version", i + 1)?;
        tx.commit()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn games_survive_reopening_and_changes_apply_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.db");
        {
            let store = Store::open(&path).unwrap();
            let game = StoredGame {
                row: row("g1"),
                seats: vec![SeatRow {
                    slot: "black".into(),
                    token: "t".into(),
                    joined: false,
                }],
                moves: vec![mv("b1-b3")],
            };
            store.insert(&game).unwrap();
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
            store.update(&changed, &change).unwrap();
            // A change to a game that does not exist writes nothing.
            let ghost = row("nope");
            let change = Change {
                new_moves: &new,
                first_new_ply: 0,
                ..Change::default()
            };
            assert!(store.update(&ghost, &change).is_err());
        }
        let store = Store::open(&path).unwrap();
        let game = store.load("g1").unwrap().unwrap();
        assert_eq!(game.row.result.as_deref(), Some("1-0"));
        assert!(game.seats[0].joined);
        let texts: Vec<&str> = game.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["b1-b3", "a2-c2", "c1-c3"]);
        assert!(store.load("nope").unwrap().is_none());
        let truncate = Change {
            truncate_from: Some(1),
            ..Change::default()
        };
        store.update(&game.row, &truncate).unwrap();
        assert_eq!(store.load("g1").unwrap().unwrap().moves.len(), 1);
        assert_eq!(store.list(10, 0).unwrap()[0].1, 1);
    }

    #[test]
    fn a_database_of_the_first_schema_is_brought_up_to_date_and_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.db");
        {
            // As the first version wrote it.
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(MIGRATIONS[0]).unwrap();
            conn.pragma_update(None, "user_version", 1).unwrap();
            conn.execute(
                "INSERT INTO games (id, created_at, updated_at, variant, rules, start, players,
                    names, online) VALUES ('old', 1, 2, 'standard', 'draw', 's', '[]',
                    '[null,null]', 0)",
                [],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO moves (game_id, ply, move, played_at) VALUES ('old', 0, 'b1-b3', 1)",
                [],
            )
            .unwrap();
        }
        let store = Store::open(&path).unwrap();
        let game = store.load("old").unwrap().unwrap();
        assert_eq!(game.row.rematch, None);
        assert_eq!(game.moves[0].text, "b1-b3");
        let mut row = game.row.clone();
        row.rematch = Some("new".into());
        store.update(&row, &Change::default()).unwrap();
        assert_eq!(
            store.load("old").unwrap().unwrap().row.rematch.as_deref(),
            Some("new")
        );
        let version: usize = store
            .conn()
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(version, MIGRATIONS.len());
    }
}
