//! Each endpoint's answer and its errors, driven in-process.

use super::{id_of, token, App};
use axum::http::StatusCode;
use serde_json::{json, Value};

#[tokio::test]
async fn malformed_bodies_get_the_apis_errors() {
    let app = App::new().await;
    let (status, answer) = app
        .call(
            "POST",
            "/api/games",
            Some(json!({"black": "human", "white": 5})),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    assert!(answer["error"].is_string());
    // In the API's words, with serde's detail.
    let (status, answer) = app
        .call("POST", "/api/accounts", Some(json!({"name": "ann"})))
        .await;
    assert_eq!(
        (status, answer["error"].as_str().unwrap()),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            "the body does not fit the request: missing field `password` at line 1 column 14"
        )
    );
    let (status, answer) = app.call("POST", "/api/accounts", None).await;
    assert_eq!(
        (status, answer["error"].as_str().unwrap()),
        (
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the body must be JSON, sent with Content-Type: application/json"
        )
    );
    let big = "x".repeat(1_100_000);
    let (status, answer) = app
        .call("POST", "/api/position", Some(json!({"position": big})))
        .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{answer}");
    let (status, answer) = app.call("GET", "/api/nothing/here", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(answer["error"], "no such page");
    // A browser asking for a page nobody has gets the page (which says "Not found"), with
    // 404; the API's paths answer JSON to it too.
    let html = [("accept", "text/html,application/xhtml+xml,*/*;q=0.8")];
    let (status, page, _) = app.send("GET", "/nowhere", None, &html).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(
        page.as_str().is_some_and(|p| p.contains("<script")),
        "{page}"
    );
    let (status, answer, _) = app.send("GET", "/api/nowhere", None, &html).await;
    assert_eq!(
        (status, &answer["error"]),
        (StatusCode::NOT_FOUND, &json!("no such page"))
    );
    let (status, answer, _) = app.send("POST", "/nowhere", None, &html).await;
    assert_eq!(
        (status, &answer["error"]),
        (StatusCode::NOT_FOUND, &json!("no such page"))
    );
    let (status, _) = app
        .call("GET", "/api/games/aaaaaaaaaaaaaaaaaaaa", None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = app.call("GET", "/api/games/..%2F..%2Fetc", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_draw_is_offered_declined_offered_again_and_agreed() {
    let app = App::new().await;
    let created = app
        .create(json!({"black": "human", "white": "human"}))
        .await;
    let id = id_of(&created);
    let at = |p: &str| format!("/api/games/{id}/{p}");
    let (black, white) = (token(&created, "black"), token(&created, "white"));
    let offered = app
        .ok("POST", &at("draw"), Some(json!({"token": black})))
        .await;
    assert_eq!(offered["draw_offer"], "black");
    let declined = app
        .ok("POST", &at("draw/decline"), Some(json!({"token": white})))
        .await;
    assert!(declined["draw_offer"].is_null());
    app.ok("POST", &at("draw"), Some(json!({"token": white})))
        .await;
    let agreed = app
        .ok("POST", &at("draw"), Some(json!({"token": black})))
        .await;
    assert_eq!(agreed["result"]["reason"], "agreement");
    assert_eq!(agreed["result"]["result"], "1/2-1/2");
    // Nothing more happens in a finished game.
    let (status, answer) = app
        .call(
            "POST",
            &at("moves"),
            Some(json!({"move": "b1-b3", "token": black})),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(answer["error"], "the game is over: agreement");
}

#[tokio::test]
async fn a_takeback_online_is_asked_then_granted() {
    let app = App::new().await;
    let created = app
        .create(json!({"black": "human", "white": "human", "online": true}))
        .await;
    let id = id_of(&created);
    let at = |p: &str| format!("/api/games/{id}/{p}");
    let (black, white) = (token(&created, "black"), token(&created, "white"));
    for t in [&black, &white] {
        app.ok("POST", &at("join"), Some(json!({"token": t}))).await;
    }
    app.ok(
        "POST",
        &at("moves"),
        Some(json!({"move": "b1-b3", "token": black})),
    )
    .await;
    app.ok(
        "POST",
        &at("moves"),
        Some(json!({"move": "a2-c2", "token": white})),
    )
    .await;
    // Black asks: nothing is undone until White grants it.
    let asked = app
        .ok("POST", &at("takeback"), Some(json!({"token": black})))
        .await;
    assert_eq!(asked["takeback_offer"], "black");
    assert_eq!(asked["ply"], 2);
    let granted = app
        .ok("POST", &at("takeback"), Some(json!({"token": white})))
        .await;
    // Back to before Black's move: White's reply goes with it.
    assert_eq!(granted["ply"], 0);
    assert!(granted["takeback_offer"].is_null());
    assert_eq!(granted["to_move_slot"], "black");
}

#[tokio::test]
async fn the_engine_answers_a_move() {
    let app = App::new().await;
    let created = app
        .create(json!({"black": "human", "white": {"engine": {"level": 1}}}))
        .await;
    let id = id_of(&created);
    app.ok(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(json!({"move": "b1-b3", "token": token(&created, "black")})),
    )
    .await;
    let mut game = Value::Null;
    for _ in 0..200 {
        game = app.ok("GET", &format!("/api/games/{id}"), None).await;
        if game["ply"] == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    assert_eq!(game["ply"], 2, "{game}");
    assert_eq!(game["movers"], json!(["black", "white"]));
    assert_eq!(game["to_move_slot"], "black");
}

#[tokio::test]
async fn a_game_of_engines_alone_is_played_while_watched() {
    // Unwatched, it would hold the engine pool for nobody.
    let app = App::new().await;
    let engine = json!({"engine": {"level": 1}});
    let created = app.create(json!({"black": engine, "white": engine})).await;
    let id = id_of(&created);
    let ply = || async { app.ok("GET", &format!("/api/games/{id}"), None).await["ply"].clone() };
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(ply().await, 0);
    let open = app.hub.open(id).await.unwrap();
    let watching = app.hub.watch(&open, None).await;
    let mut played = json!(0);
    for _ in 0..200 {
        played = ply().await;
        if played.as_u64() >= Some(2) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    assert!(played.as_u64() >= Some(2), "{played}");
    // The last watcher gone, it stops.
    app.hub.unwatch(&open, id, None);
    drop(watching);
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let stopped = ply().await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(ply().await, stopped);
}

#[tokio::test]
async fn games_nothing_holds_leave_memory() {
    // Games merely read would otherwise stay in memory for good.
    let app = App::new().await;
    let two = json!({"black": "human", "white": "human"});
    let watched = id_of(&app.create(two.clone()).await).to_string();
    let read = id_of(&app.create(two.clone()).await).to_string();
    let clocked = app
        .create(json!({"black": "human", "white": "human",
                       "clock": {"kind": "live", "initial_s": 300, "increment_s": 0}}))
        .await;
    let clocked_id = id_of(&clocked).to_string();
    app.ok(
        "POST",
        &format!("/api/games/{clocked_id}/moves"),
        Some(json!({"move": "b1-b3", "token": token(&clocked, "black")})),
    )
    .await;
    app.ok("GET", &format!("/api/games/{read}"), None).await;
    // A page's socket holds its game while it watches.
    let open = app.hub.open(&watched).await.unwrap();
    let updates = app.hub.watch(&open, None).await;
    let socket = tokio::spawn(async move {
        let _watching = (open, updates);
        std::future::pending::<()>().await;
    });
    // The watched game and the one whose clock runs stay; the others go.
    assert_eq!(app.hub.forget_idle_games(), 2);
    let mut kept: Vec<_> = app
        .hub
        .open_games()
        .iter()
        .map(|open| open.game.try_lock().unwrap().id.clone())
        .collect();
    kept.sort();
    let mut expected = vec![watched.clone(), clocked_id.clone()];
    expected.sort();
    assert_eq!(kept, expected);
    // A game let go is read again when asked for, as it was.
    let again = app.ok("GET", &format!("/api/games/{read}"), None).await;
    assert_eq!(again["ply"], 0);
    let open = app.hub.open(&watched).await.unwrap();
    app.hub.unwatch(&open, &watched, None);
    drop(open);
    socket.abort();
    let _ = socket.await;
    assert_eq!(app.hub.forget_idle_games(), 1);
}

#[tokio::test]
async fn a_games_record_in_both_formats() {
    let app = App::new().await;
    let created = app
        .create(json!({"black": "human", "white": "human", "moves": ["b1-b3", "a2-c2"]}))
        .await;
    let id = id_of(&created);
    let (status, sgf) = app
        .call("GET", &format!("/api/games/{id}/record?format=sgf"), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    let sgf = sgf.as_str().unwrap();
    assert!(sgf.starts_with("(;") && sgf.contains("b1-b3"), "{sgf}");
    let (status, answer) = app
        .call("GET", &format!("/api/games/{id}/record?format=doc"), None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(answer["error"], "format is pgn or sgf, not 'doc'");
}

#[tokio::test]
async fn positions_are_evaluated_from_blacks_side() {
    let app = App::new().await;
    let start = "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b";
    let won = "8/8/8/3bb3/8/8/8/w6w w";
    let scores = app
        .ok(
            "POST",
            "/api/evaluate",
            Some(json!({"positions": [start, won], "depth": 0})),
        )
        .await;
    assert!(scores[0]["cp"].is_i64(), "{scores}");
    assert_eq!(scores[1]["result"], "1-0");
    for (body, error) in [
        (json!({"positions": [], "depth": 7}), "depth is at most 6"),
        (json!({"positions": ["zz"]}), "position 1"),
        (json!({"positions": [], "variant": "go"}), "go"),
    ] {
        let (status, answer) = app.call("POST", "/api/evaluate", Some(body.clone())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(
            answer["error"].as_str().unwrap().contains(error),
            "{answer}"
        );
    }
    let many = vec![start; 1001];
    let (status, _) = app
        .call(
            "POST",
            "/api/evaluate",
            Some(json!({"positions": many, "depth": 0})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_position_is_described_with_its_moves_and_its_end() {
    let app = App::new().await;
    let view = app.ok("POST", "/api/position", Some(json!({}))).await;
    assert_eq!(view["to_move"], "black");
    assert_eq!(view["moves"].as_array().unwrap().len(), 36);
    let over = app
        .ok(
            "POST",
            "/api/position",
            Some(json!({"position": "8/8/8/3bb3/8/8/8/w6w w"})),
        )
        .await;
    assert_eq!(over["outcome"]["winner"], "black");
    assert_eq!(over["moves"], json!([]));
    let (status, answer) = app
        .call(
            "POST",
            "/api/position",
            Some(json!({"moves": ["b1-b3", "b3-b4"]})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        answer["error"].as_str().unwrap().starts_with("move 2:"),
        "{answer}"
    );
}
