//! Seeks, challenges, games between accounts, and the ratings they move.

use super::accounts::{as_person, sign_up, Person};
use super::{made_and_refused, App};
use axum::http::StatusCode;
use serde_json::{json, Value};

fn blitz(rated: bool, color: &str) -> Value {
    json!({
        "variant": "standard",
        "rules": "draw",
        "clock": {"kind": "live", "initial_s": 300, "increment_s": 0},
        "rated": rated,
        "color": color,
    })
}

#[tokio::test]
async fn a_seek_is_listed_taken_once_and_its_maker_gets_the_colour() {
    let app = App::new().await;
    let (status, _) = app
        .call("POST", "/api/seeks", Some(blitz(true, "black")))
        .await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "a rated seek needs an account"
    );
    let ann = sign_up(&app, "Ann").await;
    let bob = sign_up(&app, "Bob").await;
    let (status, seek) =
        as_person(&app, &ann, "POST", "/api/seeks", Some(blitz(true, "black"))).await;
    assert_eq!(status, StatusCode::CREATED, "{seek}");
    let id = seek["id"].as_str().unwrap();
    let listed = app.ok("GET", "/api/seeks", None).await;
    assert_eq!(listed[0]["id"], id);
    assert_eq!(listed[0]["name"], "Ann");
    assert_eq!(listed[0]["rating"], 1500);
    let accept = format!("/api/seeks/{id}/accept");
    let (status, _) = as_person(&app, &ann, "POST", &accept, None).await;
    assert!(status.is_client_error(), "one's own seek: {status}");
    assert_eq!(
        app.call("POST", &accept, None).await.0,
        StatusCode::UNAUTHORIZED
    );
    let (status, taken) = as_person(&app, &bob, "POST", &accept, None).await;
    assert_eq!(status, StatusCode::CREATED, "{taken}");
    assert_eq!(taken["color"], "white");
    let game = app
        .ok(
            "GET",
            &format!("/api/games/{}", taken["game"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(game["names"], json!(["Ann", "Bob"]));
    assert_eq!(game["rated"], true);
    assert_eq!(game["started"], true);
    assert_eq!(app.ok("GET", "/api/seeks", None).await, json!([]));
    let (status, _) = as_person(&app, &bob, "POST", &accept, None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        app.ok("GET", &format!("/api/seeks/{id}"), None).await["game"],
        taken["game"]
    );
}

#[tokio::test]
async fn an_anonymous_seek_is_played_with_tokens_and_withdrawn_with_its_token() {
    let app = App::new().await;
    let made = app
        .ok("POST", "/api/seeks", Some(blitz(false, "white")))
        .await;
    let id = made["id"].as_str().unwrap();
    let path = format!("/api/seeks/{id}");
    assert_eq!(
        app.call("DELETE", &path, None).await.0,
        StatusCode::FORBIDDEN
    );
    let withdraw = json!({"token": made["token"]});
    assert_eq!(
        app.call("DELETE", &path, Some(withdraw)).await.0,
        StatusCode::NO_CONTENT
    );
    let (status, made, cookie) = app
        .send("POST", "/api/seeks", Some(blitz(false, "white")), &[])
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let id = made["id"].as_str().unwrap();
    // The maker's browser keeps its seeks in its session: it cannot take its own.
    let maker = [("cookie", cookie.as_ref().unwrap().0.as_str())];
    let (status, _, _) = app
        .send("POST", &format!("/api/seeks/{id}/accept"), None, &maker)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let taken = app
        .ok("POST", &format!("/api/seeks/{id}/accept"), None)
        .await;
    let game = taken["game"].as_str().unwrap();
    assert_eq!(taken["color"], "black");
    let moves = format!("/api/games/{game}/moves");
    // Black (the taker) moves with its token; the maker answers with the seek's token.
    let (status, _) = app
        .call(
            "POST",
            &moves,
            Some(json!({"move": "b1-b3", "token": made["token"]})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "not the maker's turn");
    app.ok(
        "POST",
        &moves,
        Some(json!({"move": "b1-b3", "token": taken["token"]})),
    )
    .await;
    app.ok(
        "POST",
        &moves,
        Some(json!({"move": "a2-c2", "token": made["token"]})),
    )
    .await;
}

/// A rated blitz game between two accounts, Ann Black: its id.
pub(super) async fn rated_game(app: &App, ann: &Person, bob: &Person) -> String {
    let (_, seek) = as_person(app, ann, "POST", "/api/seeks", Some(blitz(true, "black"))).await;
    let accept = format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap());
    let (_, taken) = as_person(app, bob, "POST", &accept, None).await;
    taken["game"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn accounts_act_in_their_games_with_their_sessions_and_nobody_else_does() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let bob = sign_up(&app, "Bob").await;
    let eve = sign_up(&app, "Eve").await;
    let game = rated_game(&app, &ann, &bob).await;
    let moves = format!("/api/games/{game}/moves");
    let b1b3 = || Some(json!({"move": "b1-b3"}));
    assert_eq!(
        as_person(&app, &bob, "POST", &moves, b1b3()).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        as_person(&app, &eve, "POST", &moves, b1b3()).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        app.call("POST", &moves, b1b3()).await.0,
        StatusCode::FORBIDDEN
    );
    let (status, view) = as_person(&app, &ann, "POST", &moves, b1b3()).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    let (_, seen) = as_person(&app, &bob, "GET", &format!("/api/games/{game}"), None).await;
    assert_eq!(seen["you"], "white");
    let resign = format!("/api/games/{game}/resign");
    assert_eq!(
        as_person(&app, &eve, "POST", &resign, None).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        as_person(&app, &bob, "POST", &resign, None).await.0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_rated_game_moves_both_ratings_and_the_profiles_show_them() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let bob = sign_up(&app, "Bob").await;
    let game = rated_game(&app, &ann, &bob).await;
    let (_, ended) = as_person(
        &app,
        &bob,
        "POST",
        &format!("/api/games/{game}/resign"),
        None,
    )
    .await;
    // Two newcomers at 1500 ± 350: Glicko-2 moves each by 162.
    assert_eq!(ended["rating_changes"], json!([162, -162]));
    let app = app.restart().await;
    let profile = app.ok("GET", "/api/players/ann", None).await;
    assert_eq!(profile["name"], "Ann");
    let blitz = &profile["ratings"]["standard"]["blitz"];
    assert_eq!(blitz["rating"], 1662);
    assert_eq!(blitz["games"], 1);
    assert_eq!(blitz["provisional"], true);
    assert_eq!(profile["history"][0]["game"], game.as_str());
    assert_eq!(profile["title"], Value::Null);
    let board = app
        .ok("GET", "/api/leaderboard?variant=standard", None)
        .await;
    let names: Vec<&str> = board
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Ann", "Bob"]);
    assert_eq!(board[1]["rating"], 1338);
    assert_eq!(board[0]["provisional"], true);
    assert_eq!(
        app.ok("GET", "/api/leaderboard?variant=parachute", None)
            .await,
        json!([])
    );
    assert_eq!(
        app.call("GET", "/api/leaderboard?variant=chess", None)
            .await
            .0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        app.call("GET", "/api/players/nobody", None).await.0,
        StatusCode::NOT_FOUND
    );
    let games = app.ok("GET", "/api/players/Bob/games", None).await;
    assert_eq!(games[0]["id"], game.as_str());
    // The profile's filters, from Bob's side: he resigned.
    let ids = |path: &'static str| {
        let app = &app;
        async move {
            let games = app.ok("GET", path, None).await;
            let games = games.as_array().unwrap().clone();
            games
                .iter()
                .map(|g| g["id"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(
        ids("/api/players/bob/games?result=loss").await,
        [game.as_str()]
    );
    assert!(ids("/api/players/bob/games?result=win").await.is_empty());
    assert_eq!(
        ids("/api/players/bob/games?vs=ANN&rated=true&variant=standard").await,
        [game.as_str()]
    );
    assert!(ids("/api/players/bob/games?rated=false").await.is_empty());
    assert!(ids("/api/players/bob/games?variant=parachute")
        .await
        .is_empty());
    for bad in ["result=won", "variant=chess", "rated=maybe"] {
        let path = format!("/api/players/bob/games?{bad}");
        assert_eq!(
            app.call("GET", &path, None).await.0,
            StatusCode::BAD_REQUEST,
            "{bad}"
        );
    }
    assert_eq!(
        app.call("GET", "/api/players/bob/games?vs=nobody", None)
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.ok("GET", "/api/players/ann/opponents", None).await,
        json!([{"name": "Bob", "bot": false, "games": 1, "wins": 1, "losses": 0, "draws": 0}])
    );
}

#[tokio::test]
async fn an_unrated_game_moves_no_rating() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let bob = sign_up(&app, "Bob").await;
    let (_, seek) = as_person(
        &app,
        &ann,
        "POST",
        "/api/seeks",
        Some(blitz(false, "black")),
    )
    .await;
    let accept = format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap());
    let (_, taken) = as_person(&app, &bob, "POST", &accept, None).await;
    let game = taken["game"].as_str().unwrap();
    let (_, ended) = as_person(
        &app,
        &ann,
        "POST",
        &format!("/api/games/{game}/resign"),
        None,
    )
    .await;
    assert_eq!(ended["rating_changes"], Value::Null);
    assert_eq!(
        app.ok("GET", "/api/players/Ann", None).await["ratings"],
        json!({})
    );
}

#[tokio::test]
async fn a_challenge_is_accepted_by_its_player_only() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let bob = sign_up(&app, "Bob").await;
    let eve = sign_up(&app, "Eve").await;
    let mut body = blitz(true, "white");
    body["to"] = json!("bob");
    assert_eq!(
        app.call("POST", "/api/challenges", Some(body.clone()))
            .await
            .0,
        StatusCode::UNAUTHORIZED
    );
    let (status, challenge) =
        as_person(&app, &ann, "POST", "/api/challenges", Some(body.clone())).await;
    assert_eq!(status, StatusCode::CREATED, "{challenge}");
    assert_eq!(
        (challenge["from"].clone(), challenge["to"].clone()),
        (json!("Ann"), json!("Bob"))
    );
    let id = challenge["id"].as_str().unwrap();
    let (_, mine) = as_person(&app, &bob, "GET", "/api/challenges", None).await;
    assert_eq!(mine[0]["id"], id);
    let accept = format!("/api/challenges/{id}/accept");
    assert_eq!(
        as_person(&app, &eve, "POST", &accept, None).await.0,
        StatusCode::FORBIDDEN
    );
    let (status, accepted) = as_person(&app, &bob, "POST", &accept, None).await;
    assert_eq!(status, StatusCode::CREATED, "{accepted}");
    let shown = app.ok("GET", &format!("/api/challenges/{id}"), None).await;
    assert_eq!(shown["status"], "accepted");
    let game = app
        .ok(
            "GET",
            &format!("/api/games/{}", shown["game"].as_str().unwrap()),
            None,
        )
        .await;
    // The challenger plays the colour asked for.
    assert_eq!(game["names"], json!(["Bob", "Ann"]));
    let decline = format!("/api/challenges/{id}/decline");
    assert_eq!(
        as_person(&app, &bob, "POST", &decline, None).await.0,
        StatusCode::CONFLICT
    );
    body["to"] = json!("nobody");
    assert_eq!(
        as_person(&app, &ann, "POST", "/api/challenges", Some(body.clone()))
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    body["to"] = json!("ANN");
    assert_eq!(
        as_person(&app, &ann, "POST", "/api/challenges", Some(body))
            .await
            .0,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn a_declined_challenge_makes_no_game() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let bob = sign_up(&app, "Bob").await;
    let mut body = blitz(false, "random");
    body["to"] = json!("Bob");
    let (_, challenge) = as_person(&app, &ann, "POST", "/api/challenges", Some(body)).await;
    let id = challenge["id"].as_str().unwrap();
    let (status, declined) = as_person(
        &app,
        &bob,
        "POST",
        &format!("/api/challenges/{id}/decline"),
        None,
    )
    .await;
    assert_eq!(
        (status, declined["status"].clone()),
        (StatusCode::OK, json!("declined"))
    );
    let (status, _) = as_person(
        &app,
        &bob,
        "POST",
        &format!("/api/challenges/{id}/accept"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        app.call("GET", "/api/challenges/nonesuch", None).await.0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn challenges_expire_and_a_player_has_at_most_twenty_open() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let bob = sign_up(&app, "Bob").await;
    let mut body = blitz(false, "random");
    body["to"] = json!("Bob");
    let mut ids = Vec::new();
    for _ in 0..20 {
        let (status, sent) =
            as_person(&app, &ann, "POST", "/api/challenges", Some(body.clone())).await;
        assert_eq!(status, StatusCode::CREATED);
        ids.push(sent["id"].as_str().unwrap().to_string());
    }
    let (status, answer) =
        as_person(&app, &ann, "POST", "/api/challenges", Some(body.clone())).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{answer}");
    // An hour later the live challenges have expired: they leave the lists and cannot
    // be accepted, and new ones may be sent.
    app.tamper("UPDATE challenges SET created_at = created_at - 3600001")
        .await
        .unwrap();
    let (_, listed) = as_person(&app, &bob, "GET", "/api/challenges", None).await;
    assert_eq!(listed, json!([]));
    let accept = format!("/api/challenges/{}/accept", ids[0]);
    let (status, answer) = as_person(&app, &bob, "POST", &accept, None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert_eq!(
        app.ok("GET", &format!("/api/challenges/{}", ids[1]), None)
            .await["status"],
        "expired"
    );
    let (status, _) = as_person(&app, &ann, "POST", "/api/challenges", Some(body)).await;
    assert_eq!(status, StatusCode::CREATED);
}

#[tokio::test]
async fn challenges_sent_at_once_stop_at_twenty() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    sign_up(&app, "Bob").await;
    let mut body = blitz(false, "random");
    body["to"] = json!("Bob");
    let send = || async {
        as_person(&app, &ann, "POST", "/api/challenges", Some(body.clone()))
            .await
            .0
    };
    assert_eq!(made_and_refused((0..40).map(|_| send())).await, (20, 20));
}

#[tokio::test]
async fn one_person_cannot_fill_the_lobby() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    // Made two hours ago: 80 live seeks long gone, then 5 correspondence ones still
    // open (which the gone ones must not hide from the count).
    let ann_id = account_id(&app, "ann").await;
    let two_hours_ago = crate::clock::now_ms() - 2 * crate::clock::HOUR;
    for i in 0..85 {
        let clock = if i >= 80 {
            json!({"kind": "correspondence", "days": 3})
        } else {
            json!({"kind": "live", "initial_s": 180, "increment_s": 2})
        };
        let seek = crate::store::SeekRow {
            id: crate::ids::random_name(),
            account: Some(ann_id),
            name: None,
            token: crate::ids::random_name(),
            variant: "standard".into(),
            rules: "draw".into(),
            time_control: clock.to_string(),
            rated: true,
            color: "black".into(),
            created_at: two_hours_ago + i,
            game_id: None,
        };
        // Kept behind the server's back, past any limit.
        let room = crate::store::SeekRoom {
            live_since: 0,
            correspondence_since: 0,
            of_owner: i64::MAX,
            of_network: i64::MAX,
        };
        assert!(app.hub.store.insert_seek(&seek, None, &room).await.unwrap());
    }
    // The lobby lists the open ones only.
    let listed = app.ok("GET", "/api/seeks", None).await;
    assert_eq!(listed.as_array().unwrap().len(), 5, "{listed}");
    let mut made = Vec::new();
    for _ in 0..15 {
        let (status, seek) =
            as_person(&app, &ann, "POST", "/api/seeks", Some(blitz(true, "black"))).await;
        assert_eq!(status, StatusCode::CREATED, "{seek}");
        made.push(seek["id"].as_str().unwrap().to_string());
    }
    let (status, refused) =
        as_person(&app, &ann, "POST", "/api/seeks", Some(blitz(true, "black"))).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{refused}");
    assert_eq!(
        refused["error"],
        "you have 20 open seeks: withdraw one first"
    );
    // Others still seek; one withdrawn makes room.
    let bob = sign_up(&app, "Bob").await;
    let (status, _) = as_person(&app, &bob, "POST", "/api/seeks", Some(blitz(true, "white"))).await;
    assert_eq!(status, StatusCode::CREATED);
    let gone = format!("/api/seeks/{}", made[0]);
    assert_eq!(
        as_person(&app, &ann, "DELETE", &gone, None).await.0,
        StatusCode::NO_CONTENT
    );
    let (status, _) = as_person(&app, &ann, "POST", "/api/seeks", Some(blitz(true, "black"))).await;
    assert_eq!(status, StatusCode::CREATED);
    // People not signed in have a hundred together.
    for _ in 0..100 {
        let (status, _) = app
            .call("POST", "/api/seeks", Some(blitz(false, "white")))
            .await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let (status, refused) = app
        .call("POST", "/api/seeks", Some(blitz(false, "white")))
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{refused}");
    let (status, _) = as_person(
        &app,
        &bob,
        "POST",
        "/api/seeks",
        Some(blitz(false, "black")),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
}

#[tokio::test]
async fn a_rated_game_against_a_level_rates_the_level_as_a_bot() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let game = json!({
        "black": "human",
        "white": {"engine": {"level": 3}},
        "clock": {"kind": "live", "initial_s": 600, "increment_s": 5},
        "rated": true,
    });
    assert_eq!(
        app.call("POST", "/api/games", Some(game.clone())).await.0,
        StatusCode::UNAUTHORIZED
    );
    let mut untimed = game.clone();
    untimed["clock"] = Value::Null;
    let (status, _) = as_person(&app, &ann, "POST", "/api/games", Some(untimed)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, created) = as_person(&app, &ann, "POST", "/api/games", Some(game)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["game"]["names"], json!(["Ann", "loa-level-3"]));
    let id = created["id"].as_str().unwrap();
    // No takebacks: a rating is not won by taking moves back.
    let first = Some(json!({"move": "b1-b3", "ply": 0}));
    let (status, _) = as_person(&app, &ann, "POST", &format!("/api/games/{id}/moves"), first).await;
    assert_eq!(status, StatusCode::OK);
    let (status, refused) = as_person(
        &app,
        &ann,
        "POST",
        &format!("/api/games/{id}/takeback"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert_eq!(
        refused["error"],
        "a rated game against the engine has no takebacks"
    );
    let (_, ended) = as_person(&app, &ann, "POST", &format!("/api/games/{id}/resign"), None).await;
    assert_eq!(ended["rating_changes"], json!([-162, 162]));
    let bot = app.ok("GET", "/api/players/loa-level-3", None).await;
    assert_eq!(bot["bot"], true);
    assert_eq!(bot["ratings"]["standard"]["rapid"]["rating"], 1662);
    // Nobody signs in as a level.
    let body = json!({"name": "loa-level-3", "password": ""});
    assert_eq!(
        app.call("POST", "/api/session", Some(body)).await.0,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn the_players_chat_and_the_watchers_read_it() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let bob = sign_up(&app, "Bob").await;
    let eve = sign_up(&app, "Eve").await;
    let game = rated_game(&app, &ann, &bob).await;
    let chat = format!("/api/games/{game}/chat");
    let line = |text: &str| Some(json!({"text": text}));
    let (status, view) = as_person(&app, &ann, "POST", &chat, line("<b>good luck</b>")).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(
        as_person(&app, &eve, "POST", &chat, line("hi")).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        app.call("POST", &chat, line("hi")).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        as_person(&app, &ann, "POST", &chat, line("again")).await.0,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        as_person(&app, &bob, "POST", &chat, line("")).await.0,
        StatusCode::BAD_REQUEST
    );
    let app = app.restart().await;
    let seen = app.ok("GET", &format!("/api/games/{game}"), None).await;
    // Kept as typed: the page shows it as text.
    assert_eq!(
        seen["chat"],
        json!([{"at": seen["chat"][0]["at"], "slot": "black", "name": "Ann", "text": "<b>good luck</b>"}])
    );
}

#[tokio::test]
async fn quick_pairing_waits_with_a_seek_then_pairs_the_next_person() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let bob = sign_up(&app, "Bob").await;
    let tile = blitz(true, "random");
    let (status, waiting) = as_person(&app, &ann, "POST", "/api/pairing", Some(tile.clone())).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{waiting}");
    // Ann again (another tab, the page come back to): her own seek is not taken, and she
    // goes on waiting with it, not with a second one.
    let (status, again) = as_person(&app, &ann, "POST", "/api/pairing", Some(tile.clone())).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(
        (&again["id"], &again["token"]),
        (&waiting["id"], &waiting["token"])
    );
    assert_eq!(
        app.ok("GET", "/api/seeks", None)
            .await
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // Another clock does not match.
    let mut other = tile.clone();
    other["clock"]["initial_s"] = json!(600);
    let (status, _) = as_person(&app, &bob, "POST", "/api/pairing", Some(other)).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let (status, paired) = as_person(&app, &bob, "POST", "/api/pairing", Some(tile.clone())).await;
    assert_eq!(status, StatusCode::CREATED, "{paired}");
    let game = app
        .ok(
            "GET",
            &format!("/api/games/{}", paired["game"].as_str().unwrap()),
            None,
        )
        .await;
    let mut names: Vec<String> = serde_json::from_value(game["names"].clone()).unwrap();
    names.sort();
    assert_eq!(names, ["Ann", "Bob"]);
    // The seek taken is Ann's first.
    assert_eq!(
        app.ok(
            "GET",
            &format!("/api/seeks/{}", waiting["id"].as_str().unwrap()),
            None
        )
        .await["game"],
        paired["game"]
    );
    assert_eq!(
        app.call("POST", "/api/pairing", Some(tile)).await.0,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn two_rated_games_ending_at_once_both_count() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let bob = sign_up(&app, "Bob").await;
    let cy = sign_up(&app, "Cy").await;
    let with_bob = rated_game(&app, &ann, &bob).await;
    let with_cy = rated_game(&app, &ann, &cy).await;
    let (bob_resigns, cy_resigns) = (
        format!("/api/games/{with_bob}/resign"),
        format!("/api/games/{with_cy}/resign"),
    );
    let (a, b) = tokio::join!(
        as_person(&app, &bob, "POST", &bob_resigns, None),
        as_person(&app, &cy, "POST", &cy_resigns, None),
    );
    assert_eq!((a.0, b.0), (StatusCode::OK, StatusCode::OK));
    // Each ending read the rating the other wrote: two games, not one counted twice.
    let profile = app.ok("GET", "/api/players/ann", None).await;
    assert_eq!(
        profile["ratings"]["standard"]["blitz"]["games"], 2,
        "{profile}"
    );
    assert_eq!(profile["history"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn one_client_keeps_ten_seeks_without_an_account_open_at_most() {
    let app = App::new().await;
    let app = &app;
    let seek_from = |client: &'static str| async move {
        let header = [("x-real-ip", client)];
        let headers: &[(&str, &str)] = if client.is_empty() { &[] } else { &header };
        app.send("POST", "/api/seeks", Some(blitz(false, "random")), headers)
            .await
    };
    let mut made = Vec::new();
    for _ in 0..10 {
        let (status, seek, _) = seek_from("203.0.113.7").await;
        assert_eq!(status, StatusCode::CREATED);
        made.push(seek);
    }
    let (status, answer, _) = seek_from("203.0.113.7").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{answer}");
    assert!(answer["error"]
        .as_str()
        .unwrap()
        .contains("from your network"));
    // Quick pairing makes its seek under the same limit.
    let (status, _, _) = app
        .send(
            "POST",
            "/api/pairing",
            Some(json!({"variant": "standard", "rules": "mover-wins",
                        "clock": {"kind": "live", "initial_s": 60, "increment_s": 0},
                        "rated": false})),
            &[("x-real-ip", "203.0.113.7")],
        )
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    // Another client's seeks, and those of a client not known, are not held back.
    assert_eq!(seek_from("198.51.100.1").await.0, StatusCode::CREATED);
    assert_eq!(seek_from("").await.0, StatusCode::CREATED);
    let listed = app.ok("GET", "/api/seeks", None).await;
    assert_eq!(listed.as_array().unwrap().len(), 12);
    // A seek withdrawn gives its place back.
    let first = &made[0];
    let path = format!("/api/seeks/{}", first["id"].as_str().unwrap());
    let (status, _) = app
        .call("DELETE", &path, Some(json!({"token": first["token"]})))
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(seek_from("203.0.113.7").await.0, StatusCode::CREATED);
}

#[tokio::test]
async fn seeks_sent_at_once_from_one_client_stop_at_the_limit() {
    let app = App::new().await;
    let app = &app;
    let seek = || async move {
        app.send(
            "POST",
            "/api/seeks",
            Some(blitz(false, "random")),
            &[("x-real-ip", "203.0.113.9")],
        )
        .await
        .0
    };
    // Thirty at once: each counts the open seeks while the others are being made.
    assert_eq!(made_and_refused((0..30).map(|_| seek())).await, (10, 20));
    let listed = app.ok("GET", "/api/seeks", None).await;
    assert_eq!(listed.as_array().unwrap().len(), 10);
}

/// A signed-up account's id, by its name's key.
pub(super) async fn account_id(app: &App, key: &str) -> i64 {
    app.hub
        .store
        .account_by_key(key)
        .await
        .unwrap()
        .unwrap()
        .0
        .id
}

#[tokio::test]
async fn a_challenges_players_hear_of_each_change_and_of_their_games() {
    use crate::account_news::News;
    use tokio::sync::broadcast::error::TryRecvError;
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let bob = sign_up(&app, "Bob").await;
    let _eve = sign_up(&app, "Eve").await;
    let mut heard = Vec::new();
    for key in ["ann", "bob", "eve"] {
        heard.push(app.hub.account_news.follow(account_id(&app, key).await));
    }
    let mut news = |who: usize| {
        let mut got = Vec::new();
        loop {
            match heard[who].try_recv() {
                Ok(news) => got.push(news),
                Err(TryRecvError::Empty) => return got,
                Err(other) => panic!("{other}"),
            }
        }
    };
    let mut body = blitz(false, "black");
    body["to"] = json!("Bob");
    let (_, first) = as_person(&app, &ann, "POST", "/api/challenges", Some(body.clone())).await;
    assert_eq!(news(0), [News::Challenges]);
    assert_eq!(news(1), [News::Challenges]);
    let id = first["id"].as_str().unwrap();
    as_person(
        &app,
        &ann,
        "POST",
        &format!("/api/challenges/{id}/decline"),
        None,
    )
    .await;
    assert_eq!(
        (news(0), news(1)),
        (vec![News::Challenges], vec![News::Challenges])
    );
    let (_, second) = as_person(&app, &ann, "POST", "/api/challenges", Some(body)).await;
    news(0);
    news(1);
    let id = second["id"].as_str().unwrap();
    let (_, accepted) = as_person(
        &app,
        &bob,
        "POST",
        &format!("/api/challenges/{id}/accept"),
        None,
    )
    .await;
    // The game began (its players' waiting games changed), then the challenge closed.
    assert_eq!(news(0), [News::Waiting, News::Challenges]);
    assert_eq!(news(1), [News::Waiting, News::Challenges]);
    let game = accepted["game"].as_str().unwrap();
    as_person(
        &app,
        &ann,
        "POST",
        &format!("/api/games/{game}/moves"),
        Some(json!({"move": "b1-b3"})),
    )
    .await;
    assert_eq!(
        (news(0), news(1)),
        (vec![News::Waiting], vec![News::Waiting])
    );
    // Someone else's challenges and games tell them nothing.
    assert_eq!(news(2), []);
    as_person(&app, &bob, "DELETE", "/api/sessions", None).await;
    assert_eq!((news(0), news(1)), (vec![], vec![News::SignedOut]));
}
