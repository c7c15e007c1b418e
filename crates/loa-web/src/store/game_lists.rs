//! Lists of games: an account's, filtered by opponent, variant, rated and outcome, and
//! its results against each opponent.

use super::games::{game_row, GameRow, GAME_COLUMNS};
use super::{Store, StoreError};
use sqlx::Row;

/// Which games a list holds; `None` everywhere lists them all. The opponent and the
/// outcome are read from the account's side, and need it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFilter {
    pub account: Option<i64>,
    pub opponent: Option<i64>,
    /// The variant's name, as kept in a game's row.
    pub variant: Option<String>,
    pub rated: Option<bool>,
    pub outcome: Option<Outcome>,
}

impl GameFilter {
    /// Every game an account played.
    pub fn of(account: i64) -> GameFilter {
        GameFilter {
            account: Some(account),
            ..GameFilter::default()
        }
    }
}

/// How a game went for one side, or that it goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Loss,
    Draw,
    Playing,
}

impl Outcome {
    pub const ALL: [Outcome; 4] = [Outcome::Win, Outcome::Loss, Outcome::Draw, Outcome::Playing];

    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
            Outcome::Draw => "draw",
            Outcome::Playing => "playing",
        }
    }

    pub fn parse(text: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.name() == text)
    }
}

/// An account's results against one opponent, in finished games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpponentRow {
    pub name: String,
    pub bot: bool,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
}

