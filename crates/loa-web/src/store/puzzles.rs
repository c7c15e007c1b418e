//! Puzzles, their ratings and the players', each account's tries, and the puzzle of each
//! day.

use super::{Store, StoreError};
use crate::ratings::Rating;
use sqlx::any::AnyRow;
use sqlx::Row;

/// A puzzle to add: its line as `loa puzzles make` writes it, and what is known of it.
#[derive(Clone, Debug, PartialEq)]
pub struct NewPuzzle {
    pub id: String,
    pub body: String,
    pub variant: String,
    pub themes: Vec<String>,
    pub moves: i64,
    pub rating: Rating,
}

/// A puzzle as kept.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRow {
    pub id: String,
    pub body: String,
    pub variant: String,
    pub themes: Vec<String>,
    pub moves: i64,
    /// Its rating; `games` counts its rated tries.
    pub rating: Rating,
    /// Rated tries that solved it.
    pub wins: i64,
}

/// Which puzzle to give next.
#[derive(Clone, Debug, Default)]
pub struct PuzzleChoice<'a> {
    /// Puzzles this account has not tried yet.
    pub account: Option<i64>,
    pub theme: Option<&'a str>,
    pub variant: Option<&'a str>,
    /// Not this one (the puzzle just shown).
    pub not: Option<&'a str>,
    /// The rating to come nearest.
    pub near: f64,
}

/// A player's puzzle rating; `games` counts first tries.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRatingRow {
    pub rating: Rating,
    pub wins: i64,
}

/// An account's first try at a puzzle, which rated it.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleTry {
    pub solved: bool,
    pub rating_before: f64,
    pub rating_after: f64,
}

/// What came of rating a try.
#[derive(Clone, Debug, PartialEq)]
pub enum TryRating {
    Rated(PuzzleTry),
    /// The account tried the puzzle before: only the first try counts.
    TriedBefore,
    /// Other servers kept rating the same player or puzzle: nothing was written.
    Busy,
}

/// How many puzzles there are, in all, by theme and by variant.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PuzzleCounts {
    pub total: i64,
    pub themes: Vec<(String, i64)>,
    pub variants: Vec<(String, i64)>,
}

const COLUMNS: &str =
    "id, body, variant, themes, moves, rating, deviation, volatility, plays, wins";

fn puzzle_row(r: &AnyRow) -> Result<PuzzleRow, sqlx::Error> {
    let themes: String = r.try_get("themes")?;
    Ok(PuzzleRow {
        id: r.try_get("id")?,
        body: r.try_get("body")?,
        variant: r.try_get("variant")?,
        themes: themes.split_whitespace().map(str::to_string).collect(),
        moves: r.try_get("moves")?,
        rating: rating_of(r)?,
        wins: r.try_get("wins")?,
    })
}

fn rating_of(r: &AnyRow) -> Result<Rating, sqlx::Error> {
    Ok(Rating {
        rating: r.try_get("rating")?,
        deviation: r.try_get("deviation")?,
        volatility: r.try_get("volatility")?,
        games: u32::try_from(r.try_get::<i64, _>("plays")?).unwrap_or(u32::MAX),
    })
}

/// `SELECT` of every puzzle column, with a condition of this module's own.
fn select_where(condition: &'static str) -> sqlx::AssertSqlSafe<String> {
    sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM puzzles WHERE {condition}"))
}

/// Themes kept with a space on each side, so that `LIKE '% block %'` finds one whole.
fn themes_column(themes: &[String]) -> String {
    format!(" {} ", themes.join(" "))
}

/// How many times a try is made again when another server rated the same puzzle or
/// player meanwhile.
const TRIES: usize = 5;

