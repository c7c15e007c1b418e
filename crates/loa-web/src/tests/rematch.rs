//! A rematch: the same game from its start with the sides swapped, one for both players.

use super::{id_of, App};
use axum::http::StatusCode;
use serde_json::json;

#[tokio::test]
async fn a_rematch_swaps_the_sides_and_is_one_game_for_both_players() {
    let app = App::new().await;
    let created = app
        .create(json!({
            "black": "human", "white": "human", "online": true,
            "clock": {"kind": "correspondence", "days": 3}
        }))
        .await;
    let id = id_of(&created);
    let black = created["tokens"]["black"].clone();
    let white = created["tokens"]["white"].clone();
    let rematch = format!("/api/games/{id}/rematch");
    for token in [&black, &white] {
        app.ok(
            "POST",
            &format!("/api/games/{id}/join"),
            Some(json!({"token": token})),
        )
        .await;
    }
    // Not while the game goes on; never without a seat's token.
    let (status, _) = app
        .call("POST", &rematch, Some(json!({"token": black})))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    app.ok(
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(json!({"token": white})),
    )
    .await;
    let (status, _) = app.call("POST", &rematch, Some(json!({}))).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Black asks: a new game in which Black's person plays White.
    let (status, asked) = app
        .call("POST", &rematch, Some(json!({"token": black})))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{asked}");
    let next = id_of(&asked).to_string();
    assert_ne!(next, id);
    assert_eq!(asked["tokens"].as_object().unwrap().len(), 1);
    let now_white = asked["tokens"]["white"].clone();
    assert!(now_white.is_string());
    assert_eq!(asked["game"]["online"], true);
    assert_eq!(asked["game"]["clock"]["control"]["days"], 3);
    // The finished game points to it, and White's person gets Black's seat of the same
    // game.
    let old = app.ok("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(old["rematch"], next.as_str());
    let (status, joined) = app
        .call("POST", &rematch, Some(json!({"token": white})))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(id_of(&joined), next);
    let now_black = joined["tokens"]["black"].clone();
    assert!(now_black.is_string() && now_black != now_white);
    let seat = app
        .ok(
            "GET",
            &format!("/api/games/{next}?token={}", now_black.as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(seat["you"], "black");
}

#[tokio::test]
async fn against_the_engine_the_person_takes_the_other_colour() {
    let app = App::new().await;
    let created = app
        .create(json!({"black": "human", "white": {"engine": {"level": 1}}, "board": 6}))
        .await;
    let id = id_of(&created);
    let token = created["tokens"]["black"].clone();
    app.ok(
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(json!({"token": token})),
    )
    .await;
    let asked = app
        .ok(
            "POST",
            &format!("/api/games/{id}/rematch"),
            Some(json!({"token": token})),
        )
        .await;
    assert_eq!(asked["game"]["players"]["black"]["engine"]["level"], 1);
    assert_eq!(asked["game"]["players"]["white"], "human");
    assert_eq!(asked["game"]["position"]["size"], 6);
    assert_eq!(
        asked["tokens"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["white"]
    );
}

#[tokio::test]
async fn a_rematch_between_accounts_waits_for_the_other_to_ask_too() {
    use super::accounts::{as_person, sign_up};
    let app = App::new().await;
    let (ann, bob) = (sign_up(&app, "Ann").await, sign_up(&app, "Bob").await);
    let created = app
        .create(json!({
            "black": "human", "white": "human", "online": true,
            "clock": {"kind": "correspondence", "days": 3}
        }))
        .await;
    let id = id_of(&created).to_string();
    let game = |action: &str| format!("/api/games/{id}/{action}");
    let (ann_token, bob_token) = (
        created["tokens"]["black"].clone(),
        created["tokens"]["white"].clone(),
    );
    for (person, token) in [(&ann, &ann_token), (&bob, &bob_token)] {
        let (status, _) = as_person(
            &app,
            person,
            "POST",
            &game("join"),
            Some(json!({"token": token})),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
    let (status, _) = as_person(
        &app,
        &bob,
        "POST",
        &game("resign"),
        Some(json!({"token": bob_token})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // Ann asks: Bob is not put in a game on a running clock he did not ask for.
    let (status, asked) = as_person(
        &app,
        &ann,
        "POST",
        &game("rematch"),
        Some(json!({"token": ann_token})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{asked}");
    let next = id_of(&asked).to_string();
    assert_eq!(asked["game"]["started"], false, "{asked}");
    assert_eq!(asked["game"]["waiting_for"], json!(["black"]));
    // Bob asks too: the same game, begun.
    let (status, joined) = as_person(
        &app,
        &bob,
        "POST",
        &game("rematch"),
        Some(json!({"token": bob_token})),
    )
    .await;
    assert_eq!((status, id_of(&joined)), (StatusCode::OK, next.as_str()));
    assert_eq!(joined["game"]["started"], true, "{joined}");
    assert_eq!(joined["game"]["waiting_for"], json!([]));
}
