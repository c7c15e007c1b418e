//! Games: a game's row, its seats and its moves.

use super::events::Event;
use super::{Store, StoreError};
use sqlx::any::AnyRow;
use sqlx::Row;

/// A game row's columns, named (never `*`: a cached statement keeps the columns it was
/// prepared with).
pub(super) const GAME_COLUMNS: &str =
    "id, created_at, updated_at, variant, rules, start, players, names,
    time_control, online, started_at, black_ms, white_ms, running_since, result, winner, reason,
    draw_offer, takeback_offer, rematch, rated, black_change, white_change, black_account,
    white_account, version, tournament_game";

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
    /// Whether the game counts for both players' ratings.
    pub rated: bool,
    /// Black's and White's accounts, if any.
    pub accounts: [Option<i64>; 2],
    /// Black's and White's rating changes, once a rated game has ended.
    pub rating_changes: Option<[i64; 2]>,
    /// How many changes the game has had: an update is written only over this version.
    pub version: i64,
    /// Whether a tournament paired it.
    pub tournament_game: bool,
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
    /// The account whose seat it is, if any: its sessions and API tokens act there too.
    pub account: Option<i64>,
}

/// A game read back whole.
#[derive(Clone, Debug)]
pub struct StoredGame {
    pub row: GameRow,
    pub seats: Vec<SeatRow>,
    pub moves: Vec<MoveRow>,
    pub chat: Vec<ChatRow>,
}

/// A line the players of a game said: when, from which seat, under which name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRow {
    pub at: i64,
    pub slot: String,
    pub name: Option<String>,
    pub text: String,
}

/// What changed in a game, written in one transaction.
#[derive(Debug, Default)]
pub struct Change<'a> {
    /// Moves from this ply on are taken back first.
    pub truncate_from: Option<usize>,
    /// Moves added, starting at ply `first_new_ply`.
    pub new_moves: &'a [MoveRow],
    pub first_new_ply: usize,
    /// Seats whose `joined` or account changed.
    pub seats: &'a [SeatRow],
    /// The ratings a rated game's end moved, written with it.
    pub ratings: &'a [super::RatingUpdate],
    /// Lines said.
    pub chat: &'a [ChatRow],
    /// The game ended with this change: its report is queued with it.
    pub queue_report: bool,
}

/// The tournament board a new game is played on.
#[derive(Clone, Copy, Debug)]
pub struct BoardOf<'a> {
    pub tournament: &'a str,
    pub round: i64,
    pub board: i64,
}

