//! Positions, records and evaluations: what is asked of a position or a record, apart
//! from any game in play.

use super::{refuse_unknown, Body, MAX_EVALUATIONS, MAX_EVALUATION_DEPTH};
use crate::engine_pool::Cancel;
use crate::error::{ApiError, ApiResult};
use crate::hub::Hub;
use crate::line::{rules_named, variant_named, LineSpec, Unknown};
use crate::view::{OutcomeView, PositionView};
use axum::extract::State;
use axum::Json;
use loa_core::record::parse_games;
use loa_core::{Color, Game, GameState, VariantPosition};
use loa_engine::{evaluate_any, Score, SearchLimits, SearchRequest};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The body of `POST /api/position`: a line, whose last position is described.
#[derive(Deserialize)]
pub struct PositionRequest {
    #[serde(flatten)]
    pub line: LineSpec,
    #[serde(flatten)]
    pub unknown: Unknown,
}

#[derive(Serialize)]
pub struct PositionAnswer {
    #[serde(flatten)]
    pub view: PositionView,
    /// The position text after each of the moves, the start first.
    pub line: Vec<String>,
}

/// Any position of any variant described for the page: its pieces and legal moves, after
/// the moves given (a third repetition among them ends the game).
pub async fn describe_position(
    Body(request): Body<PositionRequest>,
) -> ApiResult<Json<PositionAnswer>> {
    refuse_unknown(&request.unknown)?;
    let line = request.line.check().map_err(ApiError::bad_request)?;
    let (game, texts) = (&line.game, line.texts());
    let rules = game.rules();
    let mut view = PositionView::of(game.position(), rules, game.is_over());
    if let Some(outcome) = game.outcome() {
        view.outcome = Some(OutcomeView::of(outcome));
    }
    Ok(Json(PositionAnswer { view, line: texts }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordsRequest {
    pub record: String,
}

#[derive(Serialize)]
pub struct RecordGame {
    pub variant: &'static str,
    pub rules: String,
    pub start: String,
    pub moves: Vec<String>,
    /// The position text after each move, the start first.
    pub positions: Vec<String>,
    pub black: Option<String>,
    pub white: Option<String>,
    pub result: String,
    pub termination: Option<String>,
    /// Where the record breaks the rules, if it does; the moves stop there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Reads SGF or PGN: each game's start, moves and the positions along them.
pub async fn read_records(Body(request): Body<RecordsRequest>) -> ApiResult<Json<Vec<RecordGame>>> {
    let games = parse_games(&request.record)
        .map_err(|e| ApiError::bad_request(format!("bad record: {e}")))?;
    let mut out = Vec::new();
    for game in games {
        let record = game.map_err(|e| ApiError::bad_request(format!("bad record: {e}")))?;
        let mut replay = Game::new(record.start, record.rules);
        let mut positions = vec![record.start.to_string()];
        let mut moves = Vec::new();
        let mut error = None;
        for &mv in &record.moves {
            if let Err(e) = replay.play(mv) {
                error = Some(format!("move {}: {e}", moves.len() + 1));
                break;
            }
            moves.push(mv.to_string());
            positions.push(replay.position().to_string());
        }
        out.push(RecordGame {
            variant: record.variant().name(),
            rules: record.rules.to_string(),
            start: record.start.to_string(),
            moves,
            positions,
            black: record.black.clone(),
            white: record.white.clone(),
            result: record.result.to_string(),
            termination: record.termination.clone(),
            error,
        });
    }
    if out.is_empty() {
        return Err(ApiError::bad_request("the record holds no game"));
    }
    Ok(Json(out))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvaluateRequest {
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub rules: Option<String>,
    pub positions: Vec<String>,
    /// The search depth for each: 0 is the static evaluation; at most 6.
    #[serde(default)]
    pub depth: Option<u32>,
}

/// A score as the page shows it: from Black's side, a connection as `mate`.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct BlackScore {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// Moves to a connection: positive when Black connects.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// The game is over here: the result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<&'static str>,
}

impl BlackScore {
    pub fn new(score: Score, to_move: Color) -> BlackScore {
        let sign = if to_move == Color::Black { 1 } else { -1 };
        match score {
            Score::Cp(cp) => BlackScore {
                cp: Some(cp * sign),
                mate: None,
                result: None,
            },
            Score::Mate(n) => BlackScore {
                cp: None,
                mate: Some(n * sign),
                result: None,
            },
        }
    }
}

/// Scores for a list of positions (the evaluation graph of a game).
pub async fn evaluate(
    State(hub): State<Arc<Hub>>,
    Body(request): Body<EvaluateRequest>,
) -> ApiResult<Json<Vec<BlackScore>>> {
    let variant = variant_named(request.variant.as_deref()).map_err(ApiError::bad_request)?;
    let rules = rules_named(request.rules.as_deref()).map_err(ApiError::bad_request)?;
    if request.positions.len() > MAX_EVALUATIONS {
        return Err(ApiError::bad_request(format!(
            "at most {MAX_EVALUATIONS} positions"
        )));
    }
    let depth = request.depth.unwrap_or(3);
    if depth > MAX_EVALUATION_DEPTH {
        return Err(ApiError::bad_request(format!(
            "depth is at most {MAX_EVALUATION_DEPTH}"
        )));
    }
    let positions = request
        .positions
        .iter()
        .enumerate()
        .map(|(i, text)| {
            VariantPosition::parse(variant, text)
                .map_err(|e| ApiError::bad_request(format!("position {}: {e}", i + 1)))
        })
        .collect::<ApiResult<Vec<_>>>()?;
    let mut scores = Vec::with_capacity(positions.len());
    let cancel = Cancel::new();
    for pos in positions {
        let to_move = pos.side_to_move();
        if let Some(outcome) = pos.outcome(rules) {
            let result = OutcomeView::of(outcome).result;
            scores.push(BlackScore {
                cp: None,
                mate: None,
                result: Some(result),
            });
            continue;
        }
        if depth == 0 {
            scores.push(BlackScore::new(Score::Cp(evaluate_any(&pos)), to_move));
            continue;
        }
        let request = SearchRequest {
            root: pos,
            history: Vec::new(),
            limits: SearchLimits {
                depth: Some(depth),
                time: Some(loa_engine::TimeLimit::Fixed(
                    std::time::Duration::from_millis(500),
                )),
                ..SearchLimits::default()
            },
            until_stopped: false,
        };
        let result = hub
            .pool
            .search(rules, request, |_| {}, &cancel)
            .await
            .ok_or_else(|| ApiError::internal("the search did not run"))?;
        scores.push(BlackScore::new(Score::from_internal(result.score), to_move));
    }
    Ok(Json(scores))
}
