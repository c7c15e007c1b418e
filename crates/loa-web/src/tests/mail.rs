//! The site's e-mails as the outbox holds them: what is written, to whom, and when. (The
//! sending over SMTP, and replies, are tested against a real SMTP server by
//! `crates/loa-cli/tests/mail.rs`.) The worker is not started here: each test takes the
//! rows from the outbox itself.

use super::accounts::{as_person, Person};
use super::App;
use crate::clock::{now_ms, HOUR};
use crate::mail::{Letter, MailConfig};
use axum::http::StatusCode;
use serde_json::json;

pub(super) async fn mailing_app() -> App {
    let app = App::new().await;
    app.hub.mail.configure(MailConfig {
        smtp: "smtp://127.0.0.1:9".into(),
        from: "loa@loa.test".into(),
        public_url: "http://loa.test".into(),
        replies: true,
    });
    app
}

/// The e-mails queued since the last look, oldest first.
pub(super) async fn outbox(app: &App) -> Vec<Letter> {
    let mut letters = Vec::new();
    while let Some(row) = app.hub.store.claim_mail(i64::MAX).await.unwrap() {
        letters.push(row.letter);
    }
    letters
}

/// The e-mails queued once the notices, written after the answer, are: at least one.
pub(super) async fn queued(app: &App) -> Vec<Letter> {
    for _ in 0..100 {
        let letters = outbox(app).await;
        if !letters.is_empty() {
            // Any written at the same moment.
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            return [letters, outbox(app).await].concat();
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    Vec::new()
}

/// A new account with an address, verified by the link of its e-mail.
pub(super) async fn verified(app: &App, name: &str) -> Person {
    let email = format!("{}@example.org", name.to_lowercase());
    let body = json!({"name": name, "password": "a long password", "email": email});
    let (status, _, cookie) = app.send("POST", "/api/accounts", Some(body), &[]).await;
    assert_eq!(status, StatusCode::CREATED);
    let person = Person {
        cookie: cookie.unwrap().0,
    };
    let letters = outbox(app).await;
    assert_eq!(letters.len(), 1);
    assert_eq!(letters[0].to, email);
    let link = letters[0]
        .body
        .split_whitespace()
        .find(|w| w.starts_with("http://loa.test/mail/verify/"))
        .expect("a verification link");
    let (status, _, _) = app
        .send("GET", link.trim_start_matches("http://loa.test"), None, &[])
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let settings = as_person(app, &person, "GET", "/api/me/mail", None).await.1;
    assert_eq!(settings["verified"], true, "{settings}");
    person
}

#[tokio::test]
async fn a_move_is_told_once_then_reminded_at_24_hours_and_listed_in_the_digest() {
    let app = mailing_app().await;
    let ann = verified(&app, "Ann").await;
    let bob = verified(&app, "Bob").await;
    let seek = json!({"variant": "standard", "rules": "draw", "rated": false, "color": "black",
        "clock": {"kind": "correspondence", "days": 2}});
    let (_, made) = as_person(&app, &ann, "POST", "/api/seeks", Some(seek)).await;
    let accept = format!("/api/seeks/{}/accept", made["id"].as_str().unwrap());
    let (_, taken) = as_person(&app, &bob, "POST", &accept, None).await;
    let id = taken["game"].as_str().unwrap();
    // The game starts: Black is told it is her move.
    let letters = queued(&app).await;
    assert_eq!(letters.len(), 1, "{letters:#?}");
    assert_eq!(letters[0].to, "ann@example.org");
    assert_eq!(letters[0].subject, "loa: your move against Bob");
    assert!(
        !letters[0].body.contains("played"),
        "no move yet: {}",
        letters[0].body
    );
    let game = app.ok("GET", &format!("/api/games/{id}"), None).await;
    let mv = game["position"]["moves"][0]["text"].clone();
    let moved = now_ms();
    let path = format!("/api/games/{id}/moves");
    let (status, _) = as_person(&app, &ann, "POST", &path, Some(json!({"move": mv}))).await;
    assert_eq!(status, StatusCode::OK);
    let letters = queued(&app).await;
    assert_eq!(letters.len(), 1, "{letters:#?}");
    let notice = &letters[0];
    assert_eq!(notice.to, "bob@example.org");
    assert_eq!(notice.subject, "loa: your move against Ann");
    assert!(notice.reply_to.as_deref().unwrap().starts_with("loa+"));
    assert!(notice
        .unsubscribe
        .as_deref()
        .unwrap()
        .starts_with("http://loa.test/mail/unsubscribe/"));

    // 23 hours before the flag: one reminder, once.
    let later = moved + 25 * HOUR;
    crate::mail::remind(&app.hub, later).await.unwrap();
    crate::mail::remind(&app.hub, later + HOUR).await.unwrap();
    let letters = outbox(&app).await;
    assert_eq!(letters.len(), 1, "{letters:#?}");
    assert_eq!(
        letters[0].subject,
        "loa: 24 hours left for your move against Ann"
    );
    assert!(
        letters[0].body.contains("You have 23 hours"),
        "{}",
        letters[0].body
    );

    // A daily digest: Bob's lists the game; Ann has nothing waiting and gets none.
    for person in [&ann, &bob] {
        let (status, _) = as_person(
            &app,
            person,
            "PUT",
            "/api/me/mail",
            Some(json!({"notices": "digest"})),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
    crate::mail::digests(&app.hub, now_ms()).await.unwrap();
    crate::mail::digests(&app.hub, now_ms() + HOUR)
        .await
        .unwrap();
    let letters = outbox(&app).await;
    assert_eq!(letters.len(), 1, "one a day: {letters:#?}");
    assert_eq!(letters[0].to, "bob@example.org");
    assert_eq!(letters[0].subject, "loa: 1 game waiting for your move");
    assert!(letters[0]
        .body
        .contains(&format!("http://loa.test/game/{id}")));
}

#[tokio::test]
async fn a_new_address_needs_the_password_and_its_own_link() {
    let app = mailing_app().await;
    let ann = verified(&app, "Ann").await;
    let change = |password: &str| json!({"email": "ann@new.example", "password": password});
    let (status, _) = as_person(
        &app,
        &ann,
        "PUT",
        "/api/me/mail",
        Some(change("wrong password")),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, refused) = as_person(
        &app,
        &ann,
        "PUT",
        "/api/me/mail",
        Some(json!({"email": "not an address", "password": "a long password"})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    let (status, settings) = as_person(
        &app,
        &ann,
        "PUT",
        "/api/me/mail",
        Some(change("a long password")),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(settings["email"], "ann@new.example");
    assert_eq!(settings["verified"], false);
    let letters = outbox(&app).await;
    assert_eq!(letters.len(), 2);
    // The address that was verified is told, with the new one.
    assert_eq!(letters[0].to, "ann@example.org");
    assert_eq!(letters[0].subject, "Your loa e-mail address was changed");
    assert!(
        letters[0].body.contains("changed to\nann@new.example."),
        "{}",
        letters[0].body
    );
    assert!(
        letters[0].body.contains("\nhttp://loa.test/account\n"),
        "{}",
        letters[0].body
    );
    assert_eq!(letters[1].to, "ann@new.example");
    // A new password is told to the verified address; an unverified one hears nothing.
    let body = json!({"current": "a long password", "new": "another password"});
    let (status, _) = as_person(&app, &ann, "POST", "/api/me/password", Some(body)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert!(outbox(&app).await.is_empty());
    let bob = verified(&app, "Bob").await;
    let body = json!({"current": "a long password", "new": "another password"});
    let (status, _) = as_person(&app, &bob, "POST", "/api/me/password", Some(body)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let letters = outbox(&app).await;
    assert_eq!(letters.len(), 1, "{letters:?}");
    assert_eq!(letters[0].to, "bob@example.org");
    assert_eq!(letters[0].subject, "Your loa password was changed");
    // One link a minute: asking again at once is refused, and nothing is sent.
    let (status, refused) = as_person(&app, &ann, "POST", "/api/me/mail/verify", None).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{refused}");
    assert!(outbox(&app).await.is_empty());
    // A link that is not one of ours verifies nothing.
    let (status, _, _) = app
        .send("GET", "/mail/verify/abcdefghijkmnpqrstuvwxyz23", None, &[])
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let settings = as_person(&app, &ann, "GET", "/api/me/mail", None).await.1;
    assert_eq!(settings["verified"], false);
    let (status, _) = as_person(
        &app,
        &ann,
        "PUT",
        "/api/me/mail",
        Some(json!({"notices": "weekly"})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = app
        .call("POST", "/mail/unsubscribe/abcdefghijkmnpqrstuvwxyz23", None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_address_given_by_many_sign_ups_gets_one_link_a_minute() {
    // Nobody can use the site to flood someone else's address.
    let app = mailing_app().await;
    let mut people = Vec::new();
    for (name, email) in [("Ann", "eve@example.org"), ("Bob", "EVE@example.org")] {
        let body = json!({"name": name, "password": "a long password", "email": email});
        let (status, _, cookie) = app.send("POST", "/api/accounts", Some(body), &[]).await;
        assert_eq!(status, StatusCode::CREATED);
        people.push(Person {
            cookie: cookie.unwrap().0,
        });
    }
    let letters = outbox(&app).await;
    assert_eq!(letters.len(), 1);
    assert_eq!(letters[0].to, "eve@example.org");
    let (status, refused) = as_person(&app, &people[1], "POST", "/api/me/mail/verify", None).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{refused}");
    let change = json!({"email": "Eve@Example.org", "password": "a long password"});
    let (status, _) = as_person(&app, &people[1], "PUT", "/api/me/mail", Some(change)).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(outbox(&app).await.is_empty());
}

#[tokio::test]
async fn without_smtp_nothing_is_queued_and_the_settings_say_so() {
    let app = App::new().await;
    let body = json!({"name": "Ann", "password": "a long password", "email": "ann@example.org"});
    let (status, _, cookie) = app.send("POST", "/api/accounts", Some(body), &[]).await;
    assert_eq!(status, StatusCode::CREATED);
    let ann = Person {
        cookie: cookie.unwrap().0,
    };
    assert!(outbox(&app).await.is_empty());
    let settings = as_person(&app, &ann, "GET", "/api/me/mail", None).await.1;
    assert_eq!(
        settings,
        json!({"email": "ann@example.org", "verified": false,
        "notices": "each", "sending": false, "replies": false})
    );
    let (status, _) = as_person(&app, &ann, "POST", "/api/me/mail/verify", None).await;
    assert_eq!(status, StatusCode::CONFLICT);
}
