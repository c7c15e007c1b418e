//! A forgotten password: the link mailed to a verified address alone, the same answer
//! whatever the address, the new password set with it (every other way in closed), the
//! link once and for an hour, and the limits. The e-mails are read from the outbox, as
//! in `mail.rs`.

use super::accounts::{as_person, Person};
use super::mail::{mailing_app, outbox, queued, verified};
use super::App;
use crate::mail::Letter;
use axum::http::StatusCode;
use serde_json::{json, Value};

const ASK: &str = "/api/password-reset";

/// A reset asked for `email` from a client at `client`.
async fn ask(app: &App, email: &str, client: &str) -> (StatusCode, Value) {
    let body = json!({ "email": email });
    let (status, answer, _) = app
        .send("POST", ASK, Some(body), &[("x-real-ip", client)])
        .await;
    (status, answer)
}

/// The link's secret in a reset e-mail.
fn secret_in(letter: &Letter) -> String {
    let link = letter
        .body
        .split_whitespace()
        .find(|w| w.starts_with("http://loa.test/password-reset/"))
        .unwrap_or_else(|| panic!("no reset link in:\n{}", letter.body));
    link.rsplit('/').next().unwrap().to_string()
}

/// A reset asked for `name`'s address: its link's secret.
async fn link_for(app: &App, name: &str) -> String {
    let email = format!("{}@example.org", name.to_lowercase());
    assert_eq!(
        ask(app, &email, "203.0.113.1").await.0,
        StatusCode::ACCEPTED
    );
    let letters = queued(app).await;
    assert_eq!(letters.len(), 1, "{letters:#?}");
    secret_in(&letters[0])
}

async fn sign_in(app: &App, password: &str) -> StatusCode {
    let body = json!({"name": "Ann", "password": password});
    app.call("POST", "/api/session", Some(body)).await.0
}

