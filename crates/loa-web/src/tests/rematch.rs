//! A rematch: the same game from its start with the sides swapped, one for both players.

use super::accounts::{as_person, sign_up, Person};
use super::{id_of, App};
use axum::http::StatusCode;
use serde_json::{json, Value};

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

/// Ann (Black) and `other` (White) play an online correspondence game that White
/// resigns; Ann asks for a rematch. The rematch as Ann sees it, its path, and White's
/// token of the finished game.
async fn rematch_asked_by_ann(app: &App, ann: &Person, other: &Person) -> (Value, String, Value) {
    let created = app
        .create(json!({
            "black": "human", "white": "human", "online": true,
            "clock": {"kind": "correspondence", "days": 3}
        }))
        .await;
    let id = id_of(&created).to_string();
    let game = |action: &str| format!("/api/games/{id}/{action}");
    let tokens = [
        created["tokens"]["black"].clone(),
        created["tokens"]["white"].clone(),
    ];
    for (person, token) in [(ann, &tokens[0]), (other, &tokens[1])] {
        let body = Some(json!({"token": token}));
        let (status, _) = as_person(app, person, "POST", &game("join"), body).await;
        assert_eq!(status, StatusCode::OK);
    }
    let body = Some(json!({"token": tokens[1]}));
    let (status, _) = as_person(app, other, "POST", &game("resign"), body).await;
    assert_eq!(status, StatusCode::OK);
    let body = Some(json!({"token": tokens[0]}));
    let (status, asked) = as_person(app, ann, "POST", &game("rematch"), body).await;
    assert_eq!(status, StatusCode::CREATED, "{asked}");
    (asked, game("rematch"), tokens[1].clone())
}

#[tokio::test]
async fn a_rematch_between_accounts_waits_for_the_other_to_ask_too() {
    let app = App::new().await;
    let (ann, bob) = (sign_up(&app, "Ann").await, sign_up(&app, "Bob").await);
    // Bob is not put in a game on a running clock he did not ask for.
    let (asked, rematch, bob_token) = rematch_asked_by_ann(&app, &ann, &bob).await;
    assert_eq!(asked["game"]["started"], false, "{asked}");
    assert_eq!(asked["game"]["waiting_for"], json!(["black"]));
    // Bob asks too: the same game, begun.
    let body = Some(json!({"token": bob_token}));
    let (status, joined) = as_person(&app, &bob, "POST", &rematch, body).await;
    assert_eq!((status, id_of(&joined)), (StatusCode::OK, id_of(&asked)));
    assert_eq!(joined["game"]["started"], true, "{joined}");
    assert_eq!(joined["game"]["waiting_for"], json!([]));
}

#[tokio::test]
async fn people_signed_in_play_an_online_game_under_their_names() {
    let app = App::new().await;
    let (ann, bob) = (sign_up(&app, "Ann").await, sign_up(&app, "Bob").await);
    let (asked, _, _) = rematch_asked_by_ann(&app, &ann, &bob).await;
    // The rematch, made from the finished game, names them the other way round.
    assert_eq!(asked["game"]["names"], json!(["Bob", "Ann"]), "{asked}");
    // The names were written with the joins: a server started again still has them.
    let app = app.restart().await;
    let (status, mine) = as_person(&app, &ann, "GET", "/api/me/games", None).await;
    assert_eq!(status, StatusCode::OK);
    let finished = mine
        .as_array()
        .and_then(|games| games.iter().find(|g| !g["result"].is_null()))
        .unwrap_or_else(|| panic!("{mine}"))
        .clone();
    let game = app
        .ok("GET", &format!("/api/games/{}", id_of(&finished)), None)
        .await;
    assert_eq!(game["names"], json!(["Ann", "Bob"]), "{game}");
}

#[tokio::test]
async fn a_rematch_with_a_bot_begins_at_once() {
    let app = App::new().await;
    let (ann, robo) = (sign_up(&app, "Ann").await, sign_up(&app, "Robo").await);
    let (status, _) = as_person(&app, &robo, "POST", "/api/me/bot", None).await;
    assert_eq!(status, StatusCode::OK);
    let (asked, _, _) = rematch_asked_by_ann(&app, &ann, &robo).await;
    assert_eq!(asked["game"]["started"], true, "{asked}");
    assert_eq!(asked["game"]["waiting_for"], json!([]));
}
