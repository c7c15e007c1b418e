//! Players: a profile (ratings with their history, medals and title, games) and the
//! leaderboards.

use super::{ApiQuery, GameSummary, MAX_LIST};
use crate::accounts::key_of;
use crate::error::{ApiError, ApiResult};
use crate::hub::Hub;
use crate::ratings::{Category, Medals, Speed, Title};
use crate::store::{GameFilter, Outcome, RatingRow};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use loa_core::Variant;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A rating as the API shows it.
#[derive(Serialize)]
pub struct RatingView {
    pub rating: i64,
    pub deviation: i64,
    pub games: i64,
    /// Shown with `?`: the deviation is still above 110.
    pub provisional: bool,
}

impl RatingView {
    fn of(row: &RatingRow) -> RatingView {
        RatingView {
            rating: row.rating.round() as i64,
            deviation: row.deviation.round() as i64,
            games: row.games,
            provisional: row.rating().provisional(),
        }
    }
}

/// A point of a rating's history chart.
#[derive(Serialize)]
pub struct HistoryPoint {
    pub category: String,
    pub game: String,
    pub at: i64,
    pub rating: i64,
}

#[derive(Serialize)]
pub struct Profile {
    pub name: String,
    pub title: Option<Title>,
    pub bot: bool,
    pub deleted: bool,
    pub created_at: i64,
    /// By variant, then by speed: `ratings.standard.blitz`.
    pub ratings: BTreeMap<&'static str, BTreeMap<&'static str, RatingView>>,
    pub history: Vec<HistoryPoint>,
    pub medals: Medals,
}

/// The name looked up, or 404.
pub(super) async fn account_named(hub: &Hub, name: &str) -> ApiResult<crate::store::AccountRow> {
    let found = if name.len() <= 64 {
        hub.store.account_by_key(&key_of(name)).await?
    } else {
        None
    };
    found
        .map(|(account, _)| account)
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "no such player"))
}

/// The player named `name`, unless the account was closed: 404 for either.
pub(super) async fn open_account_named(
    hub: &Hub,
    name: &str,
) -> ApiResult<crate::store::AccountRow> {
    match account_named(hub, name).await? {
        account if !account.deleted => Ok(account),
        _ => Err(ApiError::new(StatusCode::NOT_FOUND, "no such player")),
    }
}

