//! The API's errors: a status and a message, sent as `{"error": "..."}`. The domain's
//! refusals (a game's, the hub's) become statuses here and nowhere else.

use crate::game::GameError;
use crate::hub::HubError;
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

    /// 404, saying what was not found ("no such puzzle").
    pub fn not_found(what: &str) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, format!("no such {what}"))
    }

    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, message)
    }

    pub fn internal(err: impl std::fmt::Display) -> ApiError {
        tracing::error!("{err}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the server failed; nothing was changed",
        )
    }
}

impl From<GameError> for ApiError {
    fn from(err: GameError) -> ApiError {
        let status = match err {
            _ if err.is_about_the_caller() => StatusCode::FORBIDDEN,
            GameError::IllegalMove(_) | GameError::BadChat => StatusCode::BAD_REQUEST,
            GameError::ChatTooFast => StatusCode::TOO_MANY_REQUESTS,
            _ => StatusCode::CONFLICT,
        };
        ApiError::new(status, err.to_string())
    }
}

impl From<HubError> for ApiError {
    fn from(err: HubError) -> ApiError {
        match err {
            HubError::NotFound => ApiError::not_found("game"),
            HubError::Damaged { ref id, ref detail } => {
                tracing::error!("game {id} is damaged in the database: {detail}");
                ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, err.to_string())
            }
            HubError::Store(err) => ApiError::internal(err),
            HubError::Game(err) => err.into(),
            HubError::Contended => ApiError::new(StatusCode::SERVICE_UNAVAILABLE, err.to_string()),
        }
    }
}

impl From<crate::director::DirectorError> for ApiError {
    fn from(err: crate::director::DirectorError) -> ApiError {
        use crate::director::DirectorError;
        match err {
            DirectorError::NotFound => ApiError::new(StatusCode::NOT_FOUND, "no such tournament"),
            DirectorError::Refused(message) => ApiError::new(StatusCode::CONFLICT, message),
            DirectorError::Store(err) => err.into(),
            DirectorError::Hub(err) => err.into(),
        }
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

/// Every refusal as `{"error": …}`, those the framework makes too (a path's number that
/// is not one, a method a path does not take): their words, or the status's, kept. A
/// page's 404 (HTML, for a browser) is left as it is.
pub async fn json_errors(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let kind = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if !(status.is_client_error() || status.is_server_error())
        || kind.starts_with("application/json")
        || kind.starts_with("text/html")
    {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 4_096).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let message = match text.trim() {
        "" => status
            .canonical_reason()
            .unwrap_or("refused")
            .to_lowercase(),
        said => said.to_string(),
    };
    let mut answer = ApiError::new(status, message).into_response();
    // What else the refusal said (`Allow` with a 405) stays.
    for (name, value) in &parts.headers {
        if name != axum::http::header::CONTENT_TYPE && name != axum::http::header::CONTENT_LENGTH {
            answer.headers_mut().insert(name.clone(), value.clone());
        }
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use loa_core::Color;

    #[test]
    fn each_refusal_has_its_status() {
        let status = |err: GameError| ApiError::from(err).status;
        assert_eq!(status(GameError::NoToken), StatusCode::FORBIDDEN);
        assert_eq!(status(GameError::NotASeat), StatusCode::FORBIDDEN);
        assert_eq!(status(GameError::AnotherPlayersSeat), StatusCode::FORBIDDEN);
        let wrong = GameError::WrongSide {
            seat: Color::Black,
            asked: Color::White,
        };
        assert_eq!(status(wrong), StatusCode::FORBIDDEN);
        let turn = GameError::NotYourTurn {
            to_move: "white".into(),
        };
        assert_eq!(status(turn), StatusCode::FORBIDDEN);
        assert_eq!(
            status(GameError::IllegalMove("x".into())),
            StatusCode::BAD_REQUEST
        );
        for state in [
            GameError::EngineTurn,
            GameError::Over("time".into()),
            GameError::NotStarted,
            GameError::TimeUp,
            GameError::StalePly { sent: 3, played: 1 },
            GameError::EngineDeclines,
            GameError::NothingToTakeBack,
            GameError::NoTakebackRated,
            GameError::RematchBeforeEnd,
            GameError::TooLateToAbort,
            GameError::TournamentNotAborted,
        ] {
            assert_eq!(status(state), StatusCode::CONFLICT);
        }
        let stale = ApiError::from(GameError::StalePly { sent: 3, played: 1 });
        assert_eq!(
            stale.message,
            "the move was sent for move 3, but 1 move has been played"
        );
        assert_eq!(
            ApiError::from(HubError::NotFound).status,
            StatusCode::NOT_FOUND
        );
    }
}
