//! Accounts: signing up, in and out, the cookie, CSRF, the sign-in guard, passwords,
//! deletion and API tokens.

use super::{App, HOST};
use axum::http::StatusCode;
use serde_json::{json, Value};

/// A signed-in person: their session cookie.
pub struct Person {
    pub cookie: String,
}

impl Person {
    pub fn headers(&self) -> Vec<(&str, &str)> {
        vec![
            ("cookie", self.cookie.as_str()),
            ("origin", "http://loa.test"),
        ]
    }
}

pub async fn sign_up(app: &App, name: &str) -> Person {
    let body = json!({"name": name, "password": "a long password"});
    let (status, answer, cookie) = app.send("POST", "/api/accounts", Some(body), &[]).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    Person {
        cookie: cookie.expect("signed in").0,
    }
}

/// A request as a signed-in person, from the site's own page.
pub async fn as_person(
    app: &App,
    person: &Person,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let (status, answer, _) = app.send(method, path, body, &person.headers()).await;
    (status, answer)
}

#[tokio::test]
async fn sign_up_signs_in_with_an_http_only_lax_cookie() {
    let app = App::new().await;
    let body = json!({"name": "Ann", "password": "a long password", "email": "ann@example.org"});
    let (status, me, cookie) = app.send("POST", "/api/accounts", Some(body), &[]).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(me["name"], "Ann");
    let (pair, line) = cookie.unwrap();
    assert!(pair.starts_with("loa_session="));
    assert!(
        line.contains("HttpOnly") && line.contains("SameSite=Lax"),
        "{line}"
    );
    assert!(!line.contains("Secure"), "plain http: {line}");
    let ann = Person { cookie: pair };
    let (status, me) = as_person(&app, &ann, "GET", "/api/me", None).await;
    assert_eq!((status, me["name"].clone()), (StatusCode::OK, json!("Ann")));
    assert_eq!(me["email"], "ann@example.org");
    assert_eq!(
        app.call("GET", "/api/me", None).await.0,
        StatusCode::UNAUTHORIZED
    );
    // Accounts and sessions survive a restart.
    let app = app.restart().await;
    assert_eq!(
        as_person(&app, &ann, "GET", "/api/me", None).await.0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn names_and_passwords_are_checked_and_names_unique_in_any_case() {
    let app = App::new().await;
    sign_up(&app, "Ann").await;
    let post = |name: &str, password: &str| {
        let body = json!({"name": name, "password": password});
        let app = &app;
        async move { app.call("POST", "/api/accounts", Some(body)).await }
    };
    let (status, answer) = post("aNN", "a long password").await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert_eq!(post("Bob", "short").await.0, StatusCode::BAD_REQUEST);
    for bad in [
        "b",
        "<script>",
        "has space",
        "abcdefghijklmnopqrstu",
        "admin",
        "loa-1",
    ] {
        let (status, answer) = post(bad, "a long password").await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {answer}");
    }
    let body = json!({"name": "Bob", "password": "a long password", "email": "not mail"});
    assert_eq!(
        app.call("POST", "/api/accounts", Some(body)).await.0,
        StatusCode::BAD_REQUEST
    );
    let body = json!({"name": "Bob", "password": "a long password", "admin": true});
    assert!(app
        .call("POST", "/api/accounts", Some(body))
        .await
        .0
        .is_client_error());
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_name_answer_the_same() {
    let app = App::new().await;
    sign_up(&app, "Ann").await;
    let sign_in = |name: &str, password: &str| {
        let body = json!({"name": name, "password": password});
        let app = &app;
        async move { app.call("POST", "/api/session", Some(body)).await }
    };
    let wrong = sign_in("Ann", "not the password").await;
    let unknown = sign_in("Nobody", "not the password").await;
    assert_eq!(wrong.0, StatusCode::UNAUTHORIZED);
    assert_eq!(wrong, unknown);
    let (status, me) = sign_in("ANN", "a long password").await;
    assert_eq!((status, me["name"].clone()), (StatusCode::OK, json!("Ann")));
}

#[tokio::test]
async fn ten_failed_sign_ins_in_a_minute_lock_the_name() {
    let app = App::new().await;
    sign_up(&app, "Ann").await;
    sign_up(&app, "Bob").await;
    let sign_in = |name: &str, password: &str| {
        let body = json!({"name": name, "password": password});
        let app = &app;
        async move { app.call("POST", "/api/session", Some(body)).await.0 }
    };
    for _ in 0..10 {
        assert_eq!(
            sign_in("Ann", "guess guess").await,
            StatusCode::UNAUTHORIZED
        );
    }
    // Now even the right password waits; other names do not.
    assert_eq!(
        sign_in("Ann", "a long password").await,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        sign_in("ann", "guess guess").await,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(sign_in("Bob", "a long password").await, StatusCode::OK);
}

/// A sign-in's status, from a browser that sends `cookie` (a device cookie) if any.
async fn sign_in_from(app: &App, name: &str, password: &str, cookie: Option<&str>) -> StatusCode {
    let body = json!({"name": name, "password": password});
    let headers: Vec<(&str, &str)> = cookie.map(|c| ("cookie", c)).into_iter().collect();
    app.send("POST", "/api/session", Some(body), &headers)
        .await
        .0
}

#[tokio::test]
async fn others_wrong_passwords_never_lock_a_person_out_of_their_own_browser() {
    let app = App::new().await;
    let body = json!({"name": "Ann", "password": "a long password"});
    let (status, cookies) = app.cookies_set("POST", "/api/accounts", body).await;
    assert_eq!(status, StatusCode::CREATED);
    // The session's cookie first, then the device's: HttpOnly, Strict, a year.
    assert!(cookies[0].starts_with("loa_session="), "{cookies:?}");
    let device_line = cookies
        .iter()
        .find(|c| c.starts_with("loa_device="))
        .expect("a device cookie");
    for part in ["HttpOnly", "SameSite=Strict", "Max-Age=31536000", "Path=/"] {
        assert!(device_line.contains(part), "{device_line}");
    }
    let device = device_line.split(';').next().unwrap().to_string();
    let sign_in = |password, cookie| sign_in_from(&app, "Ann", password, cookie);
    for _ in 0..10 {
        assert_eq!(sign_in("guess guess", None).await, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(
        sign_in("a long password", None).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // Ann's browser still signs in; a made-up device cookie is a stranger's.
    assert_eq!(
        sign_in(
            "a long password",
            Some("loa_device=madeupmadeupmadeupmadeupmadeup")
        )
        .await,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        sign_in("a long password", Some(&device)).await,
        StatusCode::OK
    );
    // Its own wrong passwords are limited as ever, for it alone.
    for _ in 0..10 {
        assert_eq!(
            sign_in("guess guess", Some(&device)).await,
            StatusCode::UNAUTHORIZED
        );
    }
    assert_eq!(
        sign_in("a long password", Some(&device)).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // A device cookie stands for its account only.
    sign_up(&app, "Bob").await;
    let bob = |password| sign_in_from(&app, "Bob", password, Some(&device));
    for _ in 0..10 {
        assert_eq!(bob("guess guess").await, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(bob("a long password").await, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn a_new_password_forgets_the_browsers_signed_in_before() {
    // Browsers signed in by whoever knew the old password keep no limit of their own.
    let app = App::new().await;
    let body = json!({"name": "Ann", "password": "a long password"});
    let (_, cookies) = app.cookies_set("POST", "/api/accounts", body).await;
    let session = cookies[0].split(';').next().unwrap().to_string();
    let device = cookies[1].split(';').next().unwrap().to_string();
    // Others' guesses lock the name; the password asked again from Ann's own browser is
    // counted for it alone, so she can still change it.
    for _ in 0..10 {
        let status = sign_in_from(&app, "Ann", "guess guess", None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    let change = json!({"current": "a long password", "new": "another long one"});
    let session_only = Person {
        cookie: session.clone(),
    };
    let (status, _) = as_person(
        &app,
        &session_only,
        "POST",
        "/api/me/password",
        Some(change.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    let ann = Person {
        cookie: format!("{session}; {device}"),
    };
    let (status, _) = as_person(&app, &ann, "POST", "/api/me/password", Some(change)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    app.hub.store.clear_sign_in_failures("ann").await.unwrap();
    let sign_in = |password| sign_in_from(&app, "Ann", password, Some(&device));
    for _ in 0..10 {
        assert_eq!(sign_in("guess guess").await, StatusCode::UNAUTHORIZED);
    }
    let body = json!({"name": "Ann", "password": "another long one"});
    assert_eq!(
        app.call("POST", "/api/session", Some(body)).await.0,
        StatusCode::TOO_MANY_REQUESTS
    );
}

#[tokio::test]
async fn a_password_asked_again_is_held_to_the_sign_in_limit() {
    // A session in other hands cannot guess the password it is asked for.
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let change = |current: &str| json!({"current": current, "new": "another long password"});
    for _ in 0..10 {
        let wrong = Some(change("guess guess"));
        let (status, _) = as_person(&app, &ann, "POST", "/api/me/password", wrong).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
    }
    let right = Some(change("a long password"));
    let (status, _) = as_person(&app, &ann, "POST", "/api/me/password", right).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    let body = json!({"name": "Ann", "password": "a long password"});
    let status = app.call("POST", "/api/session", Some(body)).await.0;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn sign_ins_sent_all_at_once_are_held_to_the_limit_too() {
    let app = std::sync::Arc::new(App::new().await);
    sign_up(&app, "Ann").await;
    let tries: Vec<_> = (0..30)
        .map(|_| {
            let app = std::sync::Arc::clone(&app);
            tokio::spawn(async move {
                let body = json!({"name": "Ann", "password": "guess guess"});
                app.call("POST", "/api/session", Some(body)).await.0
            })
        })
        .collect();
    let mut checked = 0;
    for try_ in tries {
        match try_.await.unwrap() {
            StatusCode::UNAUTHORIZED => checked += 1,
            status => assert_eq!(status, StatusCode::TOO_MANY_REQUESTS),
        }
    }
    // No more passwords tried than ten tries one after the other would have.
    assert!(checked <= 10, "{checked} passwords tried");
    let body = json!({"name": "Ann", "password": "a long password"});
    let status = app.call("POST", "/api/session", Some(body)).await.0;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn no_answer_may_be_framed_by_another_site_or_read_as_another_type() {
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;
    let app = App::new().await;
    for path in ["/", "/api/meta", "/no/such/page"] {
        let request = Request::get(path).header("host", HOST).body(Body::empty());
        let response = (app.router.clone().oneshot(request.unwrap()).await).unwrap();
        let headers = response.headers();
        for (name, value) in [
            ("x-frame-options", "DENY"),
            ("content-security-policy", "frame-ancestors 'none'"),
            ("x-content-type-options", "nosniff"),
            ("referrer-policy", "same-origin"),
        ] {
            assert_eq!(
                headers.get(name).map(|v| v.as_bytes()),
                Some(value.as_bytes()),
                "{path} {name}"
            );
        }
    }
}

#[tokio::test]
async fn a_cross_site_request_with_the_session_is_refused() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let body = json!({"label": "bot"});
    let evil = [
        ("cookie", ann.cookie.as_str()),
        ("origin", "http://evil.example"),
    ];
    let (status, answer, _) = app
        .send("POST", "/api/tokens", Some(body.clone()), &evil)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
    // Without an Origin, a browser's cross-site fetch still says so.
    let fetch = [
        ("cookie", ann.cookie.as_str()),
        ("sec-fetch-site", "cross-site"),
    ];
    let (status, _, _) = app
        .send("POST", "/api/tokens", Some(body.clone()), &fetch)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Another cookie of the host with bytes beyond ASCII does not hide the session.
    let cookies = format!("theme=caf\u{e9}; {}", ann.cookie);
    let mixed = [
        ("cookie", cookies.as_str()),
        ("origin", "http://evil.example"),
    ];
    let (status, _, _) = app
        .send("POST", "/api/tokens", Some(body.clone()), &mixed)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Reading is not acting; and the site's own page acts.
    let (status, _, _) = app.send("GET", "/api/me", None, &evil).await;
    assert_eq!(status, StatusCode::OK);
    let own = format!("http://{HOST}");
    let same = [("cookie", ann.cookie.as_str()), ("origin", own.as_str())];
    let (status, _, _) = app.send("POST", "/api/tokens", Some(body), &same).await;
    assert_eq!(status, StatusCode::CREATED);
    // No session, nothing to steal: another site's page may play with a token.
    let game = json!({"black": "human", "white": "human"});
    let (status, _, _) = app
        .send(
            "POST",
            "/api/games",
            Some(game),
            &[("origin", "http://evil.example")],
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
}

#[tokio::test]
async fn signing_out_here_and_everywhere() {
    let app = App::new().await;
    let first = sign_up(&app, "Ann").await;
    as_person(&app, &first, "DELETE", "/api/session", None).await;
    assert_eq!(
        as_person(&app, &first, "GET", "/api/me", None).await.0,
        StatusCode::UNAUTHORIZED
    );
    let sign_in = json!({"name": "Ann", "password": "a long password"});
    let mut people = Vec::new();
    for _ in 0..2 {
        let (_, _, cookie) = app
            .send("POST", "/api/session", Some(sign_in.clone()), &[])
            .await;
        people.push(Person {
            cookie: cookie.unwrap().0,
        });
    }
    let (status, _) = as_person(&app, &people[0], "DELETE", "/api/sessions", None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    for person in &people {
        assert_eq!(
            as_person(&app, person, "GET", "/api/me", None).await.0,
            StatusCode::UNAUTHORIZED
        );
    }
}

#[tokio::test]
async fn a_new_password_ends_the_other_sessions_and_the_tokens() {
    let app = App::new().await;
    let here = sign_up(&app, "Ann").await;
    // A token made by whoever held a session must not outlive the password.
    let label = Some(json!({"label": "made by someone else"}));
    let (_, made) = as_person(&app, &here, "POST", "/api/tokens", label).await;
    let bearer = format!("Bearer {}", made["token"].as_str().unwrap());
    let authorization = [("authorization", bearer.as_str())];
    let by_token = || app.send("GET", "/api/me", None, &authorization);
    assert_eq!(by_token().await.0, StatusCode::OK);
    let body = json!({"name": "Ann", "password": "a long password"});
    let (_, _, cookie) = app.send("POST", "/api/session", Some(body), &[]).await;
    let there = Person {
        cookie: cookie.unwrap().0,
    };
    let wrong = json!({"current": "not it at all", "new": "another long one"});
    let (status, _) = as_person(&app, &here, "POST", "/api/me/password", Some(wrong)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let change = json!({"current": "a long password", "new": "another long one"});
    let (status, _) = as_person(&app, &here, "POST", "/api/me/password", Some(change)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(
        as_person(&app, &here, "GET", "/api/me", None).await.0,
        StatusCode::OK
    );
    assert_eq!(
        as_person(&app, &there, "GET", "/api/me", None).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(by_token().await.0, StatusCode::UNAUTHORIZED);
    let old = json!({"name": "Ann", "password": "a long password"});
    assert_eq!(
        app.call("POST", "/api/session", Some(old)).await.0,
        StatusCode::UNAUTHORIZED
    );
    let new = json!({"name": "Ann", "password": "another long one"});
    assert_eq!(
        app.call("POST", "/api/session", Some(new)).await.0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_deleted_account_keeps_its_games_under_another_name() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let game = json!({"black": "human", "white": {"engine": {"level": 1}}});
    let (status, created) = as_person(&app, &ann, "POST", "/api/games", Some(game)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let (_, mine) = as_person(&app, &ann, "GET", "/api/me/games", None).await;
    assert_eq!(mine.as_array().unwrap().len(), 1);
    let (status, pgn) = as_person(&app, &ann, "GET", "/api/me/games.pgn", None).await;
    assert_eq!(status, StatusCode::OK);
    let pgn = pgn.as_str().unwrap();
    assert!(pgn.contains("[Black \"Ann\"]"), "{pgn}");
    assert_eq!(pgn.matches("[Event ").count(), 1);
    let confirm = json!({"password": "a long password"});
    let (status, _) = as_person(&app, &ann, "DELETE", "/api/me", Some(confirm)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(
        as_person(&app, &ann, "GET", "/api/me", None).await.0,
        StatusCode::UNAUTHORIZED
    );
    let body = json!({"name": "Ann", "password": "a long password"});
    assert_eq!(
        app.call("POST", "/api/session", Some(body)).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.call("GET", "/api/players/Ann", None).await.0,
        StatusCode::NOT_FOUND
    );
    // The game stays, under the account's new name (read back from the database).
    let app = app.restart().await;
    let id = created["id"].as_str().unwrap();
    let game = app.ok("GET", &format!("/api/games/{id}"), None).await;
    let name = game["names"][0].as_str().unwrap();
    assert!(name.starts_with("deleted-"), "{game}");
    assert_eq!(game["names"][1], Value::Null, "the engine's side");
}

#[tokio::test]
async fn a_deleted_account_s_name_leaves_a_game_in_progress_at_once_and_for_good() {
    let app = App::new().await;
    let (ann, bob) = (sign_up(&app, "Ann").await, sign_up(&app, "Bob").await);
    let created = app
        .create(json!({
            "black": "human", "white": "human", "online": true,
            "clock": {"kind": "correspondence", "days": 3}
        }))
        .await;
    let id = super::id_of(&created);
    let path = |action: &str| format!("/api/games/{id}/{action}");
    let tokens = [
        created["tokens"]["black"].clone(),
        created["tokens"]["white"].clone(),
    ];
    for (person, token) in [(&ann, &tokens[0]), (&bob, &tokens[1])] {
        let body = Some(json!({"token": token}));
        assert_eq!(
            as_person(&app, person, "POST", &path("join"), body).await.0,
            StatusCode::OK
        );
    }
    let body = Some(json!({"move": "b1-b3", "token": tokens[0]}));
    assert_eq!(
        as_person(&app, &ann, "POST", &path("moves"), body).await.0,
        StatusCode::OK
    );
    // The game is open in memory, its clock running, when Ann closes her account.
    let confirm = json!({"password": "a long password"});
    let (status, _) = as_person(&app, &ann, "DELETE", "/api/me", Some(confirm)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let view = format!("/api/games/{id}");
    let game = app.ok("GET", &view, None).await;
    let gone = game["names"][0].as_str().unwrap().to_string();
    assert!(gone.starts_with("deleted-"), "{game}");
    // Bob's move writes the game again: not with the old name.
    let body = Some(json!({"move": "a2-c2", "token": tokens[1]}));
    let (status, moved) = as_person(&app, &bob, "POST", &path("moves"), body).await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    let app = app.restart().await;
    let game = app.ok("GET", &view, None).await;
    assert_eq!(game["names"], json!([gone, "Bob"]), "{game}");
    // A new account of the old name has none of the old one's games.
    sign_up(&app, "Ann").await;
    let games = app.ok("GET", "/api/players/Ann/games", None).await;
    assert_eq!(games, json!([]), "{games}");
}

#[tokio::test]
async fn an_api_token_acts_as_its_account_until_revoked() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let (status, made) = as_person(
        &app,
        &ann,
        "POST",
        "/api/tokens",
        Some(json!({"label": "my bot"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let token = made["token"].as_str().unwrap().to_string();
    let bearer = format!("Bearer {token}");
    let (status, me, _) = app
        .send("GET", "/api/me", None, &[("authorization", &bearer)])
        .await;
    assert_eq!((status, me["name"].clone()), (StatusCode::OK, json!("Ann")));
    // A token cannot make tokens, and the list never shows a token.
    let (status, _, _) = app
        .send(
            "POST",
            "/api/tokens",
            Some(json!({"label": "more"})),
            &[("authorization", &bearer)],
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (_, list) = as_person(&app, &ann, "GET", "/api/tokens", None).await;
    assert_eq!(list[0]["label"], "my bot");
    assert!(!list.to_string().contains(&token));
    let id = made["id"].as_i64().unwrap();
    // An id that is no token, or no number, is 404; a method the path does not take,
    // 405: each as the API's JSON.
    for other in ["abc", "99999999999999999999", "-1"] {
        let path = format!("/api/tokens/{other}");
        let (status, answer) = as_person(&app, &ann, "DELETE", &path, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{other}");
        assert_eq!(answer, json!({"error": "no such token"}));
    }
    let path = format!("/api/tokens/{id}");
    let (status, answer, _) = app.send("GET", &path, None, &ann.headers()).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(answer, json!({"error": "method not allowed"}));
    let (status, _) = as_person(&app, &ann, "DELETE", &path, None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _, _) = app
        .send("GET", "/api/me", None, &[("authorization", &bearer)])
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _, _) = app
        .send("GET", "/api/me", None, &[("authorization", "Basic abc")])
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // A revoked token is refused whatever it asks, pages anyone may read too.
    for path in [
        "/api/meta",
        "/api/games",
        "/api/players/Ann",
        "/api/tournaments",
    ] {
        let (status, answer, _) = app
            .send("GET", path, None, &[("authorization", &bearer)])
            .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
        assert_eq!(
            answer,
            json!({"error": "the API token is not valid (revoked, or never made)"}),
            "{path}"
        );
        assert_eq!(
            app.call("GET", path, None).await.0,
            StatusCode::OK,
            "{path}"
        );
    }
}

#[tokio::test]
async fn the_games_waiting_name_the_engine_as_it_plays() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let game = json!({"black": "human", "white": {"engine": {"level": 2}}});
    let (status, created) = as_person(&app, &ann, "POST", "/api/games", Some(game)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let (status, waiting) = as_person(&app, &ann, "GET", "/api/me/waiting", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(waiting[0]["id"], created["id"], "{waiting}");
    assert_eq!(waiting[0]["opponent"], Value::Null, "no account");
    assert_eq!(waiting[0]["against"], "loa level 2");
}
