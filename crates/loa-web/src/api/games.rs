//! Games: making them, reading them, playing in them, listing them, their records.

use super::{refuse_unknown, ApiQuery, Body, OptionalBody, MAX_LIST};
use crate::auth::Viewer;
use crate::clock::now_ms;
use crate::error::{ApiError, ApiResult};
use crate::game::{Caller, Changed, GameView, LiveGame};
use crate::hub::Hub;
use crate::setup::{rated_level, NewGame};
use crate::store::GameFilter;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use loa_core::record::GameRecord;
use loa_core::Color;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

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
    viewer: Viewer,
    Body(request): Body<NewGame>,
) -> ApiResult<(StatusCode, Json<Created>)> {
    refuse_unknown(&request.unknown)?;
    let mut setup = request.check().map_err(ApiError::bad_request)?;
    // A game made signed in is the account's: at one board or against the engine every
    // person's side, under the account's name; online, the seat its maker joins.
    if let (Some(account), false) = (&viewer.account, setup.online) {
        for side in Color::ALL {
            let seat = loa_core::Seat { side, index: 0 };
            if setup.lineup.player(seat) == crate::lineup::Player::Human {
                setup.accounts[side.index()] = Some(account.id);
                setup.names[side.index()].get_or_insert_with(|| account.name.clone());
            }
        }
    }
    if setup.rated {
        let account = viewer.required()?;
        let (engine, level) =
            rated_level(&setup.lineup, setup.clock, setup.online).map_err(ApiError::bad_request)?;
        let bot = hub
            .store
            .bot_account(&crate::levels::bot_name(level), now_ms())
            .await?;
        setup.accounts[engine.index()] = Some(bot.id);
        setup.names[engine.index()] = Some(bot.name);
        setup.names[(!engine).index()] = Some(account.name);
    }
    let live = LiveGame::create(setup, now_ms());
    let tokens = live.tokens();
    let open = hub.create(live).await?;
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
    /// The tournament the game was paired in, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tournament: Option<GameTournament>,
}

/// A tournament game's tournament: `/tournament/{id}` on the page.
#[derive(Serialize)]
pub struct GameTournament {
    pub id: String,
    pub name: String,
    pub round: i64,
}

/// The tournament `id` was paired in, if any.
async fn tournament_of(hub: &Hub, id: &str) -> ApiResult<Option<GameTournament>> {
    let found = hub.store.game_tournament(id).await?;
    Ok(found.map(|(id, name, round)| GameTournament { id, name, round }))
}

