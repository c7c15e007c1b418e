//! Tournaments: their rows, players and boards.

use super::{Limited, Store, StoreError};
use sqlx::any::AnyRow;
use sqlx::Row;

const TOURNAMENT_COLUMNS: &str = "id, name, format, rounds, minutes, variant, rules, clock, rated,
    creator, status, round, starts_at, started_at, finished_at, created_at, championship";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    pub id: String,
    pub name: String,
    pub format: String,
    pub rounds: i64,
    pub minutes: Option<i64>,
    pub variant: String,
    pub rules: String,
    /// JSON: the time control.
    pub clock: String,
    pub rated: bool,
    pub creator: i64,
    /// `open`, `running` or `finished`.
    pub status: String,
    pub round: i64,
    pub starts_at: Option<i64>,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
    pub created_at: i64,
    pub championship: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EntrantRow {
    pub account: i64,
    pub name: String,
    pub joined_at: i64,
    pub rating: f64,
    pub active: bool,
    pub division: Option<i64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BoardRow {
    pub round: i64,
    pub board: i64,
    pub game_id: Option<String>,
    /// Black, or the player of a bye.
    pub black: i64,
    pub white: Option<i64>,
    pub bye_points: Option<f64>,
    /// `black`, `white` or `draw`, once the game is over.
    pub result: Option<String>,
    pub forfeit: bool,
}

fn tournament_row(r: &AnyRow) -> Result<TournamentRow, sqlx::Error> {
    Ok(TournamentRow {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        format: r.try_get("format")?,
        rounds: r.try_get("rounds")?,
        minutes: r.try_get("minutes")?,
        variant: r.try_get("variant")?,
        rules: r.try_get("rules")?,
        clock: r.try_get("clock")?,
        rated: super::flag(r, "rated")?,
        creator: r.try_get("creator")?,
        status: r.try_get("status")?,
        round: r.try_get("round")?,
        starts_at: r.try_get("starts_at")?,
        started_at: r.try_get("started_at")?,
        finished_at: r.try_get("finished_at")?,
        created_at: r.try_get("created_at")?,
        championship: r.try_get("championship")?,
    })
}

fn board_row(r: &AnyRow) -> Result<BoardRow, sqlx::Error> {
    Ok(BoardRow {
        round: r.try_get("round")?,
        board: r.try_get("board")?,
        game_id: r.try_get("game_id")?,
        black: r.try_get("black")?,
        white: r.try_get("white")?,
        bye_points: r.try_get("bye_points")?,
        result: r.try_get("result")?,
        forfeit: super::flag(r, "forfeit")?,
    })
}

/// The condition of a tournament made by `creator` after `since` and not finished (SQL
/// parameters), which the limit on what one person makes counts.
fn unfinished_made(creator: &str, since: &str) -> String {
    format!("creator = {creator} AND status <> 'finished' AND created_at > {since}")
}

impl Store {
    /// Makes a tournament if its creator has fewer than `most` made since `since` not
    /// yet finished: counted and made in one step. Whether it was made.
    pub async fn create_tournament(
        &self,
        t: &TournamentRow,
        since: i64,
        most: i64,
    ) -> Result<bool, StoreError> {
        self.insert_tournament(t, Some((since, most))).await
    }

    /// Makes a championship's next edition: `false`, and nothing written, when one not
    /// yet finished exists (another server made it).
    pub async fn create_edition(&self, t: &TournamentRow) -> Result<bool, StoreError> {
        self.insert_tournament(t, None).await
    }

    async fn insert_tournament(
        &self,
        t: &TournamentRow,
        creators_room: Option<(i64, i64)>,
    ) -> Result<bool, StoreError> {
        // An edition is made once (a unique index); a creator's, under the limit. (SQLite
        // reads ON CONFLICT after a SELECT only behind a WHERE.)
        let condition = match creators_room {
            Some(_) => format!(
                "(SELECT COUNT(*) FROM tournaments WHERE {}) < $19",
                unfinished_made("$10", "$18")
            ),
            None => "1 = 1 ON CONFLICT DO NOTHING".to_string(),
        };
        let insert = format!(
            "INSERT INTO tournaments (id, name, format, rounds, minutes, variant, rules, clock,
                rated, creator, status, round, starts_at, started_at, finished_at, created_at,
                championship)
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17
             WHERE {condition}"
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(insert))
            .bind(&t.id)
            .bind(&t.name)
            .bind(&t.format)
            .bind(t.rounds)
            .bind(t.minutes)
            .bind(&t.variant)
            .bind(&t.rules)
            .bind(&t.clock)
            .bind(i64::from(t.rated))
            .bind(t.creator)
            .bind(&t.status)
            .bind(t.round)
            .bind(t.starts_at)
            .bind(t.started_at)
            .bind(t.finished_at)
            .bind(t.created_at)
            .bind(&t.championship);
        if let Some((since, most)) = creators_room {
            query = query.bind(since).bind(most);
        }
        let limited = creators_room.map(|_| Limited::Tournaments);
        self.insert_one_at_a_time(query, limited).await
    }

    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        let select = format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1");
        let row = sqlx::query(sqlx::AssertSqlSafe(select))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(tournament_row).transpose()?)
    }

    /// Tournaments by status (`None`: any), the soonest to start and the latest
    /// finished first.
    pub async fn tournaments(
        &self,
        status: Option<&str>,
        limit: usize,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let select = format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments
             WHERE $1 IS NULL OR status = $1
             ORDER BY CASE status WHEN 'running' THEN 0 WHEN 'open' THEN 1 ELSE 2 END,
                      COALESCE(finished_at, starts_at, created_at) DESC, id
             LIMIT $2"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(select))
            .bind(status)
            .bind(i64::try_from(limit).unwrap_or(i64::MAX))
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(tournament_row).collect::<Result<_, _>>()?)
    }

    /// Open tournaments whose start time has come.
    pub async fn tournaments_due(&self, now: i64) -> Result<Vec<String>, StoreError> {
        let ids = sqlx::query_scalar(
            "SELECT id FROM tournaments WHERE status = 'open' AND starts_at <= $1 ORDER BY starts_at",
        )
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        Ok(ids)
    }

    /// How many tournaments an account made after `since` are open or running.
    pub async fn unfinished_tournaments_of(
        &self,
        creator: i64,
        since: i64,
    ) -> Result<i64, StoreError> {
        let count = format!(
            "SELECT COUNT(*) FROM tournaments WHERE {}",
            unfinished_made("$1", "$2")
        );
        Ok(sqlx::query_scalar(sqlx::AssertSqlSafe(count))
            .bind(creator)
            .bind(since)
            .fetch_one(&self.pool)
            .await?)
    }

    /// Whether a championship has an edition open or running.
    pub async fn edition_pending(&self, championship: &str) -> Result<bool, StoreError> {
        let count: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM tournaments WHERE championship = $1 AND status <> 'finished'",
        )
        .bind(championship)
        .fetch_one(&self.pool)
        .await?;
        Ok(count > 0)
    }

    /// Moves an open tournament's start (`None`: its creator starts it).
    pub async fn postpone_tournament(
        &self,
        id: &str,
        starts_at: Option<i64>,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE tournaments SET starts_at = $2 WHERE id = $1 AND status = 'open'")
            .bind(id)
            .bind(starts_at)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Deletes a tournament not yet started, with its list of players; false if it has
    /// started (or is gone) meanwhile.
    pub async fn cancel_tournament(&self, id: &str) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        // The row first: a start at the same moment (on PostgreSQL) waits for this, then
        // finds it gone; or this finds it started.
        let cancelled = sqlx::query(
            "UPDATE tournaments SET status = 'cancelled' WHERE id = $1 AND status = 'open'",
        )
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if cancelled.rows_affected() == 0 {
            return Ok(false);
        }
        sqlx::query("DELETE FROM tournament_players WHERE tournament_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM tournaments WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Adds a player, or takes back one who withdrew; false if they were in already.
    pub async fn join_tournament(
        &self,
        id: &str,
        account: i64,
        rating: f64,
        now: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO tournament_players (tournament_id, account_id, joined_at, rating)
             VALUES ($1, $2, $3, $4)
             ON CONFLICT (tournament_id, account_id) DO UPDATE SET active = 1
             WHERE tournament_players.active = 0",
        )
        .bind(id)
        .bind(account)
        .bind(now)
        .bind(rating)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Takes a player out: before the start, off the list; after, never paired again.
    pub async fn withdraw_from_tournament(
        &self,
        id: &str,
        account: i64,
        started: bool,
    ) -> Result<bool, StoreError> {
        let statement = if started {
            "UPDATE tournament_players SET active = 0
             WHERE tournament_id = $1 AND account_id = $2 AND active = 1"
        } else {
            "DELETE FROM tournament_players WHERE tournament_id = $1 AND account_id = $2"
        };
        let done = sqlx::query(statement)
            .bind(id)
            .bind(account)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The players, in the order they joined.
    pub async fn entrants(&self, id: &str) -> Result<Vec<EntrantRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT p.account_id, a.name, p.joined_at, p.rating, p.active, p.division
             FROM tournament_players p JOIN accounts a ON a.id = p.account_id
             WHERE p.tournament_id = $1 ORDER BY p.joined_at, p.account_id",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(EntrantRow {
                    account: r.try_get("account_id")?,
                    name: r.try_get("name")?,
                    joined_at: r.try_get("joined_at")?,
                    rating: r.try_get("rating")?,
                    active: super::flag(r, "active")?,
                    division: r.try_get("division")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::from)
    }

    /// Starts a tournament: its players' ratings (and divisions) as of now.
    pub async fn start_tournament(
        &self,
        id: &str,
        now: i64,
        seeds: &[(i64, f64, Option<i64>)],
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let started = sqlx::query(
            "UPDATE tournaments SET status = 'running', started_at = $2
             WHERE id = $1 AND status = 'open'",
        )
        .bind(id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if started.rows_affected() == 0 {
            return Ok(false);
        }
        for (account, rating, division) in seeds {
            sqlx::query(
                "UPDATE tournament_players SET rating = $3, division = $4
                 WHERE tournament_id = $1 AND account_id = $2",
            )
            .bind(id)
            .bind(account)
            .bind(rating)
            .bind(division)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// A league season's divisions: those not placed have none.
    pub async fn set_divisions(&self, id: &str, placed: &[(i64, i64)]) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE tournament_players SET division = NULL WHERE tournament_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        for (account, division) in placed {
            sqlx::query(
                "UPDATE tournament_players SET division = $3
                 WHERE tournament_id = $1 AND account_id = $2",
            )
            .bind(id)
            .bind(account)
            .bind(division)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The tournament a game was paired in, and its round: `(id, name, round)`.
    pub async fn game_tournament(
        &self,
        game: &str,
    ) -> Result<Option<(String, String, i64)>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT t.id, t.name, b.round FROM tournament_boards b
             JOIN tournaments t ON t.id = b.tournament_id WHERE b.game_id = $1",
        )
        .bind(game)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Every board of every round, in order.
    pub async fn boards(&self, id: &str) -> Result<Vec<BoardRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT round, board, game_id, black, white, bye_points, result, forfeit
             FROM tournament_boards WHERE tournament_id = $1 ORDER BY round, board",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(board_row).collect::<Result<_, _>>()?)
    }

    /// Writes a new round's boards (their games not yet made) and makes it the current
    /// round: `false`, and nothing written, when the round before it is no longer the
    /// current one (another server paired this round first).
    pub async fn add_round(
        &self,
        id: &str,
        round: i64,
        boards: &[BoardRow],
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let claimed =
            sqlx::query("UPDATE tournaments SET round = $2 WHERE id = $1 AND round = $2 - 1")
                .bind(id)
                .bind(round)
                .execute(&mut *tx)
                .await?;
        if claimed.rows_affected() != 1 {
            return Ok(false);
        }
        for b in boards {
            let insert = sqlx::query(
                "INSERT INTO tournament_boards (tournament_id, round, board, black, white,
                    bye_points, result, forfeit)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(id)
            .bind(b.round)
            .bind(b.board)
            .bind(b.black)
            .bind(b.white);
            super::bind_real(insert, b.bye_points)
                .bind(&b.result)
                .bind(i64::from(b.forfeit))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Notes a game's result on its board; false if it was noted already.
    pub async fn set_board_result(
        &self,
        game: &str,
        result: &str,
        forfeit: bool,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE tournament_boards SET result = $2, forfeit = $3
             WHERE game_id = $1 AND result IS NULL",
        )
        .bind(game)
        .bind(result)
        .bind(i64::from(forfeit))
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Ends a tournament, with the medals it awards as (account, place).
    pub async fn finish_tournament(
        &self,
        id: &str,
        now: i64,
        medals: &[(i64, i64)],
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE tournaments SET status = 'finished', finished_at = $2
             WHERE id = $1 AND status = 'running'",
        )
        .bind(id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 1 {
            for (account, place) in medals {
                sqlx::query(
                    "INSERT INTO medals (account_id, event, place, at) VALUES ($1, $2, $3, $4)",
                )
                .bind(account)
                .bind(id)
                .bind(place)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_championship_has_one_edition_not_yet_finished() {
        for db in super::super::testing::every_database().await {
            let (store, other_server) = (db.open().await, db.open().await);
            let organizer = store.bot_account("loa", 1).await.unwrap();
            let edition = |id: &str| TournamentRow {
                id: id.into(),
                name: "Blitz".into(),
                format: "swiss".into(),
                rounds: 7,
                minutes: None,
                variant: "standard".into(),
                rules: "draw".into(),
                clock: "{}".into(),
                rated: true,
                creator: organizer.id,
                status: "open".into(),
                round: 0,
                starts_at: Some(10),
                started_at: None,
                finished_at: None,
                created_at: 1,
                championship: Some("monthly-blitz".into()),
            };
            assert!(store.create_edition(&edition("e1")).await.unwrap());
            // A second server making it at the same time makes nothing.
            assert!(!other_server.create_edition(&edition("e2")).await.unwrap());
            assert!(store.tournament("e2").await.unwrap().is_none());
            store
                .execute_raw("UPDATE tournaments SET status = 'finished' WHERE id = 'e1'")
                .await
                .unwrap();
            assert!(other_server.create_edition(&edition("e2")).await.unwrap());
        }
    }
}
