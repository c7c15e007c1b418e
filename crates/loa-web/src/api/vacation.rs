//! `GET/POST/DELETE /api/me/vacation`: a correspondence player's vacation, which stops
//! the clocks of the games in which they are to move.

use super::Body;
use crate::auth::Viewer;
use crate::clock::now_ms;
use crate::error::{ApiError, ApiResult};
use crate::game::Changed;
use crate::hub::Hub;
use crate::store::{GameFilter, Outcome};
use crate::vacation::{VacationError, VacationView};
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use std::sync::Arc;

/// The most games in progress a vacation stops the clocks of.
const MAX_GAMES: usize = 1000;

impl From<VacationError> for ApiError {
    fn from(err: VacationError) -> ApiError {
        let status = match err {
            VacationError::TooLong { .. } => StatusCode::BAD_REQUEST,
            VacationError::Running | VacationError::NotRunning => StatusCode::CONFLICT,
        };
        ApiError::new(status, err.to_string())
    }
}

pub async fn vacation(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
) -> ApiResult<Json<VacationView>> {
    let account = viewer.required()?;
    let vacation = hub.store.vacation(account.id).await?;
    Ok(Json(vacation.view(now_ms())))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VacationRequest {
    pub days: u32,
}

/// Starts a vacation of `days` from now: the clocks stop at once.
pub async fn start_vacation(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
    Body(request): Body<VacationRequest>,
) -> ApiResult<Json<VacationView>> {
    let account = viewer.required()?;
    let now = now_ms();
    let vacation = hub
        .store
        .vacation(account.id)
        .await?
        .start(request.days, now)?;
    hub.store.set_vacation(account.id, &vacation).await?;
    let until = vacation.until.unwrap_or(now);
    for_each_game(&hub, account.id, |live, now| {
        live.pause_for(account.id, until, now)
    })
    .await?;
    Ok(Json(vacation.view(now)))
}

/// Ends the vacation now: the clocks run again, and the days not begun come back.
pub async fn end_vacation(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
) -> ApiResult<Json<VacationView>> {
    let account = viewer.required()?;
    let now = now_ms();
    let vacation = hub.store.vacation(account.id).await?.end(now)?;
    hub.store.set_vacation(account.id, &vacation).await?;
    for_each_game(&hub, account.id, |live, now| {
        live.resume_for(account.id, now)
    })
    .await?;
    Ok(Json(vacation.view(now)))
}

/// Makes a clock change in each game the account plays, written and told as any change.
async fn for_each_game(
    hub: &Arc<Hub>,
    account: i64,
    change: impl Fn(&mut crate::game::LiveGame, i64) -> bool,
) -> ApiResult<()> {
    let filter = GameFilter {
        outcome: Some(Outcome::Playing),
        ..GameFilter::of(account)
    };
    for (row, _) in hub.store.list(MAX_GAMES, 0, &filter).await? {
        let Ok(open) = hub.open(&row.id).await else {
            continue;
        };
        hub.change_if(&open, |live, now| {
            change(live, now).then(|| Changed::nothing_at(live.game.ply()))
        })
        .await?;
    }
    Ok(())
}
