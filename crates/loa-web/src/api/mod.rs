//! The JSON API (docs/web.md): games, moves, offers, records, positions and
//! evaluations. Handlers read the request, call the hub and answer with the game's view;
//! errors are 4xx with `{"error": "..."}`. `games` holds the games and what players do in
//! them, `positions` what is asked of positions and records; here, the extractors whose
//! rejections are the API's JSON errors.

mod accounts;
mod blocks;
mod challenges;
mod explorer;
mod games;
mod limits;
mod mail;
mod pairing;
mod password_reset;
mod players;
mod positions;
mod puzzles;
mod reports;
mod tournaments;
mod vacation;

pub use accounts::*;
pub use blocks::*;
pub use challenges::*;
pub use explorer::*;
pub use games::*;
pub use mail::*;
pub use pairing::*;
pub use password_reset::*;
pub use players::*;
pub use positions::*;
pub use puzzles::*;
pub use reports::*;
pub use tournaments::*;
pub use vacation::*;

use crate::error::{ApiError, ApiResult};
use crate::line::Unknown;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, FromRequestParts, Query, Request};
use axum::Json;

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
            Err(rejection) => Err(ApiError::new(rejection.status(), body_refused(&rejection))),
        }
    }
}

/// Why a JSON body was refused, in the API's words rather than axum's ("Failed to
/// deserialize the JSON body into the target type: ..."), serde's detail kept.
fn body_refused(rejection: &JsonRejection) -> String {
    let text = rejection.body_text();
    let detail = text
        .split_once(": ")
        .map_or(text.as_str(), |(_, detail)| detail);
    match rejection {
        JsonRejection::JsonDataError(_) => format!("the body does not fit the request: {detail}"),
        JsonRejection::JsonSyntaxError(_) => format!("the body is not JSON: {detail}"),
        JsonRejection::MissingJsonContentType(_) => {
            "the body must be JSON, sent with Content-Type: application/json".into()
        }
        _ => text,
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

/// A body's fields that nothing of it named: 422, as serde refuses an unknown field
/// where a body is read whole.
pub fn refuse_unknown(unknown: &Unknown) -> ApiResult<()> {
    unknown
        .refuse()
        .map_err(|e| ApiError::new(axum::http::StatusCode::UNPROCESSABLE_ENTITY, e))
}