#[tokio::test]
async fn a_link_mailed_to_a_verified_address_sets_the_password_and_signs_in_there_alone() {
    let app = mailing_app().await;
    let here = verified(&app, "Ann").await;
    let (_, made) = as_person(
        &app,
        &here,
        "POST",
        "/api/tokens",
        Some(json!({"label": "bot"})),
    )
    .await;
    let bearer = format!("Bearer {}", made["token"].as_str().unwrap());
    let authorization = [("authorization", bearer.as_str())];
    let by_token = || app.send("GET", "/api/me", None, &authorization);
    assert_eq!(by_token().await.0, StatusCode::OK);

    // The address in another case, with spaces around: the same address.
    let (status, answer) = ask(&app, " ANN@Example.org ", "203.0.113.1").await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(
        answer["message"],
        "if an account has this verified address, a link to reset its password is on its way"
    );
    let letters = queued(&app).await;
    assert_eq!(letters.len(), 1, "{letters:#?}");
    let letter = &letters[0];
    assert_eq!(letter.to, "ann@example.org");
    assert_eq!(letter.subject, "Reset your loa password");
    assert!(letter.body.starts_with("Hello Ann,"), "{}", letter.body);
    assert!(
        letter
            .body
            .contains("If you did not ask for this, ignore this e-mail: nothing has changed"),
        "{}",
        letter.body
    );
    assert_eq!((&letter.reply_to, &letter.unsubscribe), (&None, &None));
    let secret = secret_in(letter);

    // The link's page, and what it says of the link.
    let (status, page, _) = app
        .send("GET", &format!("/password-reset/{secret}"), None, &[])
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.as_str().is_some_and(|html| html.contains("<html")));
    let path = format!("/api/password-reset/{secret}");
    assert_eq!(app.ok("GET", &path, None).await, json!({"name": "Ann"}));

    // A short password is refused, and the link still works.
    let (status, refused) = app
        .call("POST", &path, Some(json!({"password": "short"})))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(refused["error"], "a password has at least 8 characters");
    let new = json!({"password": "a brand new password"});
    let (status, me, cookie) = app.send("POST", &path, Some(new.clone()), &[]).await;
    assert_eq!(status, StatusCode::OK, "{me}");
    assert_eq!(me["name"], "Ann");
    // Signed in here; every other session and every token ended.
    let there = Person {
        cookie: cookie.expect("signed in").0,
    };
    assert_eq!(
        as_person(&app, &there, "GET", "/api/me", None).await.0,
        StatusCode::OK
    );
    assert_eq!(
        as_person(&app, &here, "GET", "/api/me", None).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(by_token().await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(
        sign_in(&app, "a long password").await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(sign_in(&app, "a brand new password").await, StatusCode::OK);
    // The address hears of the new password, as of one changed on the account page.
    let letters = outbox(&app).await;
    assert_eq!(letters.len(), 1, "{letters:#?}");
    assert_eq!(letters[0].to, "ann@example.org");
    assert_eq!(letters[0].subject, "Your loa password was changed");

    // Once only.
    for (method, body) in [("POST", Some(new)), ("GET", None)] {
        let (status, refused) = app.call(method, &path, body).await;
        assert_eq!(status, StatusCode::GONE, "{method}");
        assert!(
            refused["error"].as_str().unwrap().contains("used already"),
            "{refused}"
        );
    }
    assert!(outbox(&app).await.is_empty());
}

#[tokio::test]
async fn any_address_has_the_same_answer_and_only_a_verified_one_is_mailed() {
    let app = mailing_app().await;
    verified(&app, "Ann").await;
    // Bob's address is not verified yet.
    let body = json!({"name": "Bob", "password": "a long password", "email": "bob@example.org"});
    assert_eq!(
        app.call("POST", "/api/accounts", Some(body)).await.0,
        StatusCode::CREATED
    );
    assert_eq!(outbox(&app).await.len(), 1, "Bob's verification link");
    let unknown = ask(&app, "nobody@example.org", "203.0.113.1").await;
    let unverified = ask(&app, "bob@example.org", "203.0.113.1").await;
    let known = ask(&app, "ann@example.org", "203.0.113.1").await;
    assert_eq!(unknown.0, StatusCode::ACCEPTED);
    assert_eq!(unknown, unverified);
    assert_eq!(unknown, known);
    // Ann's link alone, however long one waits.
    let letters = queued(&app).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let letters = [letters, outbox(&app).await].concat();
    let to: Vec<&str> = letters.iter().map(|l| l.to.as_str()).collect();
    assert_eq!(to, ["ann@example.org"]);
    // Not an address at all: said so.
    let (status, refused) = ask(&app, "ann", "203.0.113.1").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
}

#[tokio::test]
async fn an_expired_unknown_or_cut_link_is_refused_with_why() {
    let app = mailing_app().await;
    verified(&app, "Ann").await;
    let secret = link_for(&app, "Ann").await;
    let path = format!("/api/password-reset/{secret}");
    // A mail program's capitals change nothing.
    let upper = format!("/api/password-reset/{}", secret.to_uppercase());
    assert_eq!(app.ok("GET", &upper, None).await["name"], "Ann");
    // An hour on, it has expired, and sets nothing.
    app.tamper("UPDATE password_resets SET created_at = created_at - 3600001")
        .await
        .unwrap();
    let new = json!({"password": "a brand new password"});
    for (method, body) in [("GET", None), ("POST", Some(new.clone()))] {
        let (status, refused) = app.call(method, &path, body).await;
        assert_eq!(status, StatusCode::GONE, "{method}");
        assert!(
            refused["error"].as_str().unwrap().contains("expired"),
            "{refused}"
        );
    }
    assert_eq!(sign_in(&app, "a long password").await, StatusCode::OK);
    let (status, refused) = app
        .call(
            "POST",
            "/api/password-reset/abcdefghijkmnpqrstuvwxyz23",
            Some(new.clone()),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{refused}");
    let cut = format!("/api/password-reset/{}", &secret[..20]);
    let (status, refused) = app.call("POST", &cut, Some(new)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("not a reset link"),
        "{refused}"
    );
}

#[tokio::test]
async fn a_new_password_or_address_voids_the_links_sent_before() {
    let app = mailing_app().await;
    verified(&app, "Ann").await;
    let first = link_for(&app, "Ann").await;
    let second = link_for(&app, "Ann").await;
    let new = json!({"password": "a brand new password"});
    let (status, _, cookie) = app
        .send(
            "POST",
            &format!("/api/password-reset/{second}"),
            Some(new.clone()),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let ann = Person {
        cookie: cookie.unwrap().0,
    };
    let path = format!("/api/password-reset/{first}");
    assert_eq!(app.call("GET", &path, None).await.0, StatusCode::GONE);
    let notice = outbox(&app).await;
    assert_eq!(notice[0].subject, "Your loa password was changed");
    // A link mailed to an address the account has left sets nothing.
    let third = link_for(&app, "Ann").await;
    let change = json!({"email": "ann@new.example", "password": "a brand new password"});
    let (status, _) = as_person(&app, &ann, "PUT", "/api/me/mail", Some(change)).await;
    assert_eq!(status, StatusCode::OK);
    let path = format!("/api/password-reset/{third}");
    let (status, refused) = app.call("POST", &path, Some(new)).await;
    assert_eq!(status, StatusCode::GONE);
    assert!(
        refused["error"].as_str().unwrap().contains("address"),
        "{refused}"
    );
}

#[tokio::test]
async fn reset_links_are_limited_by_address_and_by_network() {
    let app = mailing_app().await;
    // One address, from networks each far under their limit: three an hour.
    for n in 1..=3 {
        let from = format!("203.0.113.{n}");
        assert_eq!(
            ask(&app, "eve@example.org", &from).await.0,
            StatusCode::ACCEPTED
        );
    }
    let (status, refused) = ask(&app, "Eve@example.org", "203.0.113.4").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .ends_with("try again in an hour"),
        "{refused}"
    );
    // One network, ten addresses an hour; the one refused is not counted for its address.
    for n in 0..10 {
        let email = format!("person{n}@example.org");
        assert_eq!(
            ask(&app, &email, "198.51.100.7").await.0,
            StatusCode::ACCEPTED
        );
    }
    // Two of the address's three an hour asked from elsewhere; the refused try must not
    // take the third, which a fresh network then gets.
    for from in ["198.51.100.20", "198.51.100.21"] {
        assert_eq!(
            ask(&app, "late@example.org", from).await.0,
            StatusCode::ACCEPTED
        );
    }
    assert_eq!(
        ask(&app, "late@example.org", "198.51.100.7").await.0,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        ask(&app, "late@example.org", "198.51.100.8").await.0,
        StatusCode::ACCEPTED
    );
    // No account has these addresses: nothing was mailed.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(outbox(&app).await.is_empty());
}

#[tokio::test]
async fn without_smtp_a_reset_is_refused_saying_why() {
    let app = App::new().await;
    let (status, refused) = ask(&app, "ann@example.org", "203.0.113.1").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .starts_with("this site sends no e-mail"),
        "{refused}"
    );
}
