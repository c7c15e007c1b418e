//! The JSON API (docs/web.md): games, moves, offers, records, positions and
//! evaluations. Handlers read the request, call the hub and answer with the game's view;
//! errors are 4xx with `{"error": "..."}`.

use crate::clock::now_ms;
use crate::engine_pool::Cancel;
use crate::error::{ApiError, ApiResult};
use crate::game::{Caller, Changed, GameView, LiveGame};
use crate::hub::Hub;
use crate::setup::{parse_rules, read_moves, start_position, NewGame};
use crate::view::{OutcomeView, PositionView};
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use loa_core::record::{parse_games, GameRecord};
use loa_core::{Color, Game, GameState, Variant, VariantPosition};
use loa_engine::{evaluate_any, Score, SearchLimits, SearchRequest};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The most positions one evaluation request may ask for.
pub const MAX_EVALUATIONS: usize = 1_000;
/// The deepest search an evaluation request may ask for.
pub const MAX_EVALUATION_DEPTH: u32 = 6;
/// The most games a list may hold.
pub const MAX_LIST: usize = 200;

/// A JSON body whose errors are the API's: 400 with a message, not axum's plain text.
pub struct Body<T>(pub T);

impl<S, T> FromRequest<S> for Body<T>
where
    Json<T>: FromRequest<S, Rejection = JsonRejection>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) => Err(ApiError::new(rejection.status(), rejection.body_text())),
        }
    }
}

/// A query string whose errors are the API's: 400 with `{"error"}`, not axum's plain
/// text.
pub struct ApiQuery<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiQuery<T>
where
    T: serde::de::DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, ApiError> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(value)) => Ok(ApiQuery(value)),
            Err(rejection) => Err(ApiError::bad_request(rejection.body_text())),
        }
    }
}

/// A JSON body that may be left out (then the type's default).
pub struct OptionalBody<T>(pub T);

impl<S, T> FromRequest<S> for OptionalBody<T>
where
    T: serde::de::DeserializeOwned + Default,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(|rejection| ApiError::new(rejection.status(), rejection.body_text()))?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(OptionalBody(T::default()));
        }
        serde_json::from_slice(&bytes)
            .map(OptionalBody)
            .map_err(|e| ApiError::bad_request(format!("bad JSON: {e}")))
    }
}

#[derive(Serialize)]
pub struct Created {
    pub id: String,
    pub position: String,
    /// The token of each seat the creator plays (every person's seat; in an online game
    /// the creator passes the others on): only a seat's token acts in the game.
    pub tokens: std::collections::BTreeMap<String, String>,
    pub game: GameView,
}