impl Store {
    /// The most recently changed games the filter lets through, newest first, with
    /// their move counts.
    pub async fn list(
        &self,
        limit: usize,
        offset: usize,
        filter: &GameFilter,
    ) -> Result<Vec<(GameRow, usize)>, StoreError> {
        // Each condition holds when its parameter is NULL: one statement for every filter.
        let select = format!(
            "SELECT {GAME_COLUMNS},
                (SELECT COUNT(*) FROM moves m WHERE m.game_id = games.id) AS moves_played
             FROM games
             WHERE ($3 IS NULL OR black_account = $3 OR white_account = $3)
               AND ($4 IS NULL OR (black_account = $3 AND white_account = $4)
                               OR (white_account = $3 AND black_account = $4))
               AND ($5 IS NULL OR variant = $5)
               AND ($6 IS NULL OR rated = $6)
               AND ($7 IS NULL
                    OR ($7 = 'playing' AND result IS NULL)
                    OR ($7 = 'draw' AND result = '1/2-1/2')
                    OR ($7 = 'win' AND ((winner = 'black' AND black_account = $3)
                                        OR (winner = 'white' AND white_account = $3)))
                    OR ($7 = 'loss' AND ((winner = 'white' AND black_account = $3)
                                         OR (winner = 'black' AND white_account = $3))))
             ORDER BY updated_at DESC, id LIMIT $1 OFFSET $2"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(select))
            .bind(i64::try_from(limit).unwrap_or(i64::MAX))
            .bind(i64::try_from(offset).unwrap_or(i64::MAX))
            .bind(filter.account)
            .bind(filter.opponent)
            .bind(filter.variant.as_deref())
            .bind(filter.rated.map(i64::from))
            .bind(filter.outcome.map(Outcome::name))
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

    /// An account's results against each account it finished a game with (an aborted
    /// game has no result), the most played first.
    pub async fn opponents(
        &self,
        account: i64,
        limit: usize,
    ) -> Result<Vec<OpponentRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.name, a.bot,
                    SUM(CASE WHEN g.winner = g.side THEN 1 ELSE 0 END) AS wins,
                    SUM(CASE WHEN g.winner IS NOT NULL AND g.winner <> g.side
                             THEN 1 ELSE 0 END) AS losses,
                    SUM(CASE WHEN g.winner IS NULL THEN 1 ELSE 0 END) AS draws
             FROM (SELECT winner,
                          CASE WHEN black_account = $1 THEN 'black' ELSE 'white' END AS side,
                          CASE WHEN black_account = $1 THEN white_account
                               ELSE black_account END AS opponent
                   FROM games
                   WHERE (black_account = $1 OR white_account = $1)
                     AND result IS NOT NULL AND result <> '*')
                  AS g
             JOIN accounts a ON a.id = g.opponent
             WHERE g.opponent <> $1
             GROUP BY a.id, a.name, a.bot, a.name_key
             ORDER BY COUNT(*) DESC, a.name_key
             LIMIT $2",
        )
        .bind(account)
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(OpponentRow {
                    name: r.try_get("name")?,
                    bot: super::flag(r, "bot")?,
                    wins: r.try_get("wins")?,
                    losses: r.try_get("losses")?,
                    draws: r.try_get("draws")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::games::tests::row;
    use crate::store::StoredGame;

    async fn listed(store: &Store, filter: GameFilter) -> Vec<String> {
        let games = store.list(50, 0, &filter).await.unwrap();
        games.into_iter().map(|(g, _)| g.id).collect()
    }

    #[tokio::test]
    async fn a_players_games_are_filtered_and_counted_against_each_opponent() {
        for db in super::super::testing::every_database().await {
            let store = db.open().await;
            let mut ids = Vec::new();
            for name in ["ann", "bob", "cy"] {
                let account = store.create_account(name, name, "h", None, false, 1);
                ids.push(account.await.unwrap().unwrap().id);
            }
            let [ann, bob, cy] = [ids[0], ids[1], ids[2]];
            // (id, black, white, winner, result, variant, rated)
            let games = [
                ("g1", ann, bob, Some("black"), Some("1-0"), "standard", true),
                ("g2", bob, ann, Some("black"), Some("1-0"), "standard", true),
                ("g3", ann, bob, None, Some("1/2-1/2"), "standard", false),
                (
                    "g4",
                    cy,
                    ann,
                    Some("white"),
                    Some("0-1"),
                    "scrambled-eggs",
                    true,
                ),
                ("g5", ann, cy, None, None, "standard", false),
                ("g6", bob, cy, Some("white"), Some("0-1"), "standard", true),
            ];
            for (i, (id, black, white, winner, result, variant, rated)) in games.iter().enumerate()
            {
                let mut game = row(id);
                game.updated_at = i as i64;
                game.accounts = [Some(*black), Some(*white)];
                game.winner = winner.map(str::to_string);
                game.result = result.map(str::to_string);
                game.variant = variant.to_string();
                game.rated = *rated;
                let stored = StoredGame {
                    row: game,
                    seats: Vec::new(),
                    moves: Vec::new(),
                    chat: Vec::new(),
                };
                store.insert(&stored, None).await.unwrap();
            }
            let of_ann = GameFilter::of(ann);
            assert_eq!(
                listed(&store, of_ann.clone()).await,
                ["g5", "g4", "g3", "g2", "g1"]
            );
            let versus_bob = GameFilter {
                opponent: Some(bob),
                ..of_ann.clone()
            };
            assert_eq!(listed(&store, versus_bob).await, ["g3", "g2", "g1"]);
            let by_outcome = |outcome| GameFilter {
                outcome: Some(outcome),
                ..of_ann.clone()
            };
            assert_eq!(listed(&store, by_outcome(Outcome::Win)).await, ["g4", "g1"]);
            assert_eq!(listed(&store, by_outcome(Outcome::Loss)).await, ["g2"]);
            assert_eq!(listed(&store, by_outcome(Outcome::Draw)).await, ["g3"]);
            assert_eq!(listed(&store, by_outcome(Outcome::Playing)).await, ["g5"]);
            let rated_eggs = GameFilter {
                variant: Some("scrambled-eggs".into()),
                rated: Some(true),
                ..of_ann.clone()
            };
            assert_eq!(listed(&store, rated_eggs).await, ["g4"]);
            let unrated = GameFilter {
                rated: Some(false),
                ..of_ann
            };
            assert_eq!(listed(&store, unrated).await, ["g5", "g3"]);
            // Finished games only: against Bob 1 win, 1 loss, 1 draw; against Cy 1 win.
            let opponents = store.opponents(ann, 10).await.unwrap();
            let counted: Vec<_> = opponents
                .iter()
                .map(|o| (o.name.as_str(), o.wins, o.losses, o.draws))
                .collect();
            assert_eq!(counted, [("bob", 1, 1, 1), ("cy", 1, 0, 0)]);
            assert_eq!(store.opponents(cy, 10).await.unwrap()[0].name, "ann");
            assert_eq!(store.opponents(ann, 1).await.unwrap().len(), 1);
        }
    }
}
