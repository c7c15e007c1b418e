//! An id lets one watch a game; only a seat's token lets one act in it.

use super::{id_of, token, App};
use axum::http::StatusCode;
use serde_json::{json, Value};

fn slots(created: &Value) -> Vec<&str> {
    let mut slots: Vec<&str> = created["tokens"]
        .as_object()
        .expect("tokens for every game")
        .keys()
        .map(String::as_str)
        .collect();
    slots.sort_unstable();
    slots
}

/// A seat's token as text.
fn token_text(created: &Value, slot: &str) -> String {
    token(created, slot)
        .as_str()
        .expect("a seat's token")
        .to_string()
}

#[tokio::test]
async fn every_game_answers_the_tokens_of_the_creators_seats() {
    let app = App::new().await;
    let engine = json!({"engine": {"level": 1}});
    let cases = [
        (json!({"black": "human", "white": engine}), vec!["black"]),
        (json!({"black": engine, "white": "human"}), vec!["white"]),
        (
            json!({"black": "human", "white": "human"}),
            vec!["black", "white"],
        ),
        (
            json!({"black": "human", "white": "human", "online": true}),
            vec!["black", "white"],
        ),
        (
            json!({"variant": "ambiloa", "black": ["human", "human"], "white": ["human", "human"]}),
            vec!["black", "black2", "white", "white2"],
        ),
        (
            json!({"variant": "ambiloa", "black": ["human", engine], "white": "human"}),
            vec!["black", "white"],
        ),
        (json!({"black": engine, "white": engine}), vec![]),
    ];
    for (body, expected) in cases {
        let created = app.create(body.clone()).await;
        assert_eq!(slots(&created), expected, "{body}");
        let tokens: Vec<String> = expected.iter().map(|s| token_text(&created, s)).collect();
        let mut distinct = tokens.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(
            distinct.len(),
            tokens.len(),
            "each seat its own token: {body}"
        );
        for slot in expected {
            let path = format!(
                "/api/games/{}?token={}",
                id_of(&created),
                token_text(&created, slot)
            );
            assert_eq!(app.ok("GET", &path, None).await["you"], slot);
        }
    }
}

/// Every action on a game, with the body it is sent.
fn actions(id: &str, token: Option<&str>) -> Vec<(String, Value)> {
    let with = |mut body: Value| {
        if let Some(token) = token {
            body["token"] = json!(token);
        }
        body
    };
    vec![
        (
            format!("/api/games/{id}/moves"),
            with(json!({"move": "b1-b3"})),
        ),
        (format!("/api/games/{id}/resign"), with(json!({}))),
        (format!("/api/games/{id}/draw"), with(json!({}))),
        (format!("/api/games/{id}/draw/decline"), with(json!({}))),
        (format!("/api/games/{id}/takeback"), with(json!({}))),
        (format!("/api/games/{id}/takeback/decline"), with(json!({}))),
        (format!("/api/games/{id}/join"), with(json!({}))),
    ]
}

