//! The page's files, built into the binary: one HTML page that routes by its path, its
//! script (`app.js`, the router) and the modules under `page/js/` it imports, one a
//! concern, and its style sheet.

use crate::error::ApiError;
use axum::extract::Path;
use axum::http::{header, HeaderMap, Method, StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};

const INDEX: &str = include_str!("../page/index.html");
const SCRIPT: &str = include_str!("../page/app.js");
const STYLE: &str = include_str!("../page/style.css");
const ICON: &str = include_str!("../page/icon.svg");
/// The ES modules `app.js` imports, served at `/js/{name}`.
const MODULES: &[(&str, &str)] = &[
    (
        "account-socket.js",
        include_str!("../page/js/account-socket.js"),
    ),
    ("account.js", include_str!("../page/js/account.js")),
    (
        "analysis-board.js",
        include_str!("../page/js/analysis-board.js"),
    ),
    ("analysis.js", include_str!("../page/js/analysis.js")),
    ("api.js", include_str!("../page/js/api.js")),
    ("blocks.js", include_str!("../page/js/blocks.js")),
    ("board.js", include_str!("../page/js/board.js")),
    ("challenges.js", include_str!("../page/js/challenges.js")),
    ("chart.js", include_str!("../page/js/chart.js")),
    ("chat.js", include_str!("../page/js/chat.js")),
    ("dom.js", include_str!("../page/js/dom.js")),
    ("format.js", include_str!("../page/js/format.js")),
    (
        "game-players.js",
        include_str!("../page/js/game-players.js"),
    ),
    ("explorer.js", include_str!("../page/js/explorer.js")),
    ("game.js", include_str!("../page/js/game.js")),
    ("header.js", include_str!("../page/js/header.js")),
    ("home.js", include_str!("../page/js/home.js")),
    ("lobby.js", include_str!("../page/js/lobby.js")),
    ("my-seeks.js", include_str!("../page/js/my-seeks.js")),
    ("navigate.js", include_str!("../page/js/navigate.js")),
    ("new-game.js", include_str!("../page/js/new-game.js")),
    ("notify.js", include_str!("../page/js/notify.js")),
    (
        "password-reset.js",
        include_str!("../page/js/password-reset.js"),
    ),
    ("players.js", include_str!("../page/js/players.js")),
    ("playing.js", include_str!("../page/js/playing.js")),
    ("profile.js", include_str!("../page/js/profile.js")),
    ("puzzle.js", include_str!("../page/js/puzzle.js")),
    ("rules.js", include_str!("../page/js/rules.js")),
    ("report.js", include_str!("../page/js/report.js")),
    ("screen.js", include_str!("../page/js/screen.js")),
    ("seats.js", include_str!("../page/js/seats.js")),
    ("session.js", include_str!("../page/js/session.js")),
    ("terms-form.js", include_str!("../page/js/terms-form.js")),
    ("tournament.js", include_str!("../page/js/tournament.js")),
    ("tournaments.js", include_str!("../page/js/tournaments.js")),
    ("tree.js", include_str!("../page/js/tree.js")),
    ("types.js", include_str!("../page/js/types.js")),
    ("unsubscribe.js", include_str!("../page/js/unsubscribe.js")),
    ("waiting.js", include_str!("../page/js/waiting.js")),
];

pub async fn index() -> Html<&'static str> {
    Html(INDEX)
}

/// What answers a path nothing else does: for a browser asking for a page, the page with
/// 404 (it says "Not found" in the site's own frame); for anything else, the API's error.
pub async fn not_found(method: Method, uri: Uri, headers: HeaderMap) -> Response {
    let wants_page = method == Method::GET
        && !uri.path().starts_with("/api/")
        && headers
            .get(header::ACCEPT)
            .and_then(|accept| accept.to_str().ok())
            .is_some_and(|accept| accept.contains("text/html"));
    if wants_page {
        (StatusCode::NOT_FOUND, Html(INDEX)).into_response()
    } else {
        ApiError::new(StatusCode::NOT_FOUND, "no such page").into_response()
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// The paths a page file imports from: `import ... from 'PATH';`.
    fn imports(text: &str) -> Vec<&str> {
        text.lines()
            .filter(|line| line.starts_with("import ") || line.starts_with("} from "))
            .filter_map(|line| line.split(" from '").nth(1)?.split('\'').next())
            .collect()
    }

    /// The served module a path names, seen from a file at `/` (`app.js`: `./js/X.js`) or
    /// at `/js/` (a module: `./X.js`); `None` for any other path.
    fn served_module(path: &str, from_root: bool) -> Option<&'static str> {
        let prefix = if from_root { "./js/" } else { "./" };
        let name = path.strip_prefix(prefix)?;
        MODULES
            .iter()
            .map(|(file, _)| *file)
            .find(|file| *file == name)
    }

    #[test]
    fn imports_are_read_from_import_lines_only() {
        let text = "import { h } from './dom.js';\nconst x = 'from \\'a\\'';\nimport {\n  a,\n} from './api.js';\n";
        assert_eq!(imports(text), ["./dom.js", "./api.js"]);
    }

    #[test]
    fn a_module_is_named_by_its_path_from_where_it_is_imported() {
        assert_eq!(served_module("./js/dom.js", true), Some("dom.js"));
        assert_eq!(served_module("./dom.js", false), Some("dom.js"));
        assert_eq!(served_module("./dom.js", true), None);
        assert_eq!(served_module("./js/dom.js", false), None);
        assert_eq!(served_module("./missing.js", false), None);
    }

    #[test]
    fn every_module_imported_is_served() {
        let files = std::iter::once(("app.js", SCRIPT, true))
            .chain(MODULES.iter().map(|(name, text)| (*name, *text, false)));
        for (file, text, from_root) in files {
            for path in imports(text) {
                assert!(
                    served_module(path, from_root).is_some(),
                    "{file} imports {path}, which page.rs does not serve there"
                );
            }
        }
    }

    #[test]
    fn every_module_on_disk_is_served() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("page/js");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .filter(|name| name.ends_with(".js"))
            .collect();
        on_disk.sort();
        let mut served: Vec<&str> = MODULES.iter().map(|(name, _)| *name).collect();
        served.sort();
        assert_eq!(on_disk, served);
    }
}
