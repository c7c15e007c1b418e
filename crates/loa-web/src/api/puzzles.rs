//! Puzzles: the next one for a player, the day's, one by its id, and a try's moves
//! judged one at a time.

use super::{ApiQuery, Body};
use crate::auth::Viewer;
use crate::clock::now_ms;
use crate::error::{ApiError, ApiResult};
use crate::hub::Hub;
use crate::puzzles::{is_id, rate_try, solution, step, Step, StepError};
use crate::ratings::Rating;
use crate::store::{PuzzleChoice, PuzzleRow, PuzzleTry, TryRating};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use loa_core::{Game, GameState, Move, Variant, VariantPosition};
use loa_engine::puzzles::Alternative;
use loa_engine::puzzles::{Puzzle, Theme};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A puzzle as the page shows it: its position and whose move, never its solution.
#[derive(Debug, Serialize)]
pub struct PuzzleView {
    pub id: String,
    pub variant: String,
    pub rules: String,
    pub position: String,
    /// Who wins: the side to move.
    pub to_move: String,
    /// The winner's moves in the puzzle's line.
    pub moves: i64,
    pub themes: Vec<String>,
    pub rating: i64,
    /// Rated tries, and how many solved it.
    pub plays: i64,
    pub wins: i64,
    /// The day it is the puzzle of, when asked for as the day's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub day: Option<String>,
    /// The signed-in player's first try at it, if they made one.
    pub tried: Option<TriedView>,
}

#[derive(Debug, Serialize)]
pub struct TriedView {
    pub solved: bool,
    pub rating_before: i64,
    pub rating_after: i64,
    pub change: i64,
}

impl From<PuzzleTry> for TriedView {
    fn from(t: PuzzleTry) -> TriedView {
        let (before, after) = (
            t.rating_before.round() as i64,
            t.rating_after.round() as i64,
        );
        TriedView {
            solved: t.solved,
            rating_before: before,
            rating_after: after,
            change: after - before,
        }
    }
}

fn parsed(row: &PuzzleRow) -> ApiResult<Puzzle> {
    Puzzle::parse(&row.body).map_err(|e| ApiError::internal(format!("puzzle {}: {e}", row.id)))
}

async fn view(hub: &Hub, row: PuzzleRow, viewer: &Viewer) -> ApiResult<PuzzleView> {
    let puzzle = parsed(&row)?;
    let tried = match viewer.id() {
        Some(account) => hub.store.puzzle_try(account, &row.id).await?,
        None => None,
    };
    Ok(PuzzleView {
        rules: puzzle.rules.to_string(),
        position: puzzle.position.to_string(),
        to_move: puzzle.position.side_to_move().id().to_string(),
        id: row.id,
        variant: row.variant,
        moves: row.moves,
        themes: row.themes,
        rating: row.rating.rating.round() as i64,
        plays: i64::from(row.rating.games),
        wins: row.wins,
        day: None,
        tried: tried.map(TriedView::from),
    })
}

/// A player's puzzle rating, as shown.
#[derive(Debug, Serialize)]
pub struct PuzzleRatingView {
    pub rating: i64,
    pub deviation: i64,
    /// Shown with `?` while uncertain.
    pub provisional: bool,
    pub plays: i64,
    pub wins: i64,
}

/// `GET /api/puzzles`.
#[derive(Debug, Serialize)]
pub struct PuzzlesAnswer {
    pub count: i64,
    pub themes: BTreeMap<String, i64>,
    pub variants: BTreeMap<String, i64>,
    /// The signed-in player's puzzle rating, once they have tried a puzzle.
    pub rating: Option<PuzzleRatingView>,
}

