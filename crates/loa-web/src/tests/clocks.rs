//! When clocks start.

use super::{id_of, App};
use serde_json::json;

#[tokio::test]
async fn a_live_clock_starts_at_the_first_move_and_correspondence_at_once() {
    let app = App::new().await;
    let live = app
        .create(json!({
            "black": "human", "white": "human",
            "clock": {"kind": "live", "initial_s": 60, "increment_s": 2}
        }))
        .await;
    let clock = &live["game"]["clock"];
    assert!(clock["running"].is_null(), "{clock}");
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    let game = app
        .ok("GET", &format!("/api/games/{}", id_of(&live)), None)
        .await;
    assert_eq!(
        game["clock"]["black_ms"], 60_000,
        "no time ran before the first move"
    );
    let moved = app
        .ok(
            "POST",
            &format!("/api/games/{}/moves", id_of(&live)),
            Some(json!({"move": "b1-b3", "token": live["tokens"]["black"]})),
        )
        .await;
    assert_eq!(moved["clock"]["running"], "white");
    assert_eq!(
        moved["clock"]["black_ms"], 62_000,
        "the increment, nothing used"
    );
    let days = app
        .create(json!({
            "black": "human", "white": "human",
            "clock": {"kind": "correspondence", "days": 2}
        }))
        .await;
    assert_eq!(days["game"]["clock"]["running"], "black");
}
