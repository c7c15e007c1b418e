//! A game as the API writes it: its record, and who made each move.

use super::{id_of, App};
use serde_json::json;

#[tokio::test]
async fn a_games_pgn_has_its_date_and_players() {
    let app = App::new().await;
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

#[tokio::test]
async fn the_view_names_the_seat_that_made_each_move() {
    let app = App::new().await;
    let created = app
        .create(
            json!({"variant": "ambiloa", "black": ["human", "human"], "white": ["human", "human"]}),
        )
        .await;
    let mut game = created["game"].clone();
    for _ in 0..3 {
        let slot = game["to_move_slot"].as_str().unwrap().to_string();
        let mv = game["position"]["moves"][0]["text"].clone();
        game = app
            .ok(
                "POST",
                &format!("/api/games/{}/moves", id_of(&created)),
                Some(json!({"move": mv, "token": created["tokens"][&slot]})),
            )
            .await;
    }
    assert_eq!(game["movers"], json!(["black", "white", "black2"]));
    // Read back from the database, the same.
    let app = app.restart().await;
    let again = app
        .ok("GET", &format!("/api/games/{}", id_of(&created)), None)
        .await;
    assert_eq!(again["movers"], game["movers"]);
}