pub async fn puzzles_summary(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
) -> ApiResult<Json<PuzzlesAnswer>> {
    let counts = hub.store.puzzle_counts().await?;
    let rating = match viewer.id() {
        Some(account) => hub.store.puzzle_rating(account).await?,
        None => None,
    };
    Ok(Json(PuzzlesAnswer {
        count: counts.total,
        themes: counts.themes.into_iter().collect(),
        variants: counts.variants.into_iter().collect(),
        rating: rating.map(|r| PuzzleRatingView {
            rating: r.rating.rating.round() as i64,
            deviation: r.rating.deviation.round() as i64,
            provisional: r.rating.provisional(),
            plays: i64::from(r.rating.games),
            wins: r.wins,
        }),
    }))
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NextQuery {
    pub theme: Option<String>,
    pub variant: Option<String>,
    /// The puzzle just shown: not given again at once.
    pub after: Option<String>,
}

/// `GET /api/puzzles/next`: for a signed-in player, the untried puzzle nearest their
/// puzzle rating; for anyone else, one near a rating drawn around 1500, so that two
/// visitors are not all given the same.
pub async fn next_puzzle(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
    ApiQuery(query): ApiQuery<NextQuery>,
) -> ApiResult<Json<PuzzleView>> {
    let theme = query.theme.as_deref().filter(|t| !t.is_empty());
    if let Some(theme) = theme {
        if !Theme::ALL.iter().any(|t| t.name() == theme) {
            return Err(ApiError::bad_request(format!(
                "no theme '{}': {}",
                loa_core::excerpt(theme),
                Theme::ALL.map(Theme::name).join(", ")
            )));
        }
    }
    let variant = query.variant.as_deref().filter(|v| !v.is_empty());
    if let Some(variant) = variant {
        variant
            .parse::<Variant>()
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
    }
    let near = match viewer.id() {
        Some(account) => hub
            .store
            .puzzle_rating(account)
            .await?
            .map_or(Rating::default().rating, |r| r.rating.rating),
        None => {
            let mut byte = [0u8; 1];
            getrandom::fill(&mut byte).map_err(ApiError::internal)?;
            1200.0 + f64::from(byte[0]) * 600.0 / 255.0
        }
    };
    let choice = PuzzleChoice {
        account: viewer.id(),
        theme,
        variant,
        not: query.after.as_deref().filter(|id| is_id(id)),
        near,
    };
    let row = hub.store.next_puzzle(&choice).await?.ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no puzzle left to give: every one asked for was tried",
        )
    })?;
    Ok(Json(view(&hub, row, &viewer).await?))
}

/// `GET /api/puzzles/daily`: the same puzzle for everyone on a UTC day.
pub async fn daily_puzzle(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
) -> ApiResult<Json<PuzzleView>> {
    let day = chrono::DateTime::from_timestamp_millis(now_ms())
        .unwrap_or_default()
        .format("%Y-%m-%d")
        .to_string();
    let row = hub
        .store
        .daily_puzzle(&day, DAILY_RATING)
        .await?
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "this site has no puzzles yet"))?;
    let mut view = view(&hub, row, &viewer).await?;
    view.day = Some(day);
    Ok(Json(view))
}

/// The day's puzzle is the unused one nearest this rating: hard enough to be worth a
/// visit, easy enough for most.
const DAILY_RATING: f64 = 1700.0;

