//! A game's report: how far it is, or what it found.

use crate::auth::Viewer;
use crate::clock::now_ms;
use crate::error::{ApiError, ApiResult};
use crate::hub::Hub;
use crate::store::ReportRow;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use serde_json::Value;
use std::sync::Arc;

/// `GET /api/games/{id}/report`.
#[derive(Debug, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ReportAnswer {
    /// No report: the game is being played, or ended before reports were made.
    None,
    /// Waiting for a worker, behind `ahead` others.
    Queued {
        ahead: i64,
    },
    /// Being made: positions searched of how many.
    Running {
        searched: i64,
        positions: i64,
    },
    Ready {
        report: Value,
    },
    /// It could not be made: the game's row is damaged.
    Failed {
        error: String,
    },
}

async fn answer(hub: &Hub, row: Option<ReportRow>) -> ApiResult<ReportAnswer> {
    let Some(row) = row else {
        return Ok(ReportAnswer::None);
    };
    Ok(match (row.done_at, row.body, row.claimed_at) {
        (Some(_), Some(body), _) => ReportAnswer::Ready {
            report: serde_json::from_str(&body).map_err(ApiError::internal)?,
        },
        (Some(_), None, _) => ReportAnswer::Failed {
            error: row.error.unwrap_or_default(),
        },
        (_, _, Some(_)) => ReportAnswer::Running {
            searched: row.searched,
            positions: row.positions,
        },
        _ => ReportAnswer::Queued {
            ahead: hub.store.reports_ahead(row.queued_at).await?,
        },
    })
}

pub async fn get_report(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> ApiResult<Json<ReportAnswer>> {
    let row = hub.store.report(&id).await?;
    if row.is_none() {
        // 404 for a game that does not exist.
        hub.open(&id).await?;
    }
    Ok(Json(answer(&hub, row).await?))
}

/// `POST /api/games/{id}/report`: queues the report of a finished game that has none
/// (202), or says where it stands (200). Signed-in players only: a report costs the
/// server a search of every position.
pub async fn request_report(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    viewer: Viewer,
) -> ApiResult<(StatusCode, Json<ReportAnswer>)> {
    viewer.required()?;
    let open = hub.open(&id).await?;
    let (over, plies) = {
        let live = open.game.lock().await;
        (live.is_over(), live.game.ply())
    };
    if !over {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "the game is still being played: its report comes when it ends",
        ));
    }
    if plies == 0 {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "the game has no moves to report on",
        ));
    }
    let queued = hub.store.queue_report(&id, now_ms()).await?;
    if queued {
        hub.reports_queued.notify_waiters();
    }
    let status = if queued {
        StatusCode::ACCEPTED
    } else {
        StatusCode::OK
    };
    let row = hub.store.report(&id).await?;
    Ok((status, Json(answer(&hub, row).await?)))
}

/// The comments of a finished report, a move's by its index: for the game's record.
pub async fn report_comments(
    hub: &Hub,
    id: &str,
) -> ApiResult<std::collections::BTreeMap<usize, String>> {
    let Some(body) = hub.store.report(id).await?.and_then(|row| row.body) else {
        return Ok(Default::default());
    };
    let report: Value = serde_json::from_str(&body).map_err(ApiError::internal)?;
    let moves = report["moves"].as_array().cloned().unwrap_or_default();
    Ok(moves
        .iter()
        .filter_map(|m| {
            let ply = usize::try_from(m["ply"].as_u64()?).ok()?;
            Some((ply, m["comment"].as_str()?.to_string()))
        })
        .collect())
}