pub async fn create_game(
    State(hub): State<Arc<Hub>>,
    Body(request): Body<NewGame>,
) -> ApiResult<(StatusCode, Json<Created>)> {
    let setup = request.check().map_err(ApiError::bad_request)?;
    let live = LiveGame::create(setup, now_ms());
    let tokens = live.tokens();
    let open = hub.create(live)?;
    let live = open.game.lock().await;
    let view = live.view(now_ms());
    hub.after_change(&open, &live, &view);
    Ok((
        StatusCode::CREATED,
        Json(Created {
            id: live.id.clone(),
            position: live.position().to_string(),
            tokens,
            game: view,
        }),
    ))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct TokenQuery {
    #[serde(default)]
    pub token: Option<String>,
}

#[derive(Serialize)]
pub struct GameAnswer {
    #[serde(flatten)]
    pub game: GameView,
    /// The place the token given holds, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<String>,
}

pub async fn get_game(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<TokenQuery>,
) -> ApiResult<Json<GameAnswer>> {
    let open = hub.open(&id)?;
    let live = open.game.lock().await;
    Ok(Json(GameAnswer {
        game: live.view(now_ms()),
        you: query.token.as_deref().and_then(|t| live.slot_for_token(t)),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    #[serde(rename = "move")]
    pub text: String,
    #[serde(default)]
    pub token: Option<String>,
    /// The number of moves played when the move was chosen.
    #[serde(default)]
    pub ply: Option<usize>,
}

pub async fn play_move(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Body(request): Body<MoveRequest>,
) -> ApiResult<Json<GameView>> {
    let open = hub.open(&id)?;
    let caller = Caller {
        token: request.token,
    };
    let view = hub
        .change(&open, |live, now| {
            live.play_human(&caller, &request.text, request.ply, now)
        })
        .await?;
    Ok(Json(view))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SideRequest {
    #[serde(default)]
    pub token: Option<String>,
    /// In a game at one board: the side that acts (the side to move by default).
    #[serde(default)]
    pub side: Option<String>,
}

impl SideRequest {
    fn caller(&self) -> ApiResult<(Caller, Option<Color>)> {
        let side = match self.side.as_deref() {
            None => None,
            Some("black") => Some(Color::Black),
            Some("white") => Some(Color::White),
            Some(other) => {
                return Err(ApiError::bad_request(format!(
                    "side is black or white, not '{}'",
                    loa_core::excerpt(other)
                )))
            }
        };
        Ok((
            Caller {
                token: self.token.clone(),
            },
            side,
        ))
    }
}

/// Which of the offers a request makes.
#[derive(Clone, Copy)]
pub enum Action {
    Join,
    Resign,
    Draw,
    DeclineDraw,
    Takeback,
    DeclineTakeback,
}

pub async fn act(
    hub: Arc<Hub>,
    id: String,
    request: SideRequest,
    action: Action,
) -> ApiResult<Json<GameView>> {
    let open = hub.open(&id)?;
    let (caller, side) = request.caller()?;
    let view = hub
        .change(&open, |live, now| {
            let nothing = |live: &LiveGame| Changed::nothing_at(live.game.ply());
            let changed = match action {
                Action::Join => live.join(&caller, now)?,
                Action::Resign => {
                    live.resign(&caller, side, now)?;
                    nothing(live)
                }
                Action::Draw => {
                    live.offer_draw(&caller, side, now)?;
                    nothing(live)
                }
                Action::DeclineDraw => {
                    live.decline(&caller, side, false)?;
                    nothing(live)
                }
                Action::Takeback => live.takeback(&caller, side, now)?,
                Action::DeclineTakeback => {
                    live.decline(&caller, side, true)?;
                    nothing(live)
                }
            };
            Ok(changed)
        })
        .await?;
    Ok(Json(view))
}

macro_rules! action_handler {
    ($($name:ident => $action:ident),*) => {$(
        pub async fn $name(
            State(hub): State<Arc<Hub>>,
            Path(id): Path<String>,
            OptionalBody(body): OptionalBody<SideRequest>,
        ) -> ApiResult<Json<GameView>> {
            act(hub, id, body, Action::$action).await
        }
    )*};
}

action_handler!(
    join => Join,
    resign => Resign,
    offer_draw => Draw,
    decline_draw => DeclineDraw,
    takeback => Takeback,
    decline_takeback => DeclineTakeback
);

/// Asks for a rematch of a finished game (or joins the one the other player asked for):
/// 201 when it is made, 200 when it was already; with the tokens of the caller's seats.
pub async fn rematch(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    OptionalBody(body): OptionalBody<SideRequest>,
) -> ApiResult<(StatusCode, Json<Created>)> {
    let open = hub.open(&id)?;
    let (caller, _) = body.caller()?;
    let (rematch, made, tokens) = hub.rematch(&open, &caller).await?;
    let live = rematch.game.lock().await;
    let status = if made {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((
        status,
        Json(Created {
            id: live.id.clone(),
            position: live.position().to_string(),
            tokens,
            game: live.view(now_ms()),
        }),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    #[serde(default)]
    pub limit: Option<usize>,
    #[serde(default)]
    pub offset: Option<usize>,
}

#[derive(Serialize)]
pub struct GameSummary {
    pub id: String,
    pub variant: String,
    pub rules: String,
    pub online: bool,
    pub players: serde_json::Value,
    pub moves: usize,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

pub async fn list_games(
    State(hub): State<Arc<Hub>>,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> ApiResult<Json<Vec<GameSummary>>> {
    let limit = query.limit.unwrap_or(50).min(MAX_LIST);
    // SQLite counts in i64: an offset past every game lists nothing.
    let offset = query.offset.unwrap_or(0).min(i64::MAX as usize);
    let games = hub.store.list(limit, offset)?;
    Ok(Json(
        games
            .into_iter()
            // Online games are listed without their tokens; their ids alone let people
            // watch, not play.
            .map(|(row, moves)| GameSummary {
                players: serde_json::from_str(&row.players).unwrap_or_default(),
                id: row.id,
                variant: row.variant,
                rules: row.rules,
                online: row.online,
                moves,
                result: row.result,
                reason: row.reason,
                created_at: row.created_at,
                updated_at: row.updated_at,
            })
            .collect(),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordQuery {
    #[serde(default)]
    pub format: Option<String>,
}

/// The game as a PGN or SGF record.
pub async fn record(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<RecordQuery>,
) -> ApiResult<Response> {
    let open = hub.open(&id)?;
    let live = open.game.lock().await;
    let mut record = GameRecord::from_game(&live.game);
    record.event = Some("loa serve".into());
    record.date = chrono::DateTime::from_timestamp_millis(live.created_at)
        .map(|at| at.format("%Y.%m.%d").to_string());
    record.black = Some(
        live.names[0]
            .clone()
            .unwrap_or_else(|| side_name(&live, Color::Black)),
    );
    record.white = Some(
        live.names[1]
            .clone()
            .unwrap_or_else(|| side_name(&live, Color::White)),
    );
    if let Some(ending) = &live.ending {
        record.result = match ending.winner {
            Some(Color::Black) => loa_core::record::RecordResult::BlackWins,
            Some(Color::White) => loa_core::record::RecordResult::WhiteWins,
            None => loa_core::record::RecordResult::Draw,
        };
        record.termination = Some(ending.reason.clone());
    }
    if let Some(clock) = live.clock {
        record.time_control = Some(clock.control.label());
    }
    let (text, kind, ext) = match query.format.as_deref().unwrap_or("pgn") {
        "pgn" => (record.to_pgn(), "application/x-chess-pgn", "pgn"),
        "sgf" => (record.to_sgf(), "application/x-go-sgf", "sgf"),
        other => {
            return Err(ApiError::bad_request(format!(
                "format is pgn or sgf, not '{}'",
                loa_core::excerpt(other)
            )))
        }
    };
    let disposition = format!("attachment; filename=\"loa-{id}.{ext}\"");
    Ok((
        [
            (header::CONTENT_TYPE, kind.to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

fn side_name(live: &LiveGame, side: Color) -> String {
    use crate::lineup::Player;
    let name = |seat| match live.lineup.player(seat) {
        Player::Human => "Anonymous".to_string(),
        Player::Engine(strength) => format!("loa {}", strength.describe()),
    };
    let first = name(loa_core::Seat { side, index: 0 });
    // AmbiLOA's partnership game: both players of the side.
    let second = name(loa_core::Seat { side, index: 1 });
    if live
        .lineup
        .slot(loa_core::Seat { side, index: 1 })
        .ends_with('2')
    {
        format!("{first} & {second}")
    } else {
        first
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub rules: Option<String>,
    #[serde(default)]
    pub board: Option<u8>,
    /// The position text; the variant's start when absent.
    #[serde(default)]
    pub position: Option<String>,
    /// Moves to play from it: the answer is the position after them.
    #[serde(default)]
    pub moves: Vec<String>,
}

impl PositionRequest {
    fn read(&self) -> ApiResult<(Variant, loa_core::RuleSet, VariantPosition)> {
        let variant = parse_variant(self.variant.as_deref())?;
        let rules = parse_rules(self.rules.as_deref()).map_err(ApiError::bad_request)?;
        let pos = start_position(variant, self.board, self.position.as_deref())
            .map_err(ApiError::bad_request)?;
        Ok((variant, rules, pos))
    }
}

pub fn parse_variant(name: Option<&str>) -> ApiResult<Variant> {
    name.map_or(Ok(Variant::Standard), |n| {
        n.parse()
            .map_err(|e: loa_core::UnknownVariant| ApiError::bad_request(e.to_string()))
    })
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
    let (_, rules, start) = request.read()?;
    let moves = read_moves(start, rules, &request.moves).map_err(ApiError::bad_request)?;
    let mut game = Game::new(start, rules);
    let mut line = vec![start.to_string()];
    for mv in moves {
        game.play(mv)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        line.push(game.position().to_string());
    }
    let mut view = PositionView::of(game.position(), rules, game.is_over());
    if let Some(outcome) = game.outcome() {
        view.outcome = Some(OutcomeView::of(outcome));
    }
    Ok(Json(PositionAnswer { view, line }))
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
    let variant = parse_variant(request.variant.as_deref())?;
    let rules = parse_rules(request.rules.as_deref()).map_err(ApiError::bad_request)?;
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
