//! `GET /api/meta`: what the server offers (the variants, the engine's levels, the seats'
//! names, the rule sets and every limit), so that a page or a client never repeats it;
//! and `GET /api/health`, whether this server can serve at all.

use crate::api::{MAX_EVALUATIONS, MAX_EVALUATION_DEPTH, MAX_LIST};
use crate::clock::{MAX_DAYS, MAX_INCREMENT_S, MAX_INITIAL_S};
use crate::error::ApiError;
use crate::hub::Hub;
use crate::levels::{Strength, MAX_LEVEL, MAX_MOVETIME_MS, MIN_MOVETIME_MS};
use crate::line::MAX_LINE_MOVES;
use crate::ws::MAX_ANALYSIS;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use loa_core::{RuleSet, Variant};
use loa_engine::LEVEL_ELO;
use serde::Serialize;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

#[derive(Serialize)]
pub struct Meta {
    pub variants: Vec<VariantMeta>,
    /// `draw` and `mover-wins`: what a simultaneous connection is worth.
    pub rules: Vec<String>,
    pub levels: Vec<LevelMeta>,
    /// The seats people take: `black`, `white`, and `black2`, `white2` in AmbiLOA's
    /// partnership game.
    pub seats: [&'static str; 4],
    pub limits: Limits,
    /// Whether this site sends e-mail: without it, no address is verified, no notice is
    /// mailed and a forgotten password cannot be reset.
    pub mail: bool,
}

#[derive(Serialize)]
pub struct VariantMeta {
    /// The id every request takes: `standard`, `scrambled-eggs`, ...
    pub id: &'static str,
    pub title: &'static str,
    /// The board sizes it is played on.
    pub boards: Vec<u8>,
    /// Whether a side may have two players (AmbiLOA's partnership game).
    pub partnership: bool,
    /// Whether a simultaneous connection can happen (the rule set matters).
    pub connection: bool,
}

#[derive(Serialize)]
pub struct LevelMeta {
    pub level: u8,
    pub description: String,
    /// Measured Elo above a player of random legal moves (docs/web.md, "Strength levels").
    pub elo: u32,
    /// The level a beginner can beat: the lowest.
    pub beginner: bool,
}

#[derive(Serialize)]
pub struct Limits {
    pub setup_moves: usize,
    pub movetime_ms: [u64; 2],
    pub live_initial_s: u64,
    pub live_increment_s: u64,
    pub correspondence_days: [u64; 2],
    pub evaluations: usize,
    pub evaluation_depth: u32,
    pub analysis_s: u64,
    pub list: usize,
}

pub async fn meta(State(hub): State<Arc<Hub>>) -> Json<Meta> {
    Json(Meta {
        variants: Variant::ALL
            .iter()
            .map(|&v| VariantMeta {
                id: v.name(),
                title: v.title(),
                boards: v.sizes().iter().map(|s| s.side()).collect(),
                partnership: v == Variant::AmbiLoa,
                connection: v.connection_decides(),
            })
            .collect(),
        rules: [RuleSet::Draw, RuleSet::MoverWins]
            .iter()
            .map(ToString::to_string)
            .collect(),
        levels: (1..=MAX_LEVEL)
            .map(|level| LevelMeta {
                level,
                description: Strength {
                    level: Some(level),
                    movetime_ms: None,
                }
                .search_in_words(),
                elo: LEVEL_ELO[usize::from(level - 1)],
                beginner: level == 1,
            })
            .collect(),
        seats: ["black", "white", "black2", "white2"],
        limits: Limits {
            setup_moves: MAX_LINE_MOVES,
            movetime_ms: [MIN_MOVETIME_MS, MAX_MOVETIME_MS],
            live_initial_s: MAX_INITIAL_S,
            live_increment_s: MAX_INCREMENT_S,
            correspondence_days: [1, MAX_DAYS],
            evaluations: MAX_EVALUATIONS,
            evaluation_depth: MAX_EVALUATION_DEPTH,
            analysis_s: MAX_ANALYSIS.as_secs(),
            list: MAX_LIST,
        },
        mail: hub.mail.config().is_some(),
    })
}

/// How long the health check waits for the database.
const HEALTH_WAIT: Duration = Duration::from_secs(3);

/// `GET /api/health`: 200 `{"database": "ok"}` when this server's database answers, 503
/// with why when it does not: what a load balancer asks before sending players here.
pub async fn health(State(hub): State<Arc<Hub>>) -> Result<Json<Value>, ApiError> {
    match hub.store.answers(HEALTH_WAIT).await {
        Ok(()) => Ok(Json(json!({ "database": "ok" }))),
        Err(err) => {
            tracing::warn!("health check: {err}");
            Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the database does not answer: {err}"),
            ))
        }
    }
}
