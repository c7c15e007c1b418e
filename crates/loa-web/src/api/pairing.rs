//! Finding a game: seeks in the lobby (anyone may take one) and quick pairing. Taking a
//! seek, or accepting a challenge (challenges.rs), makes an online game with both seats
//! filled.

use super::{Body, OptionalBody};
use crate::auth::Viewer;
use crate::client::ClientNetwork;
use crate::clock::{now_ms, TimeControl, DAY, HOUR};
use crate::error::{ApiError, ApiResult};
use crate::game::LiveGame;
use crate::hub::Hub;
use crate::ids::{is_well_formed, random_name};
use crate::pairing::{ratings_fit, ColorChoice, Party, Terms, TermsRequest};
use crate::store::{AccountRow, SeekRoom, SeekRow};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tower_sessions::Session;

/// How long a seek stays in the lobby: an hour for a live game, two weeks for
/// correspondence.
pub(super) const LIVE_SEEK_MS: i64 = HOUR;
pub(super) const CORRESPONDENCE_SEEK_MS: i64 = 14 * DAY;
/// The most open seeks the lobby lists.
const MAX_SEEKS: usize = 500;

pub(super) fn party(account: Option<&AccountRow>) -> Party {
    Party {
        account: account.map(|a| a.id),
        name: account.map(|a| a.name.clone()),
    }
}

pub(super) fn terms_of(
    variant: &str,
    rules: &str,
    clock: &str,
    rated: bool,
    color: &str,
) -> ApiResult<Terms> {
    let clock: TimeControl = serde_json::from_str(clock).map_err(ApiError::internal)?;
    TermsRequest {
        variant: Some(variant.to_string()),
        rules: Some(rules.to_string()),
        clock,
        rated,
        color: ColorChoice::parse(color),
    }
    .check()
    .map_err(ApiError::internal)
}

/// Writes the game two people agreed on, under `game_id` (already claimed), the maker's
/// seat with `maker_token`; answers the taker's token.
pub(super) async fn start_game(
    hub: &Arc<Hub>,
    game_id: String,
    terms: &Terms,
    maker: Party,
    maker_token: Option<String>,
    taker: Party,
) -> ApiResult<Taken> {
    let maker_color = terms.color.resolve();
    let mut live = LiveGame::create_paired(terms.game(maker_color, maker, taker), now_ms());
    live.id = game_id;
    let maker_slot = maker_color.id();
    let mut taker_token = String::new();
    for seat in &mut live.seats {
        if seat.slot == maker_slot {
            if let Some(token) = &maker_token {
                seat.token.clone_from(token);
            }
        } else {
            taker_token.clone_from(&seat.token);
        }
    }
    let open = hub.create(live).await?;
    let live = open.game.lock().await;
    let view = live.view(now_ms());
    hub.after_change(&open, &live, &view);
    Ok(Taken {
        game: live.id.clone(),
        color: (!maker_color).id(),
        token: taker_token,
    })
}

/// A game made by taking a seek or accepting a challenge.
#[derive(Serialize)]
pub struct Taken {
    pub game: String,
    /// The taker's colour.
    pub color: &'static str,
    /// The taker's seat token (a person not signed in acts with it).
    pub token: String,
}

#[derive(Serialize)]
pub struct SeekView {
    pub id: String,
    /// The maker's name; `null` for a person not signed in.
    pub name: Option<String>,
    pub rating: Option<i64>,
    pub provisional: Option<bool>,
    pub variant: String,
    pub rules: String,
    pub clock: serde_json::Value,
    pub rated: bool,
    pub color: String,
    pub created_at: i64,
    /// The game, once someone took the seek.
    pub game: Option<String>,
}

