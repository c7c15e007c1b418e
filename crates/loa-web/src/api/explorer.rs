//! The opening explorer: the moves played from a position, counted by source and rating
//! band, with the engine's and the solver's word.

use super::{refuse_unknown, Body};
use crate::error::{ApiError, ApiResult};
use crate::explorer::{position_key, Verdicts, BANDS};
use crate::hub::Hub;
use crate::line::{LineSpec, Unknown};
use crate::store::ExplorerQuery;
use axum::extract::State;
use axum::Json;
use loa_core::GameState;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The body of `POST /api/explorer`: a line (as `POST /api/position` takes it), whose
/// last position is explored.
#[derive(Deserialize)]
pub struct ExplorerRequest {
    #[serde(flatten)]
    pub line: LineSpec,
    /// The rating bands counted, by their lower bounds; all when left out.
    #[serde(default)]
    pub bands: Vec<i64>,
    /// `rated` (the site's rated games) or `archive` (imported records); both when left
    /// out.
    #[serde(default)]
    pub source: Option<String>,
    /// Whether to add the engine's and the solver's word (by default).
    #[serde(default = "yes")]
    pub verdicts: bool,
    #[serde(flatten)]
    pub unknown: Unknown,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Serialize)]
pub struct ExploredMoveView {
    #[serde(rename = "move")]
    pub played: String,
    pub games: i64,
    pub black_wins: i64,
    pub white_wins: i64,
    pub draws: i64,
}

#[derive(Debug, Serialize)]
pub struct ExplorerAnswer {
    pub position: String,
    pub to_move: &'static str,
    /// The games through the position, counted as the moves from it.
    pub games: i64,
    pub moves: Vec<ExploredMoveView>,
    /// The engine's and the solver's word, when asked.
    #[serde(skip_serializing_if = "Option::is_none", flatten)]
    pub verdicts: Option<Verdicts>,
}

pub async fn explore(
    State(hub): State<Arc<Hub>>,
    Body(request): Body<ExplorerRequest>,
) -> ApiResult<Json<ExplorerAnswer>> {
    refuse_unknown(&request.unknown)?;
    if let Some(band) = request.bands.iter().find(|b| !BANDS.contains(b)) {
        return Err(ApiError::bad_request(format!(
            "no rating band {band}: the bands start at {}",
            BANDS.map(|b| b.to_string()).join(", ")
        )));
    }
    let source = request.source.as_deref();
    if source.is_some_and(|s| s != "rated" && s != "archive") {
        return Err(ApiError::bad_request(
            "the source is 'rated' or 'archive' (both when left out)",
        ));
    }
    let line = request.line.check().map_err(ApiError::bad_request)?;
    let position = *line.game.position();
    let query = ExplorerQuery {
        variant: position.variant().name(),
        position_key: position_key(&position),
        source,
        bands: &request.bands,
    };
    let counted = hub.store.explore(&query).await?;
    let verdicts = if request.verdicts {
        Some(
            hub.explorer_verdicts
                .of(&hub.solver_jobs, position, line.game.rules())
                .await
                .map_err(ApiError::internal)?,
        )
    } else {
        None
    };
    Ok(Json(ExplorerAnswer {
        position: position.to_string(),
        to_move: position.side_to_move().id(),
        games: counted.iter().map(|m| m.games).sum(),
        moves: counted
            .into_iter()
            .map(|m| ExploredMoveView {
                played: m.played,
                games: m.games,
                black_wins: m.black_wins,
                white_wins: m.white_wins,
                draws: m.draws,
            })
            .collect(),
        verdicts,
    }))
}
