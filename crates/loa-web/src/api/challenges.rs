//! Challenges: an offer to play one named player, accepted or declined by them; open
//! for an hour (a live game) or two weeks (correspondence), at most 20 at once from a
//! player.

use super::pairing::{party, start_game, terms_of, CORRESPONDENCE_SEEK_MS, LIVE_SEEK_MS};
use super::Body;
use crate::account_news::News;
use crate::auth::Viewer;
use crate::clock::{now_ms, TimeControl};
use crate::error::{ApiError, ApiResult};
use crate::hub::Hub;
use crate::ids::{is_well_formed, random_name};
use crate::pairing::TermsRequest;
use crate::store::{AccountRow, ChallengeRow};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The most open challenges a player may have sent.
const MAX_OPEN_CHALLENGES: i64 = 20;

/// When a challenge stops being open unanswered: an hour after it was made for a live
/// game, two weeks for correspondence.
fn expires_at(c: &ChallengeRow) -> i64 {
    let live = matches!(
        serde_json::from_str(&c.time_control),
        Ok(TimeControl::Live { .. })
    );
    let lifetime = if live {
        LIVE_SEEK_MS
    } else {
        CORRESPONDENCE_SEEK_MS
    };
    c.created_at.saturating_add(lifetime)
}

/// Whether an open challenge has outlived its time.
fn expired(c: &ChallengeRow, now: i64) -> bool {
    c.status == "open" && expires_at(c) < now
}

/// Tells both players' pages that a challenge between them changed.
fn tell_players(hub: &Arc<Hub>, c: &ChallengeRow) {
    hub.tell_accounts(&[c.from_account, c.to_account], News::Challenges);
}

fn too_many_challenges() -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        format!("at most {MAX_OPEN_CHALLENGES} open challenges: wait for answers, or cancel some"),
    )
}

/// Marks an open challenge that has outlived its time expired: it can no longer be
/// accepted, and leaves the lists.
async fn expire(hub: &Arc<Hub>, mut c: ChallengeRow, now: i64) -> ApiResult<ChallengeRow> {
    if expired(&c, now) && hub.store.close_challenge(&c.id, "expired", None).await? {
        c.status = "expired".into();
        tell_players(hub, &c);
    }
    Ok(c)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    pub to: String,
    #[serde(flatten)]
    pub terms: TermsRequest,
}

#[derive(Serialize)]
pub struct ChallengeView {
    pub id: String,
    pub from: String,
    pub to: String,
    pub variant: String,
    pub rules: String,
    pub clock: serde_json::Value,
    pub rated: bool,
    /// The challenger's colour.
    pub color: String,
    pub status: String,
    pub created_at: i64,
    /// The game, once accepted.
    pub game: Option<String>,
}

fn challenge_view(c: ChallengeRow) -> ChallengeView {
    ChallengeView {
        clock: serde_json::from_str(&c.time_control).unwrap_or_default(),
        id: c.id,
        from: c.from_name,
        to: c.to_name,
        variant: c.variant,
        rules: c.rules,
        rated: c.rated,
        color: c.color,
        status: c.status,
        created_at: c.created_at,
        game: c.game_id,
    }
}

pub async fn create_challenge(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
    Body(request): Body<ChallengeRequest>,
) -> ApiResult<(StatusCode, Json<ChallengeView>)> {
    let from = viewer.required()?;
    let terms = request.terms.check().map_err(ApiError::bad_request)?;
    let to = super::players::open_account_named(&hub, &request.to).await?;
    if to.id == from.id {
        return Err(ApiError::bad_request("a challenge goes to someone else"));
    }
    super::blocks::refuse_if_blocked(&hub, from.id, to.id).await?;
    let now = now_ms();
    let mut sent = 0;
    for c in hub.store.open_challenges(from.id).await? {
        if c.from_account == from.id && expire(&hub, c, now).await?.status == "open" {
            sent += 1;
        }
    }
    if sent >= MAX_OPEN_CHALLENGES {
        return Err(too_many_challenges());
    }
    let challenge = ChallengeRow {
        id: random_name(),
        from_account: from.id,
        from_name: from.name,
        to_account: to.id,
        to_name: to.name,
        variant: terms.variant.name().to_string(),
        rules: terms.rules.to_string(),
        time_control: serde_json::to_string(&terms.clock).map_err(ApiError::internal)?,
        rated: terms.rated,
        color: terms.color.name().to_string(),
        created_at: now,
        status: "open".into(),
        game_id: None,
    };
    // Counted again as it is kept: challenges sent at once cannot all take the last place.
    if !hub
        .store
        .insert_challenge(&challenge, MAX_OPEN_CHALLENGES)
        .await?
    {
        return Err(too_many_challenges());
    }
    tell_players(&hub, &challenge);
    Ok((StatusCode::CREATED, Json(challenge_view(challenge))))
}