async fn seek_view(hub: &Hub, seek: SeekRow) -> ApiResult<SeekView> {
    let clock: TimeControl =
        serde_json::from_str(&seek.time_control).map_err(ApiError::internal)?;
    let rating = match seek.account {
        Some(account) => {
            let category = crate::ratings::Category {
                variant: seek.variant.parse().map_err(ApiError::internal)?,
                speed: crate::ratings::Speed::of(clock),
            };
            let row = hub.store.rating(account, &category.key()).await?;
            Some(row.map_or_else(crate::ratings::Rating::default, |r| r.rating()))
        }
        None => None,
    };
    Ok(SeekView {
        id: seek.id,
        name: seek.name,
        rating: rating.map(|r| r.rating.round() as i64),
        provisional: rating.map(|r| r.provisional()),
        variant: seek.variant,
        rules: seek.rules,
        clock: serde_json::to_value(clock).map_err(ApiError::internal)?,
        rated: seek.rated,
        color: seek.color,
        created_at: seek.created_at,
        game: seek.game_id,
    })
}

#[derive(Serialize)]
pub struct CreatedSeek {
    pub id: String,
    /// The maker's seat token in the game to come: a person not signed in acts with it,
    /// and withdraws the seek with it.
    pub token: String,
}

/// The seeks a person not signed in made, kept in their session so that they cannot take
/// their own.
const ANONYMOUS_SEEKS: &str = "seeks";
/// How many of them the session remembers.
const MAX_ANONYMOUS_SEEKS: usize = 20;

async fn anonymous_seeks(session: &Session) -> ApiResult<Vec<String>> {
    Ok(session
        .get::<Vec<String>>(ANONYMOUS_SEEKS)
        .await
        .map_err(ApiError::internal)?
        .unwrap_or_default())
}

pub async fn create_seek(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
    network: ClientNetwork,
    session: Session,
    Body(request): Body<TermsRequest>,
) -> ApiResult<(StatusCode, Json<CreatedSeek>)> {
    let terms = request.check().map_err(ApiError::bad_request)?;
    make_seek(&hub, &viewer, &network, &session, &terms).await
}

async fn make_seek(
    hub: &Arc<Hub>,
    viewer: &Viewer,
    network: &ClientNetwork,
    session: &Session,
    terms: &Terms,
) -> ApiResult<(StatusCode, Json<CreatedSeek>)> {
    if terms.rated && viewer.account.is_none() {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "a rated seek needs an account: sign in",
        ));
    }
    // A seek made without an account is counted for its client's network.
    let network = match viewer.id() {
        Some(_) => None,
        None => network.0.as_deref(),
    };
    let seek = SeekRow {
        id: random_name(),
        account: viewer.id(),
        name: None,
        token: random_name(),
        variant: terms.variant.name().to_string(),
        rules: terms.rules.to_string(),
        time_control: serde_json::to_string(&terms.clock).map_err(ApiError::internal)?,
        rated: terms.rated,
        color: terms.color.name().to_string(),
        created_at: now_ms(),
        game_id: None,
    };
    if !hub
        .store
        .insert_seek(
            &seek,
            network,
            &seek_room(seek.created_at, viewer.id().is_some()),
        )
        .await?
    {
        return Err(too_many_seeks(hub, viewer.id(), network).await?);
    }
    if viewer.account.is_none() {
        let mut made = anonymous_seeks(session).await?;
        made.push(seek.id.clone());
        let keep_from = made.len().saturating_sub(MAX_ANONYMOUS_SEEKS);
        session
            .insert(ANONYMOUS_SEEKS, &made[keep_from..])
            .await
            .map_err(ApiError::internal)?;
    }
    hub.lobby_changed();
    Ok((
        StatusCode::CREATED,
        Json(CreatedSeek {
            id: seek.id,
            token: seek.token,
        }),
    ))
}

/// The open seeks of the lobby, oldest first.
pub async fn list_seeks(State(hub): State<Arc<Hub>>) -> ApiResult<Json<Vec<SeekView>>> {
    Ok(Json(open_seeks(&hub).await?))
}

pub async fn open_seeks(hub: &Hub) -> ApiResult<Vec<SeekView>> {
    let now = now_ms();
    let seeks = hub
        .store
        .open_seeks(now - LIVE_SEEK_MS, now - CORRESPONDENCE_SEEK_MS, MAX_SEEKS)
        .await?;
    let mut views = Vec::with_capacity(seeks.len());
    for seek in seeks {
        views.push(seek_view(hub, seek).await?);
    }
    Ok(views)
}

