//! `GET /api/me/blocks`, `PUT` and `DELETE /api/me/blocks/{name}`: the players an
//! account will not meet. A blocked player's challenges are refused, neither can take
//! the other's seek nor be paired with them, and the page hides their chat lines.

use crate::auth::Viewer;
use crate::clock::now_ms;
use crate::error::{ApiError, ApiResult};
use crate::hub::Hub;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use std::sync::Arc;

/// The most players an account may block.
pub const MAX_BLOCKS: i64 = 1000;

#[derive(Serialize)]
pub struct BlockView {
    pub name: String,
    pub created_at: i64,
}

pub async fn list_blocks(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
) -> ApiResult<Json<Vec<BlockView>>> {
    let account = viewer.required()?;
    let blocks = hub.store.blocks(account.id).await?;
    Ok(Json(
        blocks
            .into_iter()
            .map(|b| BlockView {
                name: b.name,
                created_at: b.created_at,
            })
            .collect(),
    ))
}

/// Blocks a player: 201 when newly blocked, 200 when they were; the open challenges
/// between the two are closed.
pub async fn block_player(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
    Path(name): Path<String>,
) -> ApiResult<(StatusCode, Json<BlockView>)> {
    let account = viewer.required()?;
    let blocked = super::players::open_account_named(&hub, &name).await?;
    if blocked.id == account.id {
        return Err(ApiError::bad_request("one cannot block oneself"));
    }
    let now = now_ms();
    let (status, since) = match hub
        .store
        .block(account.id, blocked.id, now, MAX_BLOCKS)
        .await?
    {
        Some((true, since)) => (StatusCode::CREATED, since),
        Some((false, since)) => (StatusCode::OK, since),
        None => {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("at most {MAX_BLOCKS} players can be blocked: unblock one first"),
            ))
        }
    };
    super::challenges::close_challenges_between(&hub, &account, &blocked).await?;
    Ok((
        status,
        Json(BlockView {
            name: blocked.name,
            created_at: since,
        }),
    ))
}

/// Unblocks a player: 204, or 404 if they were not blocked.
pub async fn unblock_player(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
    Path(name): Path<String>,
) -> ApiResult<StatusCode> {
    let account = viewer.required()?;
    let blocked = super::players::open_account_named(&hub, &name).await?;
    if hub.store.unblock(account.id, blocked.id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "that player is not blocked",
        ))
    }
}

/// Refuses a meeting of two accounts when either blocks the other.
pub(super) async fn refuse_if_blocked(hub: &Hub, a: i64, b: i64) -> ApiResult<()> {
    if hub.store.blocked_between(a, b).await? {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "one of you has blocked the other",
        ));
    }
    Ok(())
}
