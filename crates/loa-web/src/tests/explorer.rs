//! The opening explorer through the API: a rated game counted once, by source and band.

use super::accounts::{as_person, sign_up};
use super::pairing::rated_game;
use super::App;
use axum::http::StatusCode;
use serde_json::{json, Value};

async fn explore(app: &App, body: Value) -> Value {
    app.ok("POST", "/api/explorer", Some(body)).await
}

#[tokio::test]
async fn a_rated_game_is_counted_once_in_its_band() {
    let app = App::new().await;
    let ann = sign_up(&app, "Ann").await;
    let bob = sign_up(&app, "Bob").await;
    let game = rated_game(&app, &ann, &bob).await;
    let moves = format!("/api/games/{game}/moves");
    as_person(&app, &ann, "POST", &moves, Some(json!({"move": "b1-b3"}))).await;
    as_person(&app, &bob, "POST", &moves, Some(json!({"move": "a2-c2"}))).await;
    // Not counted while it is played.
    assert_eq!(
        crate::explorer::count_ended_games(&app.hub).await.unwrap(),
        0
    );
    let resign = format!("/api/games/{game}/resign");
    let (status, _) = as_person(&app, &bob, "POST", &resign, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        crate::explorer::count_ended_games(&app.hub).await.unwrap(),
        1
    );
    assert_eq!(
        crate::explorer::count_ended_games(&app.hub).await.unwrap(),
        0
    );
    let start = explore(&app, json!({"verdicts": false})).await;
    assert_eq!(
        start,
        json!({
            "position": "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b", "to_move": "black",
            "games": 1,
            "moves": [{"move": "b1-b3", "games": 1, "black_wins": 1, "white_wins": 0, "draws": 0}]
        })
    );
    let after = explore(&app, json!({"moves": ["b1-b3"], "verdicts": false})).await;
    assert_eq!(after["moves"][0]["move"], "a2-c2");
    // Two newcomers after one game: both near 1500, in the 1400 band.
    let band = |bands: Value, source: Value| {
        let app = &app;
        async move {
            explore(
                app,
                json!({"bands": bands, "source": source, "verdicts": false}),
            )
            .await["games"]
                .clone()
        }
    };
    assert_eq!(band(json!([1400]), json!("rated")).await, 1);
    assert_eq!(band(json!([1600]), json!(null)).await, 0);
    assert_eq!(band(json!([]), json!("archive")).await, 0);
}

#[tokio::test]
async fn the_engine_and_the_solver_speak_of_the_position() {
    let app = App::new().await;
    // White connects at once with h2-f4 after g5xc5 e8-f8: a win the solver proves.
    let answer = explore(
        &app,
        json!({"position": "4b3/5w2/2w1wwb1/2b1www1/3w4/8/7w/8 w"}),
    )
    .await;
    assert_eq!(answer["games"], 0);
    assert_eq!(answer["proved_win"], "white");
    assert!(answer["winning_move"].is_string(), "{answer}");
    assert!(
        answer["engine"]["eval"].as_str().unwrap().starts_with("#-"),
        "{answer}"
    );
}

#[tokio::test]
async fn bad_questions_are_refused() {
    let app = App::new().await;
    for (body, status) in [
        (json!({"bands": [1550]}), StatusCode::BAD_REQUEST),
        (json!({"source": "mine"}), StatusCode::BAD_REQUEST),
        (json!({"moves": ["a1-a9"]}), StatusCode::BAD_REQUEST),
        (json!({"colour": "red"}), StatusCode::UNPROCESSABLE_ENTITY),
    ] {
        let (got, answer) = app.call("POST", "/api/explorer", Some(body.clone())).await;
        assert_eq!(got, status, "{body}: {answer}");
        assert!(answer["error"].is_string());
    }
}

/// The explorer on 100,000 self-play games (`LOA_EXPLORER_GAMES` to change): games made
/// at a low level (4 random plies, then a 1-ply search a move), counted as an archive,
/// then 2,000 positions of theirs asked. Prints the timings; run in release:
/// `cargo test --release -p loa-web explorer_at_scale -- --ignored --nocapture`.
#[tokio::test]
#[ignore]
async fn explorer_at_scale() {
    use crate::explorer::{explored, position_key};
    use crate::store::ExplorerQuery;
    use loa_core::{Game, GameState, RuleSet, Variant};
    use loa_engine::{Engine, SearchLimits, SearchRequest};
    use std::time::Instant;

    let count: usize = std::env::var("LOA_EXPLORER_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000);
    let app = App::new().await;
    let start = Variant::Standard.start(loa_core::BoardSize::Eight).unwrap();
    let mut engine = Engine::new(1);
    let stop = std::sync::atomic::AtomicBool::new(false);
    // xorshift: the same games every run.
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut random = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let made = Instant::now();
    let mut games = Vec::with_capacity(count);
    let mut asked = Vec::new();
    for _ in 0..count {
        let mut game = Game::new(start, RuleSet::Draw);
        while !game.is_over() && game.ply() < 200 {
            let mv = if game.ply() < 4 {
                let mut moves = Vec::new();
                game.position().for_each_move(|m| moves.push(m));
                moves[random(moves.len())]
            } else {
                let limits = SearchLimits {
                    depth: Some(1),
                    ..SearchLimits::default()
                };
                let request = SearchRequest::for_game(&game, limits);
                engine.search_any(&request, &stop, |_| {}).best.unwrap()
            };
            game.play(mv).unwrap();
        }
        let black_won = game
            .outcome()
            .and_then(|o| o.winner)
            .map(|w| w == loa_core::Color::Black);
        if asked.len() < 2_000 && random(50) == 0 {
            let mut replay = Game::new(start, RuleSet::Draw);
            // A position a move was played from.
            let plies = random(20).min(game.ply() - 1);
            for mv in game.moves().take(plies) {
                replay.play(mv).unwrap();
            }
            asked.push(position_key(replay.position()));
        }
        games.push(explored(
            &game,
            crate::explorer::band_of(Some(1000.0 + random(1500) as f64)),
            black_won,
        ));
    }
    let made = made.elapsed();
    let counted = Instant::now();
    app.hub
        .store
        .explore_archive("scale", "self-play", &games, 1)
        .await
        .unwrap();
    let counted = counted.elapsed();
    let mut times = Vec::new();
    let mut found = 0;
    for &position_key in &asked {
        let query = ExplorerQuery {
            variant: "standard",
            position_key,
            source: None,
            bands: &[],
        };
        let at = Instant::now();
        found += usize::from(!app.hub.store.explore(&query).await.unwrap().is_empty());
        times.push(at.elapsed());
    }
    times.sort();
    let quantile = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    println!(
        "{count} games made in {made:.1?}, counted in {counted:.1?}; {} positions asked \
         ({found} with moves): p50 {:.2?}, p99 {:.2?}, max {:.2?}",
        times.len(),
        quantile(0.5),
        quantile(0.99),
        times[times.len() - 1]
    );
    assert_eq!(
        found,
        times.len(),
        "every position asked was reached by a game"
    );
}