/// Forgets the client networks no limit counts any more: those of seeks past the
/// longest life a seek has, and sign-ups over a day old.
pub async fn forget_client_networks(hub: &Hub) -> Result<(), crate::store::StoreError> {
    let now = now_ms();
    let longest = LIVE_SEEK_MS.max(CORRESPONDENCE_SEEK_MS);
    hub.store
        .forget_client_networks(now - longest, now - DAY)
        .await
}

/// The most seeks open at once of one account, of everyone not signed in together, and
/// of one client's network not signed in: one person cannot fill the lobby and hide
/// everyone else's, nor take every place of those not signed in.
const MAX_OPEN_SEEKS: i64 = 20;
const MAX_OPEN_ANONYMOUS_SEEKS: i64 = 100;
const MAX_OPEN_SEEKS_OF_A_CLIENT: i64 = 10;

/// The places open to a new seek made at `now`, by an account or not.
fn seek_room(now: i64, by_account: bool) -> SeekRoom {
    SeekRoom {
        live_since: now - LIVE_SEEK_MS,
        correspondence_since: now - CORRESPONDENCE_SEEK_MS,
        of_owner: if by_account {
            MAX_OPEN_SEEKS
        } else {
            MAX_OPEN_ANONYMOUS_SEEKS
        },
        of_network: MAX_OPEN_SEEKS_OF_A_CLIENT,
    }
}

/// Why a seek found no place: its client's network's seeks, or its owner's.
async fn too_many_seeks(
    hub: &Hub,
    account: Option<i64>,
    network: Option<&str>,
) -> ApiResult<ApiError> {
    let room = seek_room(now_ms(), account.is_some());
    let of_network = match network {
        Some(network) => {
            hub.store
                .count_open_seeks_from(network, room.live_since, room.correspondence_since)
                .await?
        }
        None => 0,
    };
    let message = if of_network >= room.of_network {
        format!(
            "{} seeks made from your network without an account are open: withdraw one, \
             or sign in",
            room.of_network
        )
    } else if account.is_some() {
        format!("you have {} open seeks: withdraw one first", room.of_owner)
    } else {
        format!(
            "{} seeks without an account are open: sign in to seek",
            room.of_owner
        )
    };
    Ok(ApiError::new(StatusCode::TOO_MANY_REQUESTS, message))
}

fn no_seek() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no such seek")
}

async fn find_seek(hub: &Hub, id: &str) -> ApiResult<SeekRow> {
    if !is_well_formed(id) {
        return Err(no_seek());
    }
    hub.store.seek(id).await?.ok_or_else(no_seek)
}

pub async fn get_seek(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> ApiResult<Json<SeekView>> {
    let seek = find_seek(&hub, &id).await?;
    Ok(Json(seek_view(&hub, seek).await?))
}

pub async fn accept_seek(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    viewer: Viewer,
    session: Session,
) -> ApiResult<(StatusCode, Json<Taken>)> {
    let seek = find_seek(&hub, &id).await?;
    if seek.rated && viewer.account.is_none() {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "a rated seek is taken by an account: sign in",
        ));
    }
    let own = match seek.account {
        Some(maker) => viewer.id() == Some(maker),
        None => anonymous_seeks(&session).await?.contains(&seek.id),
    };
    if own {
        return Err(ApiError::bad_request("that is your own seek"));
    }
    if let (Some(maker), Some(taker)) = (seek.account, viewer.id()) {
        super::blocks::refuse_if_blocked(&hub, maker, taker).await?;
    }
    let taken = take(&hub, &seek, viewer.account.as_ref()).await?;
    Ok((StatusCode::CREATED, Json(taken)))
}

/// Takes a seek: claims it, then writes its game (giving the seek back if that fails).
async fn take(hub: &Arc<Hub>, seek: &SeekRow, taker: Option<&AccountRow>) -> ApiResult<Taken> {
    let terms = terms_of(
        &seek.variant,
        &seek.rules,
        &seek.time_control,
        seek.rated,
        &seek.color,
    )?;
    let game_id = random_name();
    if !hub.store.take_seek(&seek.id, &game_id).await? {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "someone else took this seek first",
        ));
    }
    let maker = match seek.account {
        Some(account) => party(hub.store.account(account).await?.as_ref()),
        None => Party::default(),
    };
    let taken = start_game(
        hub,
        game_id,
        &terms,
        maker,
        Some(seek.token.clone()),
        party(taker),
    )
    .await;
    if taken.is_err() {
        hub.store.release_seek(&seek.id).await?;
    }
    hub.lobby_changed();
    taken
}