async fn find_challenge(hub: &Arc<Hub>, id: &str) -> ApiResult<ChallengeRow> {
    let none = || ApiError::new(StatusCode::NOT_FOUND, "no such challenge");
    if !is_well_formed(id) {
        return Err(none());
    }
    let challenge = hub.store.challenge(id).await?.ok_or_else(none)?;
    expire(hub, challenge, now_ms()).await
}

pub async fn get_challenge(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> ApiResult<Json<ChallengeView>> {
    Ok(Json(challenge_view(find_challenge(&hub, &id).await?)))
}

/// The open challenges the signed-in account sent or received: what a bot polls.
pub async fn my_challenges(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
) -> ApiResult<Json<Vec<ChallengeView>>> {
    let account = viewer.required()?;
    Ok(Json(open_challenges(&hub, account.id).await?.0))
}

/// The open challenges the account sent or received, and when the first of them runs
/// out.
pub async fn open_challenges(
    hub: &Arc<Hub>,
    account: i64,
) -> ApiResult<(Vec<ChallengeView>, Option<i64>)> {
    let now = now_ms();
    let mut open = Vec::new();
    let mut first_expiry: Option<i64> = None;
    for c in hub.store.open_challenges(account).await? {
        let c = expire(hub, c, now).await?;
        if c.status == "open" {
            let expiry = expires_at(&c);
            first_expiry = Some(first_expiry.map_or(expiry, |first| first.min(expiry)));
            open.push(challenge_view(c));
        }
    }
    Ok((open, first_expiry))
}

pub async fn accept_challenge(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    viewer: Viewer,
) -> ApiResult<(StatusCode, Json<ChallengeView>)> {
    let account = viewer.required()?;
    let challenge = find_challenge(&hub, &id).await?;
    if challenge.to_account != account.id {
        return Err(ApiError::forbidden("only the challenged player accepts"));
    }
    // A block made since the challenge (closing it raced with its making).
    super::blocks::refuse_if_blocked(&hub, challenge.from_account, account.id).await?;
    let terms = terms_of(
        &challenge.variant,
        &challenge.rules,
        &challenge.time_control,
        challenge.rated,
        &challenge.color,
    )?;
    let game_id = random_name();
    if !hub
        .store
        .close_challenge(&challenge.id, "accepted", Some(&game_id))
        .await?
    {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!("the challenge is {}", challenge.status),
        ));
    }
    let from = hub.store.account(challenge.from_account).await?;
    let taken = start_game(
        &hub,
        game_id,
        &terms,
        party(from.as_ref()),
        None,
        party(Some(&account)),
    )
    .await;
    if let Err(err) = taken {
        if !hub
            .store
            .blocked_between(challenge.from_account, account.id)
            .await?
        {
            hub.store.reopen_challenge(&challenge.id).await?;
        }
        tell_players(&hub, &challenge);
        return Err(err);
    }
    tell_players(&hub, &challenge);
    let accepted = find_challenge(&hub, &id).await?;
    Ok((StatusCode::CREATED, Json(challenge_view(accepted))))
}

/// Closes the open challenges between two accounts, `account` blocking `other`: those
/// `other` sent are declined, those `account` sent withdrawn.
pub(super) async fn close_challenges_between(
    hub: &Arc<Hub>,
    account: &AccountRow,
    other: &AccountRow,
) -> ApiResult<()> {
    for c in hub.store.open_challenges(account.id).await? {
        let status = if c.from_account == other.id {
            "declined"
        } else if c.to_account == other.id {
            "cancelled"
        } else {
            continue;
        };
        if hub.store.close_challenge(&c.id, status, None).await? {
            tell_players(hub, &c);
        }
    }
    Ok(())
}

/// Declines a challenge (the challenged) or withdraws it (the challenger).
pub async fn decline_challenge(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    viewer: Viewer,
) -> ApiResult<Json<ChallengeView>> {
    let account = viewer.required()?;
    let challenge = find_challenge(&hub, &id).await?;
    let status = if challenge.to_account == account.id {
        "declined"
    } else if challenge.from_account == account.id {
        "cancelled"
    } else {
        return Err(ApiError::forbidden("the challenge is not yours"));
    };
    if !hub
        .store
        .close_challenge(&challenge.id, status, None)
        .await?
    {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!("the challenge is {}", challenge.status),
        ));
    }
    tell_players(&hub, &challenge);
    Ok(Json(challenge_view(find_challenge(&hub, &id).await?)))
}
