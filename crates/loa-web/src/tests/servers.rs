//! Two servers on one PostgreSQL database, as behind a load balancer without sticky
//! sessions: a game made on one is played through the other, a watcher on the first sees
//! a move made through the second, and an engine's move is played once. (On SQLite there
//! is one server; these are skipped there.)

use super::{id_of, token, App};
use crate::store::testing::TestDatabase;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// Two servers on a new PostgreSQL database, or `None` where PostgreSQL is not installed.
async fn two_servers() -> Option<(App, App)> {
    let first = App::on(TestDatabase::postgres().await?).await;
    let second = first.beside().await;
    Some((first, second))
}

async fn wait_for_ply(app: &App, id: &str, ply: u64) -> Value {
    let mut game = Value::Null;
    for _ in 0..400 {
        game = app.ok("GET", &format!("/api/games/{id}"), None).await;
        if game["ply"] == ply {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    game
}

#[tokio::test]
async fn a_game_made_on_one_server_is_played_and_watched_through_the_other() {
    let Some((one, other)) = two_servers().await else {
        return;
    };
    let created = one
        .create(json!({"black": "human", "white": "human"}))
        .await;
    let id = id_of(&created);
    // A page watching on the first server.
    let open = one.hub.open(id).await.unwrap();
    let mut watcher = one.hub.watch(&open, None).await;
    let sent = Instant::now();
    let moved = other
        .ok(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(json!({"move": "b1-b3", "token": token(&created, "black")})),
        )
        .await;
    assert_eq!(moved["ply"], 1);
    let seen = tokio::time::timeout(Duration::from_secs(1), watcher.recv())
        .await
        .expect("the watcher on the other server sees the move within a second")
        .unwrap();
    let seen: Value = serde_json::from_str(&seen).unwrap();
    assert_eq!(seen["ply"], 1, "{seen}");
    assert!(sent.elapsed() < Duration::from_secs(1));
    // The first server plays on from the move it was told of, and the second sees it.
    let moved = one
        .ok(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(json!({"move": "a2-c2", "token": token(&created, "white")})),
        )
        .await;
    assert_eq!(moved["ply"], 2);
    // The second server is told within milliseconds.
    let game = wait_for_ply(&other, id, 2).await;
    assert_eq!(game["ply"], 2, "{game}");
    assert_eq!(game["moves"], json!(["b1-b3", "a2-c2"]));
}

#[tokio::test]
async fn a_server_that_missed_a_move_plays_on_from_the_game_as_it_is() {
    let Some((one, other)) = two_servers().await else {
        return;
    };
    let created = one
        .create(json!({"black": "human", "white": "human"}))
        .await;
    let id = id_of(&created);
    // Both hold the game; the first moves, and the second is asked White's reply at
    // once, before it may have been told: it reads the game again rather than refuse.
    other.ok("GET", &format!("/api/games/{id}"), None).await;
    let path = format!("/api/games/{id}/moves");
    one.ok(
        "POST",
        &path,
        Some(json!({"move": "b1-b3", "token": token(&created, "black")})),
    )
    .await;
    let moved = other
        .ok(
            "POST",
            &path,
            Some(json!({"move": "a2-c2", "token": token(&created, "white")})),
        )
        .await;
    assert_eq!(moved["moves"], json!(["b1-b3", "a2-c2"]), "{moved}");
    // A move that is wrong whatever the game is stays refused.
    let (status, answer) = other
        .call(
            "POST",
            &path,
            Some(json!({"move": "a2-c2", "token": token(&created, "white")})),
        )
        .await;
    assert_eq!(status, axum::http::StatusCode::FORBIDDEN, "{answer}");
    let game = wait_for_ply(&one, id, 2).await;
    assert_eq!(game["moves"], json!(["b1-b3", "a2-c2"]), "{game}");
}

#[tokio::test]
async fn against_the_engine_one_move_gets_exactly_one_reply() {
    let Some((one, other)) = two_servers().await else {
        return;
    };
    let created = one
        .create(json!({"black": "human", "white": {"engine": {"level": 1}}}))
        .await;
    let id = id_of(&created);
    // Watched on both servers: each would start the engine.
    let (open_one, open_other) = (
        one.hub.open(id).await.unwrap(),
        other.hub.open(id).await.unwrap(),
    );
    let _watching = (
        one.hub.watch(&open_one, None).await,
        other.hub.watch(&open_other, None).await,
    );
    other
        .ok(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(json!({"move": "b1-b3", "token": token(&created, "black")})),
        )
        .await;
    let game = wait_for_ply(&one, id, 2).await;
    assert_eq!(game["ply"], 2, "{game}");
    // Time for a second reply, were there one.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    for app in [&one, &other] {
        let game = app.ok("GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(game["ply"], 2, "{game}");
        assert_eq!(game["movers"], json!(["black", "white"]));
    }
}