impl Store {
    /// Adds puzzles; one already kept (the same id) is left as it is, with its rating.
    /// How many were new.
    pub async fn add_puzzles(&self, puzzles: &[NewPuzzle], now: i64) -> Result<u64, StoreError> {
        let mut tx = self.pool.begin().await?;
        let mut added = 0;
        for p in puzzles {
            added += sqlx::query(
                "INSERT INTO puzzles (id, body, variant, themes, moves, rating, deviation,
                    volatility, added_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                 ON CONFLICT (id) DO NOTHING",
            )
            .bind(&p.id)
            .bind(&p.body)
            .bind(&p.variant)
            .bind(themes_column(&p.themes))
            .bind(p.moves)
            .bind(p.rating.rating)
            .bind(p.rating.deviation)
            .bind(p.rating.volatility)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        }
        tx.commit().await?;
        Ok(added)
    }

    pub async fn puzzle(&self, id: &str) -> Result<Option<PuzzleRow>, StoreError> {
        let row = sqlx::query(select_where("id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(puzzle_row).transpose()?)
    }

    /// The puzzle whose rating is nearest `choice.near` among those chosen.
    pub async fn next_puzzle(
        &self,
        choice: &PuzzleChoice<'_>,
    ) -> Result<Option<PuzzleRow>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM puzzles p
             WHERE ($1 = '' OR p.themes LIKE $1) AND ($2 = '' OR p.variant = $2)
               AND p.id <> $3
               AND NOT EXISTS (SELECT 1 FROM puzzle_tries t
                               WHERE t.puzzle_id = p.id AND t.account_id = $4)
             ORDER BY ABS(p.rating - $5), p.id LIMIT 1"
        )))
        .bind(choice.theme.map_or(String::new(), |t| format!("% {t} %")))
        .bind(choice.variant.unwrap_or(""))
        .bind(choice.not.unwrap_or(""))
        .bind(choice.account.unwrap_or(-1))
        .bind(choice.near)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(puzzle_row).transpose()?)
    }

    /// The puzzle of a day (`2026-11-27`): on the day's first ask, of the puzzles a day's
    /// puzzle the fewest times (never, until every one was), the one whose rating is
    /// nearest `near`. Every server gives the same.
    pub async fn daily_puzzle(
        &self,
        day: &str,
        near: f64,
    ) -> Result<Option<PuzzleRow>, StoreError> {
        let chosen = || select_where("id = (SELECT puzzle_id FROM daily_puzzles WHERE day = $1)");
        for _ in 0..TRIES {
            if let Some(row) = sqlx::query(chosen())
                .bind(day)
                .fetch_optional(&self.pool)
                .await?
            {
                return Ok(Some(puzzle_row(&row)?));
            }
            // Two servers choosing at once: one row is written, and both read it.
            let written = sqlx::query(
                "INSERT INTO daily_puzzles (day, puzzle_id)
                 SELECT $1, p.id FROM puzzles p WHERE p.id IS NOT NULL
                 ORDER BY (SELECT COUNT(*) FROM daily_puzzles d WHERE d.puzzle_id = p.id),
                    ABS(p.rating - $2), p.id
                 LIMIT 1
                 ON CONFLICT DO NOTHING",
            )
            .bind(day)
            .bind(near)
            .execute(&self.pool)
            .await?;
            if written.rows_affected() == 0 && !self.has_puzzles().await? {
                break;
            }
        }
        let row = sqlx::query(chosen())
            .bind(day)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(puzzle_row).transpose()?)
    }

    async fn has_puzzles(&self) -> Result<bool, StoreError> {
        let any: Option<String> = sqlx::query_scalar("SELECT id FROM puzzles LIMIT 1")
            .fetch_optional(&self.pool)
            .await?;
        Ok(any.is_some())
    }

    pub async fn puzzle_counts(&self) -> Result<PuzzleCounts, StoreError> {
        let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM puzzles")
            .fetch_one(&self.pool)
            .await?;
        let variants = sqlx::query(
            "SELECT variant, COUNT(*) AS n FROM puzzles GROUP BY variant ORDER BY variant",
        )
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| Ok((r.try_get("variant")?, r.try_get("n")?)))
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
        let mut themes = Vec::new();
        for theme in loa_engine::puzzles::Theme::ALL.map(|t| t.name()) {
            let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM puzzles WHERE themes LIKE $1")
                .bind(format!("% {theme} %"))
                .fetch_one(&self.pool)
                .await?;
            themes.push((theme.to_string(), n));
        }
        Ok(PuzzleCounts {
            total,
            themes,
            variants,
        })
    }

    pub async fn puzzle_rating(&self, account: i64) -> Result<Option<PuzzleRatingRow>, StoreError> {
        let row = sqlx::query(
            "SELECT rating, deviation, volatility, plays, wins FROM puzzle_ratings
             WHERE account_id = $1",
        )
        .bind(account)
        .fetch_optional(&self.pool)
        .await?;
        let Some(r) = row else {
            return Ok(None);
        };
        Ok(Some(PuzzleRatingRow {
            rating: rating_of(&r)?,
            wins: r.try_get("wins")?,
        }))
    }

    pub async fn puzzle_try(
        &self,
        account: i64,
        puzzle: &str,
    ) -> Result<Option<PuzzleTry>, StoreError> {
        let row = sqlx::query(
            "SELECT solved, rating_before, rating_after FROM puzzle_tries
             WHERE account_id = $1 AND puzzle_id = $2",
        )
        .bind(account)
        .bind(puzzle)
        .fetch_optional(&self.pool)
        .await?;
        let Some(r) = row else {
            return Ok(None);
        };
        Ok(Some(PuzzleTry {
            solved: super::flag(&r, "solved")?,
            rating_before: r.try_get("rating_before")?,
            rating_after: r.try_get("rating_after")?,
        }))
    }

    /// Rates an account's first try at a puzzle: `rate` gives the player's and the
    /// puzzle's ratings after it from theirs before (a newcomer's is `default`). A puzzle
    /// that is not kept is `RowNotFound`.
    pub async fn rate_puzzle_try(
        &self,
        account: i64,
        puzzle: &str,
        solved: bool,
        now: i64,
        default: Rating,
        rate: impl Fn(Rating, Rating) -> (Rating, Rating),
    ) -> Result<TryRating, StoreError> {
        for _ in 0..TRIES {
            let mut tx = self.pool.begin().await?;
            // The try first: on SQLite the transaction writes from its first statement,
            // so it waits for the write lock rather than failing on it after its reads.
            let first = sqlx::query(
                "INSERT INTO puzzle_tries (puzzle_id, account_id, solved, at, rating_before,
                    rating_after) VALUES ($1, $2, $3, $4, 0, 0)
                 ON CONFLICT (account_id, puzzle_id) DO NOTHING",
            )
            .bind(puzzle)
            .bind(account)
            .bind(i64::from(solved))
            .bind(now)
            .execute(&mut *tx)
            .await?;
            if first.rows_affected() == 0 {
                return Ok(TryRating::TriedBefore);
            }
            let Some(row) = sqlx::query(select_where("id = $1"))
                .bind(puzzle)
                .fetch_optional(&mut *tx)
                .await?
            else {
                return Err(sqlx::Error::RowNotFound.into());
            };
            let puzzle_before = rating_of(&row)?;
            let player_before = sqlx::query(
                "SELECT rating, deviation, volatility, plays FROM puzzle_ratings
                 WHERE account_id = $1",
            )
            .bind(account)
            .fetch_optional(&mut *tx)
            .await?
            .map(|r| rating_of(&r))
            .transpose()?
            .unwrap_or(default);
            let (player, rated) = rate(player_before, puzzle_before);
            sqlx::query(
                "UPDATE puzzle_tries SET rating_before = $1, rating_after = $2
                 WHERE account_id = $3 AND puzzle_id = $4",
            )
            .bind(player_before.rating)
            .bind(player.rating)
            .bind(account)
            .bind(puzzle)
            .execute(&mut *tx)
            .await?;
            // Each written only over the rating it was computed from.
            let player_written = sqlx::query(
                "INSERT INTO puzzle_ratings (account_id, rating, deviation, volatility, plays,
                    wins, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
                 ON CONFLICT (account_id) DO UPDATE SET rating = $2, deviation = $3,
                    volatility = $4, plays = $5, wins = puzzle_ratings.wins + $6,
                    updated_at = $7
                 WHERE puzzle_ratings.plays = $5 - 1",
            )
            .bind(account)
            .bind(player.rating)
            .bind(player.deviation)
            .bind(player.volatility)
            .bind(i64::from(player.games))
            .bind(i64::from(solved))
            .bind(now)
            .execute(&mut *tx)
            .await?;
            let puzzle_written = sqlx::query(
                "UPDATE puzzles SET rating = $1, deviation = $2, volatility = $3,
                    plays = plays + 1, wins = wins + $4
                 WHERE id = $5 AND plays = $6",
            )
            .bind(rated.rating)
            .bind(rated.deviation)
            .bind(rated.volatility)
            .bind(i64::from(solved))
            .bind(puzzle)
            .bind(i64::from(puzzle_before.games))
            .execute(&mut *tx)
            .await?;
            if player_written.rows_affected() == 1 && puzzle_written.rows_affected() == 1 {
                tx.commit().await?;
                return Ok(TryRating::Rated(PuzzleTry {
                    solved,
                    rating_before: player_before.rating,
                    rating_after: player.rating,
                }));
            }
            tx.rollback().await?;
        }
        Ok(TryRating::Busy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::testing::every_database;

    fn puzzle(id: &str, rating: f64, themes: &[&str]) -> NewPuzzle {
        NewPuzzle {
            id: id.into(),
            body: format!("standard ; draw ; {id}"),
            variant: "standard".into(),
            themes: themes.iter().map(|t| t.to_string()).collect(),
            moves: 2,
            rating: Rating {
                rating,
                deviation: 300.0,
                ..Rating::default()
            },
        }
    }

    /// Adds a player and the puzzles `a` (1400, capture) and `b` (1600, block).
    async fn two_puzzles(store: &Store) -> i64 {
        let added = store
            .add_puzzles(
                &[
                    puzzle("a", 1400.0, &["capture"]),
                    puzzle("b", 1600.0, &["block"]),
                ],
                1,
            )
            .await
            .unwrap();
        assert_eq!(added, 2);
        let again = store
            .add_puzzles(&[puzzle("a", 9.0, &[])], 2)
            .await
            .unwrap();
        assert_eq!(again, 0, "a puzzle added again is left as it is");
        store
            .create_account("Ann", "ann", "h", None, false, 1)
            .await
            .unwrap()
            .unwrap()
            .id
    }

    /// The player wins 100 points, the puzzle loses 50.
    fn swing(player: Rating, puzzle: Rating) -> (Rating, Rating) {
        (
            Rating {
                rating: player.rating + 100.0,
                games: player.games + 1,
                ..player
            },
            Rating {
                rating: puzzle.rating - 50.0,
                ..puzzle
            },
        )
    }

    #[tokio::test]
    async fn the_next_puzzle_is_the_nearest_untried_of_the_theme_asked() {
        for db in every_database().await {
            let store = db.open().await;
            let ann = two_puzzles(&store).await;
            let next = |near, theme, not| {
                let store = &store;
                async move {
                    let choice = PuzzleChoice {
                        account: Some(ann),
                        theme,
                        not,
                        near,
                        ..PuzzleChoice::default()
                    };
                    store.next_puzzle(&choice).await.unwrap().map(|p| p.id)
                }
            };
            assert_eq!(next(1450.0, None, None).await.as_deref(), Some("a"));
            assert_eq!(next(1590.0, None, None).await.as_deref(), Some("b"));
            assert_eq!(
                next(1450.0, Some("block"), None).await.as_deref(),
                Some("b")
            );
            assert_eq!(next(1450.0, None, Some("a")).await.as_deref(), Some("b"));
            assert_eq!(next(1450.0, Some("connection"), None).await, None);
            let a = store.puzzle("a").await.unwrap().unwrap();
            assert_eq!(a.themes, ["capture"]);
            store
                .rate_puzzle_try(ann, "a", true, 5, Rating::default(), swing)
                .await
                .unwrap();
            assert_eq!(
                next(1450.0, None, None).await.as_deref(),
                Some("b"),
                "a was tried"
            );
            let counts = store.puzzle_counts().await.unwrap();
            assert_eq!(counts.total, 2);
            assert_eq!(counts.variants, [("standard".to_string(), 2)]);
            assert!(counts.themes.contains(&("block".to_string(), 1)));
        }
    }

    #[tokio::test]
    async fn only_the_first_try_rates_player_and_puzzle() {
        for db in every_database().await {
            let store = db.open().await;
            let ann = two_puzzles(&store).await;
            let first = store
                .rate_puzzle_try(ann, "a", true, 5, Rating::default(), swing)
                .await
                .unwrap();
            assert_eq!(
                first,
                TryRating::Rated(PuzzleTry {
                    solved: true,
                    rating_before: 1500.0,
                    rating_after: 1600.0
                })
            );
            let again = store
                .rate_puzzle_try(ann, "a", false, 6, Rating::default(), swing)
                .await
                .unwrap();
            assert_eq!(again, TryRating::TriedBefore);
            let player = store.puzzle_rating(ann).await.unwrap().unwrap();
            assert_eq!(
                (player.rating.rating, player.rating.games, player.wins),
                (1600.0, 1, 1)
            );
            let a = store.puzzle("a").await.unwrap().unwrap();
            assert_eq!((a.rating.rating, a.rating.games, a.wins), (1350.0, 1, 1));
            let TryRating::Rated(kept) = first else {
                unreachable!()
            };
            assert_eq!(store.puzzle_try(ann, "a").await.unwrap(), Some(kept));
            // The second puzzle starts from the rating the first left.
            let TryRating::Rated(second) = store
                .rate_puzzle_try(ann, "b", false, 7, Rating::default(), swing)
                .await
                .unwrap()
            else {
                panic!("a first try is rated")
            };
            assert_eq!(
                (second.rating_before, second.rating_after),
                (1600.0, 1700.0)
            );
            let player = store.puzzle_rating(ann).await.unwrap().unwrap();
            assert_eq!((player.rating.games, player.wins), (2, 1));
            assert!(store
                .rate_puzzle_try(ann, "none", true, 8, Rating::default(), swing)
                .await
                .is_err());
        }
    }

    #[tokio::test]
    async fn each_day_has_one_puzzle_the_least_given_before() {
        for db in every_database().await {
            let store = db.open().await;
            assert_eq!(
                store.daily_puzzle("2026-11-27", 1500.0).await.unwrap(),
                None
            );
            two_puzzles(&store).await;
            let today = store
                .daily_puzzle("2026-11-27", 1590.0)
                .await
                .unwrap()
                .unwrap();
            assert_eq!(today.id, "b");
            let again = store
                .daily_puzzle("2026-11-27", 1400.0)
                .await
                .unwrap()
                .unwrap();
            assert_eq!(again.id, "b", "the day's puzzle stays");
            let tomorrow = store
                .daily_puzzle("2026-11-28", 1590.0)
                .await
                .unwrap()
                .unwrap();
            assert_eq!(tomorrow.id, "a");
            // Every puzzle given once: again, the nearest first.
            let after = store
                .daily_puzzle("2026-11-29", 1590.0)
                .await
                .unwrap()
                .unwrap();
            assert_eq!(after.id, "b");
        }
    }
}