impl Store {
    /// Adds a new game with its seats and any moves it starts with, and names it on its
    /// tournament's board (if it is one) in the same transaction: nobody finds a
    /// tournament's game that does not say it is one.
    pub async fn insert(
        &self,
        game: &StoredGame,
        board: Option<BoardOf<'_>>,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        let r = &game.row;
        sqlx::query(
            "INSERT INTO games (id, created_at, updated_at, variant, rules, start, players,
                names, time_control, online, started_at, black_ms, white_ms, running_since,
                result, winner, reason, draw_offer, takeback_offer, rematch, rated, black_account,
                white_account, version, tournament_game)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
                $17, $18, $19, $20, $21, $22, $23, $24, $25)",
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
        .bind(i64::from(r.online))
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
        .bind(i64::from(r.rated))
        .bind(r.accounts[0])
        .bind(r.accounts[1])
        .bind(r.version)
        .bind(i64::from(r.tournament_game))
        .execute(&mut *tx)
        .await?;
        for seat in &game.seats {
            sqlx::query(
                "INSERT INTO seats (game_id, slot, token, joined, account_id)
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&r.id)
            .bind(&seat.slot)
            .bind(&seat.token)
            .bind(i64::from(seat.joined))
            .bind(seat.account)
            .execute(&mut *tx)
            .await?;
        }
        insert_moves(&mut tx, &r.id, 0, &game.moves).await?;
        if let Some(b) = board {
            sqlx::query(
                "UPDATE tournament_boards SET game_id = $4
                 WHERE tournament_id = $1 AND round = $2 AND board = $3",
            )
            .bind(b.tournament)
            .bind(b.round)
            .bind(b.board)
            .bind(&r.id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Writes a game's new state and what changed with it, over the version the row
    /// names: `false`, and nothing written, when the game has changed since (another
    /// server wrote it) or does not exist.
    pub async fn update(&self, row: &GameRow, change: &Change<'_>) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        // The game's row first: on PostgreSQL it is locked from here to the commit, so a
        // second server's change to the same game waits, then finds the version moved.
        let updated = sqlx::query(
            "UPDATE games SET updated_at = $2, started_at = $3, black_ms = $4, white_ms = $5,
                running_since = $6, result = $7, winner = $8, reason = $9, draw_offer = $10,
                takeback_offer = $11, rematch = $12, black_change = $13, white_change = $14,
                black_account = $15, white_account = $16, names = $18, version = version + 1
             WHERE id = $1 AND version = $17",
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
        .bind(row.rating_changes.map(|c| c[0]))
        .bind(row.rating_changes.map(|c| c[1]))
        .bind(row.accounts[0])
        .bind(row.accounts[1])
        .bind(row.version)
        .bind(&row.names)
        .execute(&mut *tx)
        .await?;
        if updated.rows_affected() != 1 {
            return Ok(false);
        }
        if let Some(ply) = change.truncate_from {
            sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                .bind(&row.id)
                .bind(ply_number(ply))
                .execute(&mut *tx)
                .await?;
        }
        insert_moves(&mut tx, &row.id, change.first_new_ply, change.new_moves).await?;
        for seat in change.seats {
            sqlx::query(
                "UPDATE seats SET joined = $3, account_id = $4 WHERE game_id = $1 AND slot = $2",
            )
            .bind(&row.id)
            .bind(&seat.slot)
            .bind(i64::from(seat.joined))
            .bind(seat.account)
            .execute(&mut *tx)
            .await?;
        }
        for line in change.chat {
            sqlx::query(
                "INSERT INTO chat (game_id, at, slot, name, text, seq) VALUES ($1, $2, $3, $4, $5,
                    (SELECT COALESCE(MAX(seq), 0) + 1 FROM chat WHERE game_id = $1))",
            )
            .bind(&row.id)
            .bind(line.at)
            .bind(&line.slot)
            .bind(&line.name)
            .bind(&line.text)
            .execute(&mut *tx)
            .await?;
        }
        for update in change.ratings {
            if !super::ratings::write(&mut tx, update, &row.id, row.updated_at).await? {
                return Ok(false);
            }
        }
        if change.queue_report {
            super::reports::queue_in(&mut tx, &row.id, row.updated_at).await?;
        }
        self.announce_in(
            &mut tx,
            &Event::Game {
                id: row.id.clone(),
                version: row.version + 1,
            },
        )
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// A game whole, or `None` if there is no such game.
    pub async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let select = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
        let Some(row) = sqlx::query(sqlx::AssertSqlSafe(select))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        let row = game_row(&row)?;
        let seats = sqlx::query(
            "SELECT slot, token, joined, account_id FROM seats WHERE game_id = $1
                 ORDER BY slot",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| {
            Ok(SeatRow {
                slot: r.try_get("slot")?,
                token: r.try_get("token")?,
                joined: super::flag(r, "joined")?,
                account: r.try_get("account_id")?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()?;
        let moves = sqlx::query(
            "SELECT move, played_at, black_ms, white_ms FROM moves WHERE game_id = $1
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
        let chat = sqlx::query(
            "SELECT at, slot, name, text FROM chat WHERE game_id = $1 ORDER BY at, seq",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| {
            Ok(ChatRow {
                at: r.try_get("at")?,
                slot: r.try_get("slot")?,
                name: r.try_get("name")?,
                text: r.try_get("text")?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()?;
        Ok(Some(StoredGame {
            row,
            seats,
            moves,
            chat,
        }))
    }

    /// The games no player has yet left waiting for another (an invitation not opened, a
    /// rematch not taken), made before `made_before`.
    pub async fn unstarted_games_made_before(
        &self,
        made_before: i64,
    ) -> Result<Vec<String>, StoreError> {
        let ids = sqlx::query_scalar(
            "SELECT id FROM games
             WHERE result IS NULL AND started_at IS NULL AND created_at < $1",
        )
        .bind(made_before)
        .fetch_all(&self.pool)
        .await?;
        Ok(ids)
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
}

fn ply_number(ply: usize) -> i64 {
    i64::try_from(ply).unwrap_or(i64::MAX)
}

async fn insert_moves(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    first_ply: usize,
    moves: &[MoveRow],
) -> Result<(), StoreError> {
    for (i, mv) in moves.iter().enumerate() {
        sqlx::query(
            "INSERT INTO moves (game_id, ply, move, played_at, black_ms, white_ms)
             VALUES ($1, $2, $3, $4, $5, $6)",
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

pub(super) fn game_row(r: &AnyRow) -> Result<GameRow, sqlx::Error> {
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
        online: super::flag(r, "online")?,
        started_at: r.try_get("started_at")?,
        clock_ms: black.zip(white).map(|(b, w)| [b, w]),
        running_since: r.try_get("running_since")?,
        result: r.try_get("result")?,
        winner: r.try_get("winner")?,
        reason: r.try_get("reason")?,
        draw_offer: r.try_get("draw_offer")?,
        takeback_offer: r.try_get("takeback_offer")?,
        rematch: r.try_get("rematch")?,
        rated: super::flag(r, "rated")?,
        accounts: [r.try_get("black_account")?, r.try_get("white_account")?],
        rating_changes: {
            let black: Option<i64> = r.try_get("black_change")?;
            let white: Option<i64> = r.try_get("white_change")?;
            black.zip(white).map(|(b, w)| [b, w])
        },
        version: r.try_get("version")?,
        tournament_game: super::flag(r, "tournament_game")?,
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::store) fn row(id: &str) -> GameRow {
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
            rated: false,
            accounts: [None, None],
            rating_changes: None,
            version: 0,
            tournament_game: false,
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
        for db in super::super::testing::every_database().await {
            {
                let store = db.open().await;
                let game = StoredGame {
                    row: row("g1"),
                    seats: vec![SeatRow {
                        slot: "black".into(),
                        token: "t".into(),
                        joined: false,
                        account: None,
                    }],
                    moves: vec![mv("b1-b3")],
                    chat: Vec::new(),
                };
                store.insert(&game, None).await.unwrap();
                let mut changed = row("g1");
                changed.updated_at = 9;
                changed.result = Some("1-0".into());
                let new = [mv("a2-c2"), mv("c1-c3")];
                let seats = [SeatRow {
                    slot: "black".into(),
                    token: "t".into(),
                    joined: true,
                    account: None,
                }];
                let change = Change {
                    new_moves: &new,
                    first_new_ply: 1,
                    seats: &seats,
                    ..Change::default()
                };
                assert!(store.update(&changed, &change).await.unwrap());
                // Written over the version it was read at only: a second writer of the
                // same version (another server) writes nothing.
                assert!(!store.update(&changed, &change).await.unwrap());
                // A change to a game that does not exist writes nothing.
                let ghost = row("nope");
                let change = Change {
                    new_moves: &new,
                    first_new_ply: 0,
                    ..Change::default()
                };
                assert!(!store.update(&ghost, &change).await.unwrap());
            }
            let store = db.open().await;
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
            assert_eq!(game.row.version, 1);
            assert!(store.update(&game.row, &truncate).await.unwrap());
            assert_eq!(store.load("g1").await.unwrap().unwrap().moves.len(), 1);
            assert_eq!(
                store
                    .list(10, 0, &super::super::GameFilter::default())
                    .await
                    .unwrap()[0]
                    .1,
                1
            );
        }
    }

    #[tokio::test]
    async fn a_rating_is_written_only_over_the_one_it_was_computed_from() {
        for db in super::super::testing::every_database().await {
            let store = db.open().await;
            let ann = store
                .create_account("Ann", "ann", "h", None, false, 1)
                .await
                .unwrap()
                .unwrap()
                .id;
            for id in ["g1", "g2"] {
                let game = StoredGame {
                    row: row(id),
                    seats: Vec::new(),
                    moves: Vec::new(),
                    chat: Vec::new(),
                };
                store.insert(&game, None).await.unwrap();
            }
            // Two games ending at once on two servers, each rated from no game played.
            let first_game = [super::super::RatingUpdate {
                account: ann,
                rating: super::super::RatingRow {
                    category: "standard/blitz".into(),
                    rating: 1600.0,
                    deviation: 300.0,
                    volatility: 0.06,
                    games: 1,
                },
            }];
            let change = Change {
                ratings: &first_game,
                ..Change::default()
            };
            assert!(store.update(&row("g1"), &change).await.unwrap());
            // The second is not written (its game neither): it is rated again from the
            // rating the first wrote.
            assert!(!store.update(&row("g2"), &change).await.unwrap());
            assert_eq!(store.load("g2").await.unwrap().unwrap().row.version, 0);
            let mut second_game = first_game.clone();
            second_game[0].rating.games = 2;
            let change = Change {
                ratings: &second_game,
                ..Change::default()
            };
            assert!(store.update(&row("g2"), &change).await.unwrap());
            let kept = store.rating(ann, "standard/blitz").await.unwrap().unwrap();
            assert_eq!(kept.games, 2);
        }
    }
}
