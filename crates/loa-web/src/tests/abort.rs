//! A game called off before both sides have moved: by a player only, with no result, no
//! rating moved and no place in anyone's wins, losses or draws.

use super::accounts::{as_person, sign_up};
use super::pairing::rated_game;
use super::App;
use axum::http::StatusCode;
use serde_json::{json, Value};

#[tokio::test]
async fn a_rated_game_aborted_before_a_move_counts_for_nothing() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let bob = sign_up(&app, "Bob").await;
    let eve = sign_up(&app, "Eve").await;
    let game = rated_game(&app, &ann, &bob).await;
    let abort = format!("/api/games/{game}/abort");
    // Watchers and strangers do not abort a game.
    assert_eq!(
        app.call("POST", &abort, None).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        as_person(&app, &eve, "POST", &abort, None).await.0,
        StatusCode::FORBIDDEN
    );
    // White, who has not moved, aborts before Black's first move.
    let (status, ended) = as_person(&app, &bob, "POST", &abort, None).await;
    assert_eq!(status, StatusCode::OK, "{ended}");
    assert_eq!(ended["result"], json!({"result": "*", "reason": "aborted"}));
    assert_eq!(ended["rating_changes"], Value::Null);
    assert_eq!(ended["clock"]["running"], Value::Null);
    assert_eq!(ended["position"]["moves"], json!([]));
    // Over: no move, no resignation, no second abort.
    for action in ["abort", "resign"] {
        let path = format!("/api/games/{game}/{action}");
        let (status, refused) = as_person(&app, &ann, "POST", &path, None).await;
        assert_eq!(status, StatusCode::CONFLICT, "{action}");
        assert_eq!(refused["error"], "the game is over: aborted");
    }
    // No rating, and neither a win, a loss nor a draw for anyone; listed, as aborted.
    let app = app.restart().await;
    assert_eq!(
        app.ok("GET", "/api/players/Ann", None).await["ratings"],
        json!({})
    );
    assert_eq!(
        app.ok("GET", "/api/players/ann/opponents", None).await,
        json!([])
    );
    for result in ["win", "loss", "draw", "playing"] {
        let path = format!("/api/players/ann/games?result={result}");
        assert_eq!(app.ok("GET", &path, None).await, json!([]), "{result}");
    }
    let listed = app.ok("GET", "/api/players/ann/games", None).await;
    assert_eq!(listed[0]["id"], game.as_str());
    assert_eq!(listed[0]["result"], "*");
    assert_eq!(listed[0]["reason"], "aborted");
    let view = app.ok("GET", &format!("/api/games/{game}"), None).await;
    assert_eq!(view["result"]["result"], "*");
    let (status, pgn, _) = app
        .send(
            "GET",
            &format!("/api/games/{game}/record?format=pgn"),
            None,
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let pgn = pgn.as_str().unwrap();
    assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
    assert!(pgn.contains("[Termination \"aborted\"]"), "{pgn}");
}

#[tokio::test]
async fn a_game_is_aborted_until_both_sides_have_moved() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let bob = sign_up(&app, "Bob").await;
    let moves = |game: &str| format!("/api/games/{game}/moves");
    let abort = |game: &str| format!("/api/games/{game}/abort");
    // After Black's first move, either player may still abort.
    let game = rated_game(&app, &ann, &bob).await;
    let body = Some(json!({"move": "b1-b3"}));
    let (status, moved) = as_person(&app, &ann, "POST", &moves(&game), body).await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    let (status, ended) = as_person(&app, &ann, "POST", &abort(&game), None).await;
    assert_eq!(status, StatusCode::OK, "{ended}");
    assert_eq!(ended["result"]["reason"], "aborted");
    assert_eq!(ended["rating_changes"], Value::Null);
    // Once both have moved, the game is resigned, not aborted, and rated. Until then
    // the view says by when the side to move must move, or the game is called off.
    let game = rated_game(&app, &ann, &bob).await;
    let now = crate::clock::now_ms();
    let view = app.ok("GET", &format!("/api/games/{game}"), None).await;
    let by = view["first_move_by"]
        .as_i64()
        .expect("a first move awaited");
    assert!((now..=now + 60_000).contains(&by), "{by} from {now}");
    for (who, mv) in [(&ann, "b1-b3"), (&bob, "a2-c2")] {
        let body = Some(json!({ "move": mv }));
        let (status, moved) = as_person(&app, who, "POST", &moves(&game), body).await;
        assert_eq!(status, StatusCode::OK, "{moved}");
        let awaited = moved.get("first_move_by").is_some();
        assert_eq!(awaited, mv == "b1-b3", "{moved}");
    }
    for who in [&ann, &bob] {
        let (status, refused) = as_person(&app, who, "POST", &abort(&game), None).await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(
            refused["error"],
            "a game is aborted only before both sides have moved: resign instead"
        );
    }
    let resign = format!("/api/games/{game}/resign");
    let (status, ended) = as_person(&app, &bob, "POST", &resign, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(ended["rating_changes"], json!([162, -162]));
    assert_eq!(
        app.ok("GET", "/api/players/ann/opponents", None).await,
        json!([{"name": "Bob", "bot": false, "games": 1, "wins": 1, "losses": 0, "draws": 0}])
    );
}