/// The answer to quick pairing: a game at once, or the seek made to wait for one.
#[derive(Serialize)]
#[serde(untagged)]
pub enum Paired {
    Game(Taken),
    Seek(CreatedSeek),
}

/// Quick pairing: takes the oldest open seek with the same terms whose maker's rating
/// fits (within 300, widening while it waits), or else makes a seek (202) for others to
/// take. The colour is left to chance.
pub async fn quick_pairing(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
    network: ClientNetwork,
    session: Session,
    Body(request): Body<TermsRequest>,
) -> ApiResult<(StatusCode, Json<Paired>)> {
    let mut terms = request.check().map_err(ApiError::bad_request)?;
    terms.color = ColorChoice::Random;
    if terms.rated && viewer.account.is_none() {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "rated pairing needs an account: sign in",
        ));
    }
    let category = crate::ratings::Category {
        variant: terms.variant,
        speed: crate::ratings::Speed::of(terms.clock),
    }
    .key();
    let mine = match viewer.id() {
        Some(id) => Some(
            hub.store
                .rating(id, &category)
                .await?
                .map_or(1500.0, |r| r.rating),
        ),
        None => None,
    };
    let clock = serde_json::to_value(terms.clock).map_err(ApiError::internal)?;
    let now = now_ms();
    let made = anonymous_seeks(&session).await?;
    let views = open_seeks(&hub).await?;
    // The person's own seek of these terms, if one is open: asked again (another tab, a
    // page come back to), they go on waiting with it rather than with a second one.
    let mut own = None;
    for view in views {
        let same_terms = view.variant == terms.variant.name()
            && view.rules == terms.rules.to_string()
            && view.rated == terms.rated
            && view.clock == clock;
        if !same_terms {
            continue;
        }
        let Some(seek) = hub.store.seek(&view.id).await? else {
            continue;
        };
        let theirs = view.rating.map(|r| r as f64);
        if made.contains(&seek.id) || (seek.account.is_some() && seek.account == viewer.id()) {
            own.get_or_insert(seek);
            continue;
        }
        if !ratings_fit(theirs, mine, now - view.created_at) {
            continue;
        }
        if let (Some(maker), Some(taker)) = (seek.account, viewer.id()) {
            if hub.store.blocked_between(maker, taker).await? {
                continue;
            }
        }
        match take(&hub, &seek, viewer.account.as_ref()).await {
            Ok(taken) => return Ok((StatusCode::CREATED, Json(Paired::Game(taken)))),
            // Someone else was first: try the next.
            Err(err) if err.status == StatusCode::CONFLICT => continue,
            Err(err) => return Err(err),
        }
    }
    let seek = match own {
        Some(seek) => CreatedSeek {
            id: seek.id,
            token: seek.token,
        },
        None => {
            let (_, Json(made)) = make_seek(&hub, &viewer, &network, &session, &terms).await?;
            made
        }
    };
    Ok((StatusCode::ACCEPTED, Json(Paired::Seek(seek))))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SeekToken {
    #[serde(default)]
    pub token: Option<String>,
}

/// Withdraws a seek: its maker's account or the token it was made with.
pub async fn delete_seek(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    viewer: Viewer,
    OptionalBody(body): OptionalBody<SeekToken>,
) -> ApiResult<StatusCode> {
    let seek = find_seek(&hub, &id).await?;
    let by_account = seek.account.is_some() && seek.account == viewer.id();
    let by_token = body.token.as_deref() == Some(seek.token.as_str());
    if !by_account && !by_token {
        return Err(ApiError::forbidden("only the seek's maker withdraws it"));
    }
    if !hub.store.delete_seek(&seek.id).await? {
        return Err(ApiError::new(StatusCode::CONFLICT, "the seek was taken"));
    }
    hub.lobby_changed();
    Ok(StatusCode::NO_CONTENT)
}
