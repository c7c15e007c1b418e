//! A game's record as the API writes it.

use super::{id_of, App};
use serde_json::json;

#[tokio::test]
async fn a_games_pgn_has_its_date_and_players() {
    let app = App::new();
    let created = app
        .create(json!({"black": "human", "white": {"engine": {"level": 3}}}))
        .await;
    let (status, pgn) = app
        .call(
            "GET",
            &format!("/api/games/{}/record?format=pgn", id_of(&created)),
            None,
        )
        .await;
    assert!(status.is_success());
    let pgn = pgn.as_str().unwrap();
    let today = chrono::Utc::now().format("%Y.%m.%d").to_string();
    assert!(pgn.contains(&format!("[Date \"{today}\"]")), "{pgn}");
    assert!(pgn.contains("[Black \"Anonymous\"]"), "{pgn}");
    assert!(pgn.contains("[White \"loa level 3\"]"), "{pgn}");
    let four = app
        .create(json!({
            "variant": "ambiloa", "black": ["human", {"engine": {"level": 2}}], "white": ["human", "human"]
        }))
        .await;
    let (_, pgn) = app
        .call(
            "GET",
            &format!("/api/games/{}/record?format=pgn", id_of(&four)),
            None,
        )
        .await;
    let pgn = pgn.as_str().unwrap();
    assert!(pgn.contains("[Black \"Anonymous & loa level 2\"]"), "{pgn}");
    assert!(pgn.contains("[White \"Anonymous & Anonymous\"]"), "{pgn}");
}
