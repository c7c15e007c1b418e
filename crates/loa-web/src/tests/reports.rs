//! Game reports: queued when a game ends, made in the background, given by the API and
//! written into the game's record.

use super::accounts::{as_person, sign_up};
use super::{id_of, App};
use axum::http::StatusCode;
use serde_json::{json, Value};
use std::time::Duration;

/// A game between two people at one board, `plies` moves played, then resigned by the
/// side to move.
async fn finished_game(app: &App, plies: usize) -> String {
    let created = app
        .create(json!({"black": "human", "white": "human"}))
        .await;
    let id = id_of(&created).to_string();
    let mut game = created["game"].clone();
    for _ in 0..plies {
        let slot = game["to_move_slot"].as_str().unwrap().to_string();
        let mv = game["position"]["moves"][0]["text"].clone();
        game = app
            .ok(
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(json!({"move": mv, "token": created["tokens"][&slot]})),
            )
            .await;
    }
    let slot = game["to_move_slot"].as_str().unwrap().to_string();
    app.ok(
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(json!({"token": created["tokens"][&slot]})),
    )
    .await;
    id
}

async fn report(app: &App, id: &str) -> Value {
    app.ok("GET", &format!("/api/games/{id}/report"), None)
        .await
}

#[tokio::test]
async fn a_finished_game_is_reported_on_in_the_background() {
    let app = App::new().await;
    let id = finished_game(&app, 4).await;
    // Queued with the game's end; made once a worker runs.
    assert_eq!(
        report(&app, &id).await,
        json!({"state": "queued", "ahead": 0})
    );
    crate::reports::start_workers(&app.hub, 1, 20_000);
    let mut answer = Value::Null;
    for _ in 0..600 {
        answer = report(&app, &id).await;
        if answer["state"] == "ready" {
            break;
        }
        let state = answer["state"].as_str().unwrap();
        assert!(state == "queued" || state == "running", "{answer}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(answer["state"], "ready", "{answer}");
    let report = &answer["report"];
    assert_eq!(report["nodes"], 20_000);
    assert_eq!(report["positions"].as_array().unwrap().len(), 5);
    let moves = report["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    assert_eq!(moves[0]["side"], "black");
    assert_eq!(moves[1]["side"], "white");
    for (ply, judged) in moves.iter().enumerate() {
        assert_eq!(judged["ply"], ply);
        assert!(judged["comment"].as_str().unwrap().starts_with("[%eval "));
        let black = report["positions"][ply]["black"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&black));
    }
    for side in ["black", "white"] {
        let accuracy = report["accuracy"][side].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&accuracy), "{report}");
        assert!(report["blunders"][side].is_u64());
    }
    // The game's record carries the report's comments.
    let (_, pgn) = app
        .call("GET", &format!("/api/games/{id}/record?format=pgn"), None)
        .await;
    assert_eq!(pgn.as_str().unwrap().matches("[%eval ").count(), 4, "{pgn}");
    let (_, sgf) = app
        .call("GET", &format!("/api/games/{id}/record?format=sgf"), None)
        .await;
    assert_eq!(
        sgf.as_str().unwrap().matches("C[[%eval ").count(),
        4,
        "{sgf}"
    );
}

#[tokio::test]
async fn asking_for_a_report_needs_a_player_and_a_finished_game() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    // Too short to be reported on by itself: asked for.
    let short = finished_game(&app, 1).await;
    assert_eq!(report(&app, &short).await, json!({"state": "none"}));
    let path = format!("/api/games/{short}/report");
    let (status, _) = app.call("POST", &path, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, answer) = as_person(&app, &ann, "POST", &path, None).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{answer}");
    assert_eq!(answer, json!({"state": "queued", "ahead": 0}));
    let (status, _) = as_person(&app, &ann, "POST", &path, None).await;
    assert_eq!(status, StatusCode::OK, "asked twice, queued once");
    // A game in play has no report yet.
    let playing = app
        .create(json!({"black": "human", "white": "human"}))
        .await;
    let path = format!("/api/games/{}/report", id_of(&playing));
    let (status, answer) = as_person(&app, &ann, "POST", &path, None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert_eq!(
        report(&app, id_of(&playing)).await,
        json!({"state": "none"})
    );
    // No such game.
    let (status, _) = app.call("GET", "/api/games/nosuchgame/report", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = as_person(&app, &ann, "POST", "/api/games/nosuchgame/report", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_damaged_game_fails_its_report_once_and_says_why() {
    let app = App::new().await;
    let id = finished_game(&app, 4).await;
    app.tamper(&format!(
        "UPDATE games SET start = 'not a position' WHERE id = '{id}'"
    ))
    .await
    .unwrap();
    crate::reports::start_workers(&app.hub, 1, 20_000);
    let mut answer = Value::Null;
    for _ in 0..300 {
        answer = report(&app, &id).await;
        if answer["state"] == "failed" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(answer["state"], "failed", "{answer}");
    assert!(!answer["error"].as_str().unwrap().is_empty(), "{answer}");
}