#[tokio::test]
async fn a_game_by_link_is_aborted_with_a_seat_s_token() {
    let app = App::new().await;
    let made = app
        .create(json!({"black": "human", "white": "human", "online": true}))
        .await;
    let id = super::id_of(&made);
    let abort = format!("/api/games/{id}/abort");
    let (status, _) = app
        .call("POST", &abort, Some(json!({"token": "not-a-seat"})))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Before the other player has even opened their link.
    let body = json!({"token": super::token(&made, "white")});
    let (status, ended) = app.call("POST", &abort, Some(body)).await;
    assert_eq!(status, StatusCode::OK, "{ended}");
    assert_eq!(ended["result"]["reason"], "aborted");
}

#[tokio::test]
async fn a_game_whose_invited_player_never_comes_is_called_off_in_time() {
    let app = App::new().await;
    let invite =
        |clock: Value| json!({"black": "human", "white": "human", "online": true, "clock": clock});
    let live = app
        .create(invite(
            json!({"kind": "live", "initial_s": 300, "increment_s": 3}),
        ))
        .await;
    let by_mail = app
        .create(invite(json!({"kind": "correspondence", "days": 3})))
        .await;
    let joined = app
        .create(invite(
            json!({"kind": "live", "initial_s": 300, "increment_s": 3}),
        ))
        .await;
    let joined_id = super::id_of(&joined);
    for side in ["black", "white"] {
        let body = json!({"token": super::token(&joined, side)});
        app.ok("POST", &format!("/api/games/{joined_id}/join"), Some(body))
            .await;
    }
    // Nothing has run out yet.
    assert_eq!(app.hub.expire_invitations().await.unwrap(), 0);
    // Two hours on: the live game's invitation (an hour) has run out, the correspondence
    // one's (two weeks) has not, and a game begun waits for nobody.
    let two_hours_ago = crate::clock::now_ms() - 2 * crate::clock::HOUR;
    app.tamper(&format!("UPDATE games SET created_at = {two_hours_ago}"))
        .await
        .unwrap();
    let app = app.restart().await;
    assert_eq!(app.hub.expire_invitations().await.unwrap(), 1);
    let result = |game: Value| game["result"].clone();
    let id = super::id_of(&live);
    assert_eq!(
        result(app.ok("GET", &format!("/api/games/{id}"), None).await),
        json!({"result": "*", "reason": "aborted"})
    );
    let id = super::id_of(&by_mail);
    assert_eq!(
        result(app.ok("GET", &format!("/api/games/{id}"), None).await),
        Value::Null
    );
    assert_eq!(
        result(
            app.ok("GET", &format!("/api/games/{joined_id}"), None)
                .await
        ),
        Value::Null
    );
    // Called off for good: read back from the database after another restart.
    let app = app.restart().await;
    let id = super::id_of(&live);
    assert_eq!(
        app.ok("GET", &format!("/api/games/{id}"), None).await["result"]["reason"],
        "aborted"
    );
    assert_eq!(app.hub.expire_invitations().await.unwrap(), 0);
}
