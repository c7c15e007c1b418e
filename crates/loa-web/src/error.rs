//! The API's errors: a status and a message, sent as `{"error": "..."}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn not_found() -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "no such game")
    }

    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, message)
    }

    /// The request is well formed but the game is not in a state to take it.
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    /// A stored game that cannot be read back: logged with the cause, answered with the
    /// game's id so that the rest of the site is known to be sound.
    pub fn damaged(id: &str, detail: impl std::fmt::Display) -> ApiError {
        tracing::error!("game {id} is damaged in the database: {detail}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("game {id} is damaged in the database and cannot be opened; other games are not affected"),
        )
    }

    pub fn internal(err: impl std::fmt::Display) -> ApiError {
        tracing::error!("{err}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the server failed; nothing was changed",
        )
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(err: crate::store::StoreError) -> ApiError {
        ApiError::internal(err)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, Json(body)).into_response()
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