pub async fn get_puzzle(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> ApiResult<Json<PuzzleView>> {
    let row = find(&hub, &id).await?;
    Ok(Json(view(&hub, row, &viewer).await?))
}

async fn find(hub: &Hub, id: &str) -> ApiResult<PuzzleRow> {
    if !is_id(id) {
        return Err(ApiError::not_found("puzzle"));
    }
    hub.store
        .puzzle(id)
        .await?
        .ok_or_else(|| ApiError::not_found("puzzle"))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovesRequest {
    /// The moves from the puzzle's position: the player's and the replies given, the
    /// player's newest last.
    pub moves: Vec<String>,
}

/// The answer to a try's newest move.
#[derive(Debug, Serialize)]
pub struct StepAnswer {
    /// `right` (the win kept: `reply` comes), `solved`, `wrong` (the win let go:
    /// `solution` wins from before it), `unproven` (off the line, and not proved either
    /// way in the time given: try another).
    pub result: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<Vec<String>>,
    /// The try that ended here rated the signed-in player: their first at this puzzle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rated: Option<TriedView>,
}

/// `POST /api/puzzles/{id}/moves`.
pub async fn puzzle_move(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
    Path(id): Path<String>,
    Body(request): Body<MovesRequest>,
) -> ApiResult<Json<StepAnswer>> {
    let row = find(&hub, &id).await?;
    let puzzle = parsed(&row)?;
    let outcome = judge(&hub, &puzzle, request.moves, |p, m, prove| {
        step(p, m, prove)
    })
    .await?;
    let mut answer = StepAnswer {
        result: "right",
        reply: None,
        solution: None,
        rated: None,
    };
    let solved = match outcome {
        Step::Right { reply } => {
            answer.reply = Some(reply.to_string());
            return Ok(Json(answer));
        }
        Step::Unproven => {
            answer.result = "unproven";
            return Ok(Json(answer));
        }
        Step::Solved => {
            answer.result = "solved";
            true
        }
        Step::Wrong { solution } => {
            answer.result = "wrong";
            answer.solution = Some(texts(&solution));
            false
        }
    };
    answer.rated = rate_end(&hub, &viewer, &row.id, solved).await?;
    Ok(Json(answer))
}

/// `POST /api/puzzles/{id}/solution`: a try given up, from where it stands (`moves`:
/// none, or ending with a reply given). It counts as a miss; the answer is `wrong`
/// with the winning line on from there.
pub async fn puzzle_solution(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
    Path(id): Path<String>,
    Body(request): Body<MovesRequest>,
) -> ApiResult<Json<StepAnswer>> {
    let row = find(&hub, &id).await?;
    let puzzle = parsed(&row)?;
    let line = judge(&hub, &puzzle, request.moves, |p, m, prove| {
        solution(p, m, prove)
    })
    .await?;
    Ok(Json(StepAnswer {
        result: "wrong",
        reply: None,
        solution: Some(texts(&line)),
        rated: rate_end(&hub, &viewer, &row.id, false).await?,
    }))
}

fn texts(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

/// Rates the end of a signed-in player's first try at a puzzle.
async fn rate_end(
    hub: &Hub,
    viewer: &Viewer,
    puzzle: &str,
    solved: bool,
) -> ApiResult<Option<TriedView>> {
    let Some(account) = viewer.id() else {
        return Ok(None);
    };
    let _one_at_a_time = hub.puzzle_ratings_lock.lock().await;
    let rated = hub
        .store
        .rate_puzzle_try(
            account,
            puzzle,
            solved,
            now_ms(),
            Rating::default(),
            |player, puzzle| rate_try(player, puzzle, solved),
        )
        .await?;
    match rated {
        TryRating::Rated(t) => Ok(Some(t.into())),
        TryRating::TriedBefore => Ok(None),
        TryRating::Busy => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the rating could not be written for other servers' writes: send the move again",
        )),
    }
}

/// How a try's moves are judged: a step, or the solution.
type Judgement<T> = fn(
    &Puzzle,
    &[String],
    &mut dyn FnMut(&Game<VariantPosition>) -> Alternative,
) -> Result<T, StepError>;

/// Judges a try's moves: at once when every move off the line was judged before, else
/// as a solver job (one at a time on this server, stopped if the request goes).
async fn judge<T: Send + 'static>(
    hub: &Arc<Hub>,
    puzzle: &Puzzle,
    moves: Vec<String>,
    judgement: Judgement<T>,
) -> ApiResult<T> {
    let refused = |e: StepError| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string());
    let proofs = &hub.puzzle_proofs;
    let mut unknown = false;
    let quick = judgement(puzzle, &moves, &mut |game| {
        proofs.known(game).unwrap_or_else(|| {
            unknown = true;
            Alternative::Unknown
        })
    });
    if !unknown {
        return quick.map_err(refused);
    }
    let (hub, puzzle) = (Arc::clone(hub), puzzle.clone());
    let judges = Arc::clone(&hub);
    judges
        .solver_jobs
        .run(move |stop| {
            judgement(&puzzle, &moves, &mut |game| {
                hub.puzzle_proofs.prove(game, stop)
            })
        })
        .await
        .map_err(ApiError::internal)?
        .map_err(refused)
}