pub async fn get_game(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    viewer: Viewer,
    ApiQuery(query): ApiQuery<TokenQuery>,
) -> ApiResult<Json<GameAnswer>> {
    let open = hub.open(&id).await?;
    let live = open.game.lock().await;
    let caller = Caller {
        token: query.token,
        account: viewer.id(),
    };
    let (game, you) = (live.view(now_ms()), live.slot_for(&caller));
    drop(live);
    Ok(Json(GameAnswer {
        game,
        you,
        tournament: tournament_of(&hub, &id).await?,
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
    viewer: Viewer,
    Body(request): Body<MoveRequest>,
) -> ApiResult<Json<GameView>> {
    let open = hub.open(&id).await?;
    let caller = Caller {
        token: request.token,
        account: viewer.id(),
    };
    let view = hub
        .change(&open, |live, now| {
            live.play_human(&caller, &request.text, request.ply, now)
        })
        .await?;
    Ok(Json(view))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatRequest {
    pub text: String,
    #[serde(default)]
    pub token: Option<String>,
}

/// A player says something in the game's chat (a seat's token or account only).
pub async fn chat(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    viewer: Viewer,
    Body(request): Body<ChatRequest>,
) -> ApiResult<Json<GameView>> {
    let open = hub.open(&id).await?;
    let caller = Caller {
        token: request.token,
        account: viewer.id(),
    };
    let name = viewer.account.map(|a| a.name);
    let view = hub
        .change(&open, |live, now| {
            live.say(&caller, &request.text, name.clone(), now)
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
    fn caller(&self, viewer: &Viewer) -> ApiResult<(Caller, Option<Color>)> {
        let side = self
            .side
            .as_deref()
            .map(str::parse::<Color>)
            .transpose()
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        Ok((
            Caller {
                token: self.token.clone(),
                account: viewer.id(),
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
    Abort,
    Draw,
    DeclineDraw,
    Takeback,
    DeclineTakeback,
}

pub async fn act(
    hub: Arc<Hub>,
    id: String,
    viewer: Viewer,
    request: SideRequest,
    action: Action,
) -> ApiResult<Json<GameView>> {
    let open = hub.open(&id).await?;
    let (caller, side) = request.caller(&viewer)?;
    let viewer_name = viewer.account.as_ref().map(|a| a.name.clone());
    let view = hub
        .change(&open, |live, now| {
            let nothing = |live: &LiveGame| Changed::nothing_at(live.game.ply());
            let changed = match action {
                Action::Join => live.join(&caller, viewer_name.as_deref(), now)?,
                Action::Resign => {
                    live.resign(&caller, side, now)?;
                    nothing(live)
                }
                Action::Abort => {
                    live.abort(&caller, side, now)?;
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
            viewer: Viewer,
            OptionalBody(body): OptionalBody<SideRequest>,
        ) -> ApiResult<Json<GameView>> {
            act(hub, id, viewer, body, Action::$action).await
        }
    )*};
}

action_handler!(
    join => Join,
    resign => Resign,
    abort => Abort,
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
    viewer: Viewer,
    OptionalBody(body): OptionalBody<SideRequest>,
) -> ApiResult<(StatusCode, Json<Created>)> {
    let open = hub.open(&id).await?;
    let (caller, _) = body.caller(&viewer)?;
    if tournament_of(&hub, &id).await?.is_some() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "a tournament's game has no rematch: the tournament pairs its own games",
        ));
    }
    let accounts = open.game.lock().await.accounts;
    if let [Some(black), Some(white)] = accounts {
        super::blocks::refuse_if_blocked(&hub, black, white).await?;
    }
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
    pub rated: bool,
    /// Black's and White's names: the accounts', or an imported record's.
    pub names: [Option<String>; 2],
    pub created_at: i64,
    pub updated_at: i64,
}

pub async fn list_games(
    State(hub): State<Arc<Hub>>,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> ApiResult<Json<Vec<GameSummary>>> {
    summaries(&hub, query.limit, query.offset, &GameFilter::default()).await
}

/// A page of games (of one account, if given), newest first.
pub async fn summaries(
    hub: &Hub,
    limit: Option<usize>,
    offset: Option<usize>,
    filter: &GameFilter,
) -> ApiResult<Json<Vec<GameSummary>>> {
    let limit = limit.unwrap_or(50).min(MAX_LIST);
    // SQLite counts in i64: an offset past every game lists nothing.
    let offset = offset.unwrap_or(0).min(i64::MAX as usize);
    let games = hub.store.list(limit, offset, filter).await?;
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
                rated: row.rated,
                names: serde_json::from_str(&row.names).unwrap_or_default(),
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
    let open = hub.open(&id).await?;
    let mut record = record_of(&*open.game.lock().await);
    // A finished report's judgements go with the moves.
    record.comments = super::report_comments(&hub, &id).await?;
    if let Some(t) = tournament_of(&hub, &id).await? {
        record.event = Some(t.name);
        record.extra.push(("Round".into(), t.round.to_string()));
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

/// The game as a record: its players, date, result and time control.
pub fn record_of(live: &LiveGame) -> GameRecord {
    let mut record = GameRecord::from_game(&live.game);
    record.event = Some("loa serve".into());
    record.date = chrono::DateTime::from_timestamp_millis(live.created_at)
        .map(|at| at.format("%Y.%m.%d").to_string());
    record.black = Some(live.side_title(Color::Black));
    record.white = Some(live.side_title(Color::White));
    if let Some(ending) = &live.ending {
        record.result = ending.result();
        record.termination = Some(ending.reason.clone());
    }
    if let Some(clock) = live.clock {
        record.time_control = Some(clock.control.label());
    }
    record
}
