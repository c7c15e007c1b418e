//! What the server offers, as `GET /api/meta` tells it.

use super::App;
use serde_json::json;

#[tokio::test]
async fn meta_names_every_variant_level_seat_and_limit() {
    let app = App::new().await;
    let meta = app.ok("GET", "/api/meta", None).await;
    let ids: Vec<&str> = meta["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "standard",
            "scrambled-eggs",
            "parachute",
            "ambiloa",
            "neighbors",
            "fields-of-action"
        ]
    );
    assert_eq!(meta["variants"][0]["boards"], json!([6, 7, 8]));
    assert_eq!(meta["variants"][2]["boards"], json!([8]));
    assert_eq!(meta["variants"][3]["partnership"], true);
    assert_eq!(meta["variants"][5]["connection"], false);
    assert_eq!(meta["rules"], json!(["draw", "mover-wins"]));
    assert_eq!(meta["levels"].as_array().unwrap().len(), 8);
    assert_eq!(
        meta["levels"][0]["description"],
        "depth 1, a move drawn by score (spread 100)"
    );
    assert_eq!(meta["levels"][0]["elo"], loa_engine::LEVEL_ELO[0]);
    assert_eq!(meta["levels"][0]["beginner"], true);
    assert_eq!(meta["levels"][1]["beginner"], false);
    assert_eq!(meta["levels"][6]["description"], "depth 7");
    assert_eq!(
        meta["levels"][7]["description"],
        "1 s a move (full strength)"
    );
    assert_eq!(meta["seats"], json!(["black", "white", "black2", "white2"]));
    assert_eq!(meta["limits"]["setup_moves"], 2000);
    assert_eq!(meta["limits"]["movetime_ms"], json!([10, 60000]));
    assert_eq!(meta["limits"]["correspondence_days"], json!([1, 60]));
    assert_eq!(meta["mail"], false);
}

#[tokio::test]
async fn meta_says_whether_the_site_sends_mail() {
    let app = super::mail::mailing_app().await;
    assert_eq!(app.ok("GET", "/api/meta", None).await["mail"], true);
}

#[tokio::test]
async fn the_health_check_asks_the_database() {
    let app = App::new().await;
    assert_eq!(
        app.ok("GET", "/api/health", None).await,
        json!({"database": "ok"})
    );
    // A database gone: 503, saying so, for the load balancer to send players elsewhere.
    app.hub.store.close().await;
    let (status, answer) = app.call("GET", "/api/health", None).await;
    assert_eq!(status, axum::http::StatusCode::SERVICE_UNAVAILABLE);
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .starts_with("the database does not answer"),
        "{answer}"
    );
}
