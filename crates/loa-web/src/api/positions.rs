//! Positions, records and evaluations: what is asked of a position or a record, apart
//! from any game in play.

use super::{refuse_unknown, Body, MAX_EVALUATIONS, MAX_EVALUATION_DEPTH};
use crate::client::ClientNetwork;
use crate::engine_pool::Cancel;
use crate::error::{ApiError, ApiResult};
use crate::hub::Hub;
use crate::line::{rules_named, variant_named, LineSpec, Unknown};
use crate::view::{OutcomeView, PositionView};
use axum::extract::State;
use axum::Json;
use loa_core::record::{read_games, GameError as RecordError, GameRecord, Names};
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
    /// The moves as the server writes them (`d1:a4` and `d1a4` are read, `d1xa4`
    /// written).
    pub played: Vec<String>,
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
    let played = game.moves().map(|mv| mv.to_string()).collect();
    Ok(Json(PositionAnswer {
        view,
        line: texts,
        played,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordsRequest {
    pub record: String,
}

/// A game of a record as the import shows it. A game that cannot be read at all has only
/// its `number`, its names as far as they were read, and its `error`.
#[derive(Serialize)]
pub struct RecordGame {
    /// Its number in the record, from 1.
    pub number: usize,
    pub variant: Option<&'static str>,
    pub rules: Option<String>,
    pub start: Option<String>,
    /// The moves that can be played: all of them, or those before the move in `error`.
    pub moves: Vec<String>,
    /// The position text after each move, the start first.
    pub positions: Vec<String>,
    pub event: Option<String>,
    pub black: Option<String>,
    pub white: Option<String>,
    pub result: Option<String>,
    pub termination: Option<String>,
    /// A Scrambled Eggs record on the array reflected top to bottom (Black on e8), as some
    /// sites set it up.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reflected: bool,
    /// Why the game cannot be imported whole: it names the game, the move number and the
    /// move. Such a game is shown, not imported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl RecordGame {
    /// A game read from a record, with its moves up to `playable`.
    fn of(
        number: usize,
        record: &GameRecord,
        playable: usize,
        error: Option<String>,
    ) -> RecordGame {
        let mut game = Game::new(record.start, record.rules);
        let mut positions = vec![record.start.to_string()];
        let mut moves = Vec::new();
        for &mv in record.moves.iter().take(playable) {
            if game.play(mv).is_err() {
                break;
            }
            moves.push(mv.to_string());
            positions.push(game.position().to_string());
        }
        RecordGame {
            number,
            variant: Some(record.variant().name()),
            rules: Some(record.rules.to_string()),
            start: Some(record.start.to_string()),
            moves,
            positions,
            event: record.event.clone(),
            black: record.black.clone(),
            white: record.white.clone(),
            result: Some(record.result.to_string()),
            termination: record.termination.clone(),
            reflected: record.reflected_start().is_some(),
            error,
        }
    }

    fn unreadable(number: usize, names: Names, error: String) -> RecordGame {
        RecordGame {
            number,
            variant: None,
            rules: None,
            start: None,
            moves: Vec::new(),
            positions: Vec::new(),
            event: names.event,
            black: names.black,
            white: names.white,
            result: None,
            termination: None,
            reflected: false,
            error: Some(error),
        }
    }
}

/// Reads SGF or PGN, one game at a time: each game's start, moves and the positions
/// along them; a game that breaks the rules or cannot be read is named with its error,
/// and the others still count.
pub async fn read_records(Body(request): Body<RecordsRequest>) -> ApiResult<Json<Vec<RecordGame>>> {
    let mut out = Vec::new();
    for item in read_games(&request.record) {
        out.push(match item {
            Ok(checked) => RecordGame::of(
                checked.number,
                &checked.record,
                checked.record.moves.len(),
                None,
            ),
            Err(error) => {
                let message = error.to_string();
                match error {
                    RecordError::Moves {
                        number,
                        record,
                        error,
                    } => RecordGame::of(number, &record, error.ply(), Some(message)),
                    RecordError::Text { number, names, .. } => {
                        RecordGame::unreadable(number, *names, message)
                    }
                    // The rest cannot be cut into games: the games before it stand.
                    RecordError::Split(_) if !out.is_empty() => {
                        RecordGame::unreadable(out.len() + 1, Names::default(), message)
                    }
                    RecordError::Split(_) => {
                        return Err(ApiError::bad_request(format!("bad record: {message}")))
                    }
                }
            }
        });
    }
    // Nothing readable at all: the record is refused, each game's error said.
    if out.iter().all(|game| game.variant.is_none()) {
        let errors: Vec<&str> = out.iter().filter_map(|g| g.error.as_deref()).collect();
        return Err(ApiError::bad_request(format!(
            "bad record: {}",
            errors.join("; ")
        )));
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
    network: ClientNetwork,
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
    let _client_turn = hub.client_studies.take(&network).await;
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
            rules,
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
            .study(request, |_| {}, &cancel)
            .await
            .ok_or_else(|| ApiError::internal("the search did not run"))?;
        scores.push(BlackScore::new(result.score, to_move));
    }
    Ok(Json(scores))
}
