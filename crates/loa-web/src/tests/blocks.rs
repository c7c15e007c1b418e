//! Blocks: a blocked player's challenges are refused and their open ones closed, neither
//! player takes the other's seek nor is paired with them, and unblocking undoes it.

use super::accounts::{as_person, sign_up, Person};
use super::pairing::account_id;
use super::App;
use axum::http::StatusCode;
use serde_json::{json, Value};

fn blitz() -> Value {
    json!({
        "variant": "standard",
        "rules": "draw",
        "clock": {"kind": "live", "initial_s": 300, "increment_s": 0},
        "rated": false,
        "color": "random",
    })
}

/// `from` challenges the player named `to` to a blitz game.
async fn challenge(app: &App, from: &Person, to: &str) -> (StatusCode, Value) {
    let mut body = blitz();
    body["to"] = json!(to);
    as_person(app, from, "POST", "/api/challenges", Some(body)).await
}

#[tokio::test]
async fn a_blocked_player_cannot_challenge_take_a_seek_or_be_paired_until_unblocked() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let bob = sign_up(&app, "Bob").await;
    let _eve = sign_up(&app, "Eve").await;
    let (status, open) = challenge(&app, &bob, "Ann").await;
    assert_eq!(status, StatusCode::CREATED, "{open}");
    // A game between them, over.
    let (_, seek) = as_person(&app, &bob, "POST", "/api/seeks", Some(blitz())).await;
    let accept = format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap());
    let (status, taken) = as_person(&app, &ann, "POST", &accept, None).await;
    assert_eq!(status, StatusCode::CREATED, "{taken}");
    let game = taken["game"].as_str().unwrap().to_string();
    let resign = format!("/api/games/{game}/resign");
    let (status, _) = as_person(&app, &ann, "POST", &resign, None).await;
    assert_eq!(status, StatusCode::OK);

    let (status, _) = app.call("PUT", "/api/me/blocks/Bob", None).await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "blocking needs an account"
    );
    let (status, blocked) = as_person(&app, &ann, "PUT", "/api/me/blocks/bob", None).await;
    assert_eq!(status, StatusCode::CREATED, "{blocked}");
    assert_eq!(blocked["name"], "Bob");
    let (status, again) = as_person(&app, &ann, "PUT", "/api/me/blocks/Bob", None).await;
    assert_eq!(status, StatusCode::OK, "blocked already");
    assert_eq!(
        again["created_at"], blocked["created_at"],
        "since the first"
    );
    let (status, _) = as_person(&app, &ann, "PUT", "/api/me/blocks/Ann", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "oneself");
    let (status, _) = as_person(&app, &ann, "PUT", "/api/me/blocks/nobody", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let long = format!("/api/me/blocks/{}", "x".repeat(5000));
    let (status, _) = as_person(&app, &ann, "PUT", &long, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, list) = as_person(&app, &ann, "GET", "/api/me/blocks", None).await;
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["name"], "Bob");
    assert!(list[0]["created_at"].as_i64().unwrap() > 0);
    let (_, theirs) = as_person(&app, &bob, "GET", "/api/me/blocks", None).await;
    assert_eq!(theirs, json!([]), "a block is the blocker's own list");

    // Bob's open challenge to Ann was declined by the block; new ones are refused, both ways.
    let id = open["id"].as_str().unwrap();
    let (_, closed) = as_person(&app, &bob, "GET", &format!("/api/challenges/{id}"), None).await;
    assert_eq!(closed["status"], "declined");
    for (from, to) in [(&bob, "Ann"), (&ann, "Bob")] {
        let (status, refused) = challenge(&app, from, to).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{refused}");
        assert_eq!(refused["error"], "one of you has blocked the other");
    }

    // Nor asks for a rematch of their game.
    let rematch = format!("/api/games/{game}/rematch");
    let (status, _) = as_person(&app, &bob, "POST", &rematch, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    // Neither takes the other's seek; quick pairing passes it by and makes a seek.
    let (status, seek) = as_person(&app, &bob, "POST", "/api/seeks", Some(blitz())).await;
    assert_eq!(status, StatusCode::CREATED, "{seek}");
    let accept = format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap());
    let (status, _) = as_person(&app, &ann, "POST", &accept, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let mut tile = blitz();
    tile.as_object_mut().unwrap().remove("color");
    let (status, waiting) = as_person(&app, &ann, "POST", "/api/pairing", Some(tile.clone())).await;
    assert_eq!(
        status,
        StatusCode::ACCEPTED,
        "not paired with Bob: {waiting}"
    );
    let withdraw = format!("/api/seeks/{}", waiting["id"].as_str().unwrap());
    let (status, _) = as_person(&app, &ann, "DELETE", &withdraw, None).await;
    assert!(status.is_success(), "{status}");

    // Unblocked, all of it is open again.
    let (status, _) = as_person(&app, &ann, "DELETE", "/api/me/blocks/Bob", None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = as_person(&app, &ann, "DELETE", "/api/me/blocks/Bob", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "not blocked any more");
    let (status, made) = challenge(&app, &bob, "Ann").await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, paired) = as_person(&app, &ann, "POST", "/api/pairing", Some(tile)).await;
    assert_eq!(status, StatusCode::CREATED, "paired with Bob: {paired}");

    // A block that raced with the challenge's making (kept, the challenge left open) is
    // still seen when it is accepted.
    let (ann_id, bob_id) = (account_id(&app, "ann").await, account_id(&app, "bob").await);
    app.hub.store.block(ann_id, bob_id, 1, 10).await.unwrap();
    let accept = format!("/api/challenges/{}/accept", made["id"].as_str().unwrap());
    let (status, _) = as_person(&app, &ann, "POST", &accept, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_block_list_has_a_limit_and_a_deleted_account_leaves_it() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let bob = sign_up(&app, "Bob").await;
    let _eve = sign_up(&app, "Eve").await;
    let (ann_id, bob_id, eve_id) = (
        account_id(&app, "ann").await,
        account_id(&app, "bob").await,
        account_id(&app, "eve").await,
    );
    let store = &app.hub.store;
    assert_eq!(
        store.block(ann_id, bob_id, 1, 1).await.unwrap(),
        Some((true, 1))
    );
    assert_eq!(
        store.block(ann_id, bob_id, 2, 1).await.unwrap(),
        Some((false, 1)),
        "blocked since the first time"
    );
    assert_eq!(
        store.block(ann_id, eve_id, 3, 1).await.unwrap(),
        None,
        "full"
    );
    assert!(store.blocked_between(bob_id, ann_id).await.unwrap());
    assert!(!store.blocked_between(bob_id, eve_id).await.unwrap());

    let confirm = json!({"password": "a long password"});
    let (status, _) = as_person(&app, &bob, "DELETE", "/api/me", Some(confirm)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (_, list) = as_person(&app, &ann, "GET", "/api/me/blocks", None).await;
    assert_eq!(list, json!([]));
}
