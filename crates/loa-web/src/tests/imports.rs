//! Records imported from other sites and programs: every game read that can be, a bad one
//! named with its move, nothing wrong imported.

use super::App;
use axum::http::StatusCode;
use serde_json::json;

#[tokio::test]
async fn a_bad_game_is_named_and_the_others_count() {
    let app = App::new().await;
    let record = "(;GaMe[9]FF[3]PB[Kok]PW[]C[from an old program];B[B1 B3];W[h7 f7+]C[x])\n\
        (;GM[9]PB[Ann]PW[Bob]EV[Club night];B[b1-b3];W[a2-c2];B[b3-b4])\n\
        (;GM[9];B[c1-c3];W[Resign])";
    let games = app
        .ok("POST", "/api/records", Some(json!({ "record": record })))
        .await;
    let games = games.as_array().unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(games[0]["moves"], json!(["b1-b3", "h7-f7"]));
    assert!(games[0]["white"].is_null(), "an empty PW[] is no name");
    assert!(games[0].get("error").is_none());
    // Game 2: two moves stand, the third is named.
    assert_eq!(games[1]["number"], 2);
    assert_eq!(games[1]["moves"], json!(["b1-b3", "a2-c2"]));
    let error = games[1]["error"].as_str().unwrap();
    assert!(
        error.starts_with("game 2 (") && error.contains("b3-b4"),
        "{error}"
    );
    assert!(error.contains("Ann") && error.contains("move 2"), "{error}");
    assert_eq!(games[2]["result"], "1-0");
    assert_eq!(games[2]["termination"], "resignation");
    // A record with nothing readable is refused, with why.
    let (status, answer) = app
        .call(
            "POST",
            "/api/records",
            Some(json!({"record": "[Event \"x\"]\n\n1. b1-b9 *"})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        answer["error"].as_str().unwrap().contains("b1-b9"),
        "{answer}"
    );
    let (status, _) = app
        .call("POST", "/api/records", Some(json!({"record": "nothing"})))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // A game made from a record with an illegal move is refused, naming it.
    let (status, answer) = app
        .call(
            "POST",
            "/api/games",
            Some(
                json!({"black": "human", "white": "human", "record": "(;GM[9];B[b1-b3];W[b3-b5])"}),
            ),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        answer["error"].as_str().unwrap().contains("b3-b5"),
        "{answer}"
    );
}