#[tokio::test]
async fn no_action_is_taken_without_the_seats_token() {
    let app = App::new().await;
    let other = app
        .create(json!({"black": "human", "white": "human"}))
        .await;
    let stranger = token_text(&other, "black");
    let stranger = stranger.as_str();
    for body in [
        json!({"black": "human", "white": {"engine": {"level": 1}}}),
        json!({"black": "human", "white": "human"}),
        json!({"black": "human", "white": "human", "online": true}),
    ] {
        let created = app.create(body.clone()).await;
        let id = id_of(&created);
        for token in [None, Some(stranger), Some("aaaaaaaaaaaaaaaaaaaa"), Some("")] {
            for (path, request) in actions(id, token) {
                let (status, answer) = app.call("POST", &path, Some(request.clone())).await;
                assert_eq!(
                    status,
                    StatusCode::FORBIDDEN,
                    "{body} {path} {request}: {answer}"
                );
                assert!(answer["error"].is_string(), "{answer}");
            }
        }
        // Watching needs no token, and nothing was changed.
        let game = app.ok("GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(game["ply"], 0, "{body}");
        assert!(game["result"].is_null(), "{body}");
        assert!(game["draw_offer"].is_null(), "{body}");
        assert!(game.get("you").is_none(), "{body}");
    }
}

#[tokio::test]
async fn a_seats_token_acts_for_that_seat_only() {
    let app = App::new().await;
    let created = app
        .create(json!({"black": "human", "white": "human"}))
        .await;
    let id = id_of(&created);
    let (black, white) = (token(&created, "black"), token(&created, "white"));
    let moves = format!("/api/games/{id}/moves");
    // White's token does not move for Black.
    let (status, _) = app
        .call(
            "POST",
            &moves,
            Some(json!({"move": "b1-b3", "token": white})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let game = app
        .ok(
            "POST",
            &moves,
            Some(json!({"move": "b1-b3", "token": black})),
        )
        .await;
    assert_eq!(game["ply"], 1);
    // Nor does Black's token speak for White.
    let (status, answer) = app
        .call(
            "POST",
            &format!("/api/games/{id}/resign"),
            Some(json!({"token": black, "side": "white"})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
    let resigned = app
        .ok(
            "POST",
            &format!("/api/games/{id}/resign"),
            Some(json!({"token": white})),
        )
        .await;
    assert_eq!(resigned["result"]["winner"], "black");
    assert_eq!(resigned["result"]["reason"], "resignation");
}

#[tokio::test]
async fn bad_queries_get_the_apis_json_error() {
    let app = App::new().await;
    let created = app
        .create(json!({"black": "human", "white": "human"}))
        .await;
    let id = id_of(&created);
    for path in [
        "/api/games?limit=-1".to_string(),
        "/api/games?limit=abc".to_string(),
        "/api/games?offset=-5".to_string(),
        "/api/games?limit=99999999999999999999999".to_string(),
        "/api/games?colour=black".to_string(),
        format!("/api/games/{id}?token=a&token=b"),
        format!("/api/games/{id}?player=x"),
        format!("/api/games/{id}/record?format=pgn&x=1"),
    ] {
        let (status, answer) = app.call("GET", &path, None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {answer}");
        assert!(answer["error"].is_string(), "{path}: {answer}");
    }
    // Large but well-formed numbers are fine.
    let list = app
        .ok(
            "GET",
            "/api/games?limit=1000000&offset=18446744073709551615",
            None,
        )
        .await;
    assert_eq!(list, json!([]));
    let list = app.ok("GET", "/api/games?limit=1000000", None).await;
    assert_eq!(list[0]["id"], id);
}

#[tokio::test]
async fn a_damaged_game_is_named_and_the_others_go_on() {
    let app = App::new().await;
    let good = app
        .create(json!({"black": "human", "white": "human"}))
        .await;
    let bad = app
        .create(json!({"black": "human", "white": "human"}))
        .await;
    let worse = app
        .create(json!({"black": "human", "white": "human"}))
        .await;
    app.tamper(&format!(
        "UPDATE games SET start = 'not a position' WHERE id = '{}'",
        id_of(&bad)
    ))
    .await
    .unwrap();
    let mut damaged_games = vec![&bad];
    // SQLite keeps a text in an integer column; PostgreSQL refuses to write it.
    if app
        .tamper(&format!(
            "UPDATE games SET created_at = 'yesterday' WHERE id = '{}'",
            id_of(&worse)
        ))
        .await
        .is_ok()
    {
        damaged_games.push(&worse);
    }
    let app = app.restart().await;
    for damaged in &damaged_games {
        let id = id_of(damaged);
        let (status, answer) = app.call("GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        let message = answer["error"].as_str().unwrap();
        assert!(
            message.contains(id) && message.contains("damaged"),
            "{message}"
        );
    }
    let game = app
        .ok(
            "POST",
            &format!("/api/games/{}/moves", id_of(&good)),
            Some(json!({"move": "b1-b3", "token": token(&good, "black")})),
        )
        .await;
    assert_eq!(game["ply"], 1);
    // The list leaves out the row it cannot read.
    let list = app.ok("GET", "/api/games", None).await;
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&id_of(&good)) && ids.contains(&id_of(&bad)));
    assert_eq!(
        ids.contains(&id_of(&worse)),
        damaged_games.len() == 1,
        "{ids:?}"
    );
}

#[tokio::test]
async fn unknown_fields_are_refused_beside_a_line() {
    let app = App::new().await;
    for (path, body) in [
        (
            "/api/games",
            json!({"black": "human", "white": "human", "colour": "red"}),
        ),
        ("/api/position", json!({"moves": ["b1-b3"], "depth": 3})),
    ] {
        let (status, answer) = app.call("POST", path, Some(body)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{path}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains("unknown field"),
            "{answer}"
        );
    }
    // The same fields, known, are read.
    let described = app
        .ok(
            "POST",
            "/api/position",
            Some(json!({"board": 7, "moves": ["b1-b3"]})),
        )
        .await;
    assert_eq!(described["size"], 7);
    assert_eq!(described["line"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_link_passed_on_does_not_act_for_the_account_that_took_the_seat() {
    use super::accounts::{as_person, sign_up};
    let app = App::new().await;
    let bob = sign_up(&app, "Bob").await;
    let carol = sign_up(&app, "Carol").await;
    let made = app
        .create(json!({"black": "human", "white": "human", "online": true}))
        .await;
    let id = id_of(&made);
    let (black, white) = (token(&made, "black"), token(&made, "white"));
    app.ok(
        "POST",
        &format!("/api/games/{id}/join"),
        Some(json!({"token": black})),
    )
    .await;
    // Bob opens White's link signed in: the seat is his account's.
    let join = format!("/api/games/{id}/join");
    let (status, game) = as_person(&app, &bob, "POST", &join, Some(json!({"token": white}))).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    assert_eq!(game["names"][1], "Bob");
    app.ok(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(json!({"move": "b1-b3", "token": black})),
    )
    .await;
    // Carol, signed in, with the same link: she neither joins nor moves; she watches.
    let (status, answer) =
        as_person(&app, &carol, "POST", &join, Some(json!({"token": white}))).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
    assert_eq!(
        answer["error"],
        "this seat was taken by another player's account: you can watch the game"
    );
    let moves = format!("/api/games/{id}/moves");
    let body = json!({"move": "a2-c2", "token": white});
    let (status, _) = as_person(&app, &carol, "POST", &moves, Some(body.clone())).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let seen = format!("/api/games/{id}?token={}", token_text(&made, "white"));
    let (status, watched) = as_person(&app, &carol, "GET", &seen, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(watched.get("you").is_none(), "{watched}");
    // Bob moves, with his session or the token.
    let (status, moved) = as_person(&app, &bob, "POST", &moves, Some(body)).await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    assert_eq!(moved["ply"], 2);
}
