//! Correspondence time: a time bank, and a vacation that stops a player's clocks.

use super::accounts::{as_person, sign_up, Person};
use super::App;
use axum::http::StatusCode;
use serde_json::{json, Value};

const DAY_MS: i64 = 24 * 3600 * 1000;

/// A correspondence game between two new accounts, Ann (Black) and Bob: its id.
async fn game(app: &App, clock: Value) -> (Person, Person, String) {
    let ann = sign_up(app, "Ann").await;
    let bob = sign_up(app, "Bob").await;
    let seek = json!({"variant": "standard", "rules": "draw", "rated": false,
        "color": "black", "clock": clock});
    let (status, made) = as_person(app, &ann, "POST", "/api/seeks", Some(seek)).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let accept = format!("/api/seeks/{}/accept", made["id"].as_str().unwrap());
    let (status, taken) = as_person(app, &bob, "POST", &accept, None).await;
    assert_eq!(status, StatusCode::CREATED, "{taken}");
    (ann, bob, taken["game"].as_str().unwrap().to_string())
}

async fn play_first(app: &App, person: &Person, id: &str) -> Value {
    let game = app.ok("GET", &format!("/api/games/{id}"), None).await;
    let mv = game["position"]["moves"][0]["text"].clone();
    let path = format!("/api/games/{id}/moves");
    let (status, after) = as_person(app, person, "POST", &path, Some(json!({"move": mv}))).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    after
}

#[tokio::test]
async fn a_time_bank_starts_full_and_each_move_adds_its_days() {
    let app = App::new().await;
    let clock = json!({"kind": "correspondence", "days": 1, "bank_days": 10});
    let (ann, _bob, id) = game(&app, clock.clone()).await;
    let after = play_first(&app, &ann, &id).await;
    assert_eq!(after["clock"]["control"], clock);
    // Black's bank was full: the move's day cannot raise it above 10 days.
    assert_eq!(after["clock"]["black_ms"], 10 * DAY_MS);
    assert_eq!(after["clock"]["running"], "white");
    let (status, refused) = app
        .call(
            "POST",
            "/api/games",
            Some(json!({"black": "human", "white": "human",
                "clock": {"kind": "correspondence", "days": 3, "bank_days": 2}})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    assert!(refused["error"]
        .as_str()
        .unwrap()
        .contains("bank_days is from days (3)"));
}

#[tokio::test]
async fn a_vacation_stops_the_clock_of_the_player_to_move_until_it_ends() {
    let app = App::new().await;
    let (ann, bob, id) = game(&app, json!({"kind": "correspondence", "days": 3})).await;
    let view = as_person(&app, &bob, "GET", "/api/me/vacation", None)
        .await
        .1;
    assert_eq!(
        view,
        json!({"until": null, "days_left": 30, "days_a_year": 30})
    );

    // Bob goes away for 5 days before Ann moves: her move leaves his clock standing.
    let (status, on) = as_person(
        &app,
        &bob,
        "POST",
        "/api/me/vacation",
        Some(json!({"days": 5})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{on}");
    assert_eq!(on["days_left"], 25);
    let until = on["until"].as_i64().unwrap();
    let after = play_first(&app, &ann, &id).await;
    assert_eq!(after["clock"]["running"], Value::Null);
    assert_eq!(after["clock"]["resumes_at"], until);
    assert_eq!(after["clock"]["white_ms"], 3 * DAY_MS);
    let (status, _) = as_person(
        &app,
        &bob,
        "POST",
        "/api/me/vacation",
        Some(json!({"days": 1})),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "one at a time");

    // Back at once: his time runs again, and the 4 days not begun come back.
    let (status, back) = as_person(&app, &bob, "DELETE", "/api/me/vacation", None).await;
    assert_eq!(status, StatusCode::OK, "{back}");
    assert_eq!(back["days_left"], 29);
    assert_eq!(back["until"], Value::Null);
    let game = app.ok("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(game["clock"]["running"], "white");
    assert_eq!(game["clock"]["resumes_at"], Value::Null);

    // Too long a vacation, or none, is refused with why.
    for days in [0, 30] {
        let (status, refused) = as_person(
            &app,
            &bob,
            "POST",
            "/api/me/vacation",
            Some(json!({"days": days})),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
        assert!(
            refused["error"]
                .as_str()
                .unwrap()
                .contains("from 1 to 29 days"),
            "{refused}"
        );
    }
    assert_eq!(
        app.call("GET", "/api/me/vacation", None).await.0,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn the_move_e_mail_of_a_player_on_vacation_says_when_the_clock_runs() {
    let app = super::mail::mailing_app().await;
    let ann = sign_up(&app, "Ann").await;
    let bob = super::mail::verified(&app, "Bob").await;
    let seek = json!({"variant": "standard", "rules": "draw", "rated": false,
        "color": "black", "clock": {"kind": "correspondence", "days": 3}});
    let (_, made) = as_person(&app, &ann, "POST", "/api/seeks", Some(seek)).await;
    let accept = format!("/api/seeks/{}/accept", made["id"].as_str().unwrap());
    let (status, taken) = as_person(&app, &bob, "POST", &accept, None).await;
    assert_eq!(status, StatusCode::CREATED, "{taken}");
    let id = taken["game"].as_str().unwrap();
    let days = Some(json!({"days": 5}));
    let (status, _) = as_person(&app, &bob, "POST", "/api/me/vacation", days).await;
    assert_eq!(status, StatusCode::OK);
    play_first(&app, &ann, id).await;
    let letters = super::mail::queued(&app).await;
    assert_eq!(letters.len(), 1, "{letters:#?}");
    assert_eq!(letters[0].to, "bob@example.org");
    assert!(
        letters[0].body.contains(
            "Your vacation holds this game's clock for 5 days more; after it, you\nhave 3 days for this move."
        ),
        "{}",
        letters[0].body
    );
}
