//! The page's files, built into the binary: one HTML page that routes by its path, its
//! script and its style sheet.

use axum::http::header;
use axum::response::{Html, IntoResponse};

const INDEX: &str = include_str!("../page/index.html");
const SCRIPT: &str = include_str!("../page/app.js");
const STYLE: &str = include_str!("../page/style.css");
const ICON: &str = include_str!("../page/icon.svg");

pub async fn index() -> Html<&'static str> {
    Html(INDEX)
}

pub async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        SCRIPT,
    )
}

pub async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE)
}

pub async fn icon() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "image/svg+xml")], ICON)
}