pub async fn player(
    State(hub): State<Arc<Hub>>,
    Path(name): Path<String>,
) -> ApiResult<Json<Profile>> {
    let account = account_named(&hub, &name).await?;
    let mut ratings: BTreeMap<&str, BTreeMap<&str, RatingView>> = BTreeMap::new();
    for row in hub.store.ratings(account.id).await? {
        if let Some(category) = Category::parse(&row.category) {
            ratings
                .entry(category.variant.name())
                .or_default()
                .insert(category.speed.name(), RatingView::of(&row));
        }
    }
    let history = hub
        .store
        .rating_history(account.id)
        .await?
        .into_iter()
        .map(|h| HistoryPoint {
            category: h.category,
            game: h.game_id,
            at: h.at,
            rating: h.rating.round() as i64,
        })
        .collect();
    let [gold, silver, bronze] = hub.store.medals(account.id).await?;
    let medals = Medals {
        gold,
        silver,
        bronze,
    };
    Ok(Json(Profile {
        name: account.name,
        title: medals.title(),
        bot: account.bot,
        deleted: account.deleted,
        created_at: account.created_at,
        ratings,
        history,
        medals,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerGamesQuery {
    #[serde(default)]
    pub limit: Option<usize>,
    #[serde(default)]
    pub offset: Option<usize>,
    /// Only the games against this player.
    #[serde(default)]
    pub vs: Option<String>,
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub rated: Option<bool>,
    /// `win`, `loss` or `draw` for the player, or `playing`.
    #[serde(default)]
    pub result: Option<String>,
}

/// A player's games, newest first, filtered by opponent, variant, rated and result.
pub async fn player_games(
    State(hub): State<Arc<Hub>>,
    Path(name): Path<String>,
    ApiQuery(query): ApiQuery<PlayerGamesQuery>,
) -> ApiResult<Json<Vec<GameSummary>>> {
    let account = account_named(&hub, &name).await?;
    let opponent = match &query.vs {
        Some(name) => Some(account_named(&hub, name).await?.id),
        None => None,
    };
    let variant = match &query.variant {
        Some(name) => Some(
            name.parse::<Variant>()
                .map_err(|e| ApiError::bad_request(format!("{e}")))?
                .name()
                .to_string(),
        ),
        None => None,
    };
    let outcome = match &query.result {
        Some(text) => Some(Outcome::parse(text).ok_or_else(|| {
            ApiError::bad_request(format!(
                "result is win, loss, draw or playing, not '{}'",
                loa_core::excerpt(text)
            ))
        })?),
        None => None,
    };
    let filter = GameFilter {
        account: Some(account.id),
        opponent,
        variant,
        rated: query.rated,
        outcome,
    };
    super::games::summaries(&hub, query.limit, query.offset, &filter).await
}

/// A player's results against one opponent.
#[derive(Serialize)]
pub struct OpponentView {
    pub name: String,
    pub bot: bool,
    pub games: i64,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
}

/// A player's results against each opponent of their finished games, the most played
/// first (at most 100).
pub async fn player_opponents(
    State(hub): State<Arc<Hub>>,
    Path(name): Path<String>,
) -> ApiResult<Json<Vec<OpponentView>>> {
    let account = account_named(&hub, &name).await?;
    let rows = hub.store.opponents(account.id, 100).await?;
    Ok(Json(
        rows.into_iter()
            .map(|row| OpponentView {
                games: row.wins + row.losses + row.draws,
                name: row.name,
                bot: row.bot,
                wins: row.wins,
                losses: row.losses,
                draws: row.draws,
            })
            .collect(),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderboardQuery {
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub speed: Option<String>,
    #[serde(default)]
    pub limit: Option<usize>,
}

#[derive(Serialize)]
pub struct Ranked {
    pub name: String,
    pub rating: i64,
    pub deviation: i64,
    pub games: i64,
    pub provisional: bool,
    pub speed: &'static str,
    pub bot: bool,
}

/// Every rated player of a variant (at one speed, or each at the speed they have played
/// most), highest first. The page shows the established ones.
pub async fn leaderboard(
    State(hub): State<Arc<Hub>>,
    ApiQuery(query): ApiQuery<LeaderboardQuery>,
) -> ApiResult<Json<Vec<Ranked>>> {
    let variant: Variant = match &query.variant {
        Some(name) => name
            .parse()
            .map_err(|e| ApiError::bad_request(format!("{e}")))?,
        None => Variant::Standard,
    };
    let speeds = match &query.speed {
        Some(name) => vec![Speed::parse(name).ok_or_else(|| {
            ApiError::bad_request(format!(
                "speed is bullet, blitz, rapid, classical or correspondence, not '{}'",
                loa_core::excerpt(name)
            ))
        })?],
        None => Speed::ALL.to_vec(),
    };
    let limit = query.limit.unwrap_or(MAX_LIST).min(1_000);
    let categories: Vec<String> = speeds
        .iter()
        .map(|&speed| Category { variant, speed }.key())
        .collect();
    let rows = hub.store.leaderboard(&categories, limit).await?;
    // Each player once: their category with the most games.
    let mut best: BTreeMap<String, (crate::store::RankedRow, Speed)> = BTreeMap::new();
    for row in rows {
        let Some(category) = Category::parse(&row.rating.category) else {
            continue;
        };
        let keep = best
            .get(&row.name)
            .is_none_or(|(kept, _)| row.rating.games > kept.rating.games);
        if keep {
            best.insert(row.name.clone(), (row, category.speed));
        }
    }
    let mut ranked: Vec<Ranked> = best
        .into_values()
        .map(|(row, speed)| {
            let view = RatingView::of(&row.rating);
            Ranked {
                name: row.name,
                rating: view.rating,
                deviation: view.deviation,
                games: view.games,
                provisional: view.provisional,
                speed: speed.name(),
                bot: row.bot,
            }
        })
        .collect();
    ranked.sort_by(|a, b| b.rating.cmp(&a.rating).then_with(|| a.name.cmp(&b.name)));
    ranked.truncate(limit);
    Ok(Json(ranked))
}
