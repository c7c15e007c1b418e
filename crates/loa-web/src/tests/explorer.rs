//! The opening explorer through the API: a rated game counted once, by source and band.

use super::accounts::{as_person, sign_up};
use super::pairing::rated_game;
use super::App;
use axum::http::StatusCode;
use serde_json::{json, Value};

async fn explore(app: &App, body: Value) -> Value {
    app.ok("POST", "/api/explorer", Some(body)).await
}

#[tokio::test]
async fn a_rated_game_is_counted_once_in_its_band() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let bob = sign_up(&app, "Bob").await;
    let game = rated_game(&app, &ann, &bob).await;
    let moves = format!("/api/games/{game}/moves");
    as_person(&app, &ann, "POST", &moves, Some(json!({"move": "b1-b3"}))).await;
    as_person(&app, &bob, "POST", &moves, Some(json!({"move": "a2-c2"}))).await;
    // Not counted while it is played.
    assert_eq!(
        crate::explorer::count_ended_games(&app.hub).await.unwrap(),
        0
    );
    let resign = format!("/api/games/{game}/resign");
    let (status, _) = as_person(&app, &bob, "POST", &resign, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        crate::explorer::count_ended_games(&app.hub).await.unwrap(),
        1
    );
    assert_eq!(
        crate::explorer::count_ended_games(&app.hub).await.unwrap(),
        0
    );
    let start = explore(&app, json!({"verdicts": false})).await;
    assert_eq!(
        start,
        json!({
            "position": "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b", "to_move": "black",
            "games": 1,
            "moves": [{"move": "b1-b3", "games": 1, "black_wins": 1, "white_wins": 0, "draws": 0}]
        })
    );
    let after = explore(&app, json!({"moves": ["b1-b3"], "verdicts": false})).await;
    assert_eq!(after["moves"][0]["move"], "a2-c2");
    // Two newcomers after one game: both near 1500, in the 1400 band.
    let band = |bands: Value, source: Value| {
        let app = &app;
        async move {
            explore(
                app,
                json!({"bands": bands, "source": source, "verdicts": false}),
            )
            .await["games"]
                .clone()
        }
    };
    assert_eq!(band(json!([1400]), json!("rated")).await, 1);
    assert_eq!(band(json!([1600]), json!(null)).await, 0);
    assert_eq!(band(json!([]), json!("archive")).await, 0);
}

#[tokio::test]
async fn the_engine_and_the_solver_speak_of_the_position() {
    let app = App::new().await;
    // White connects at once with h2-f4 after g5xc5 e8-f8: a win the solver proves.
    let answer = explore(
        &app,
        json!({"position": "4b3/5w2/2w1wwb1/2b1www1/3w4/8/7w/8 w"}),
    )
    .await;
    assert_eq!(answer["games"], 0);
    assert_eq!(answer["proved_win"], "white");
    assert!(answer["winning_move"].is_string(), "{answer}");
    assert!(
        answer["engine"]["eval"].as_str().unwrap().starts_with("#-"),
        "{answer}"
    );
}

#[tokio::test]
async fn bad_questions_are_refused() {
    let app = App::new().await;
    for (body, status) in [
        (json!({"bands": [1550]}), StatusCode::BAD_REQUEST),
        (json!({"source": "mine"}), StatusCode::BAD_REQUEST),
        (json!({"moves": ["a1-a9"]}), StatusCode::BAD_REQUEST),
        (json!({"colour": "red"}), StatusCode::UNPROCESSABLE_ENTITY),
    ] {
        let (got, answer) = app.call("POST", "/api/explorer", Some(body.clone())).await;
        assert_eq!(got, status, "{body}: {answer}");
        assert!(answer["error"].is_string());
    }
}
