//! The page's files, built into the binary: one HTML page that routes by its path, its
//! script and the modules it imports, and its style sheet.

use crate::error::ApiError;
use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse};

const INDEX: &str = include_str!("../page/index.html");
const SCRIPT: &str = include_str!("../page/app.js");
const STYLE: &str = include_str!("../page/style.css");
const ICON: &str = include_str!("../page/icon.svg");
/// The ES modules `app.js` imports, served at `/js/{name}`.
const MODULES: &[(&str, &str)] = &[
    ("notify.js", include_str!("../page/notify.js")),
    ("seats.js", include_str!("../page/seats.js")),
    ("tree.js", include_str!("../page/tree.js")),
];

pub async fn index() -> Html<&'static str> {
    Html(INDEX)
}

pub async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        SCRIPT,
    )
}

pub async fn module(Path(name): Path<String>) -> Result<impl IntoResponse, ApiError> {
    let (_, text) = MODULES
        .iter()
        .find(|(file, _)| *file == name)
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "no such page"))?;
    Ok((
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        *text,
    ))
}

pub async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE)
}

pub async fn icon() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "image/svg+xml")], ICON)
}
