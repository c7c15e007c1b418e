//! Puzzles through the API: given, played a move at a time, and rated once.

use super::accounts::{as_person, sign_up};
use super::App;
use axum::http::StatusCode;
use serde_json::{json, Value};

/// White captures on c5, then connects whatever Black does (h2-f4 wins as fast).
const CAPTURE: &str = "standard ; draw ; 4b3/5w2/2w1wwb1/2b1www1/3w4/8/7w/8 w ; g5xc5 e8-f8 h2-f4";
/// Black wins in three with a blocking first move.
const BLOCK: &str =
    "standard ; draw ; 5b2/2b5/1w2b3/3bbb2/4wb2/4ww2/8/8 b ; f5-c5 b6-d6 c7-d7 d6-b6 f4-f7";

/// An app with the two puzzles; their ids.
async fn with_puzzles() -> (App, String, String) {
    let app = App::new().await;
    let file = crate::puzzles::read_file(&format!("{CAPTURE}\n{BLOCK}\n"));
    let ids = (file.puzzles[0].id.clone(), file.puzzles[1].id.clone());
    app.hub.store.add_puzzles(&file.puzzles, 1).await.unwrap();
    (app, ids.0, ids.1)
}

async fn play(app: &App, id: &str, moves: &[&str]) -> (StatusCode, Value) {
    app.call(
        "POST",
        &format!("/api/puzzles/{id}/moves"),
        Some(json!({ "moves": moves })),
    )
    .await
}

#[tokio::test]
async fn a_puzzle_is_shown_without_its_solution_and_played_to_the_win() {
    let (app, capture, _) = with_puzzles().await;
    let shown = app
        .ok("GET", &format!("/api/puzzles/{capture}"), None)
        .await;
    assert_eq!(
        shown,
        json!({
            "id": capture, "variant": "standard", "rules": "draw",
            "position": "4b3/5w2/2w1wwb1/2b1www1/3w4/8/7w/8 w", "to_move": "white",
            "moves": 2, "themes": ["capture", "connection"], "rating": 1500,
            "plays": 0, "wins": 0, "tried": null
        })
    );
    assert_eq!(
        play(&app, &capture, &["g5xc5"]).await,
        (StatusCode::OK, json!({"result": "right", "reply": "e8-f8"}))
    );
    assert_eq!(
        play(&app, &capture, &["g5xc5", "e8-f8", "h2-f4"]).await,
        (StatusCode::OK, json!({"result": "solved"}))
    );
    // Not signed in: nothing rated.
    let shown = app
        .ok("GET", &format!("/api/puzzles/{capture}"), None)
        .await;
    assert_eq!(shown["plays"], 0);
}

#[tokio::test]
async fn another_winning_move_is_accepted_and_a_losing_one_shown_the_solution() {
    let (app, capture, _) = with_puzzles().await;
    // h2-h1 wins too, more slowly: the solver proves it and answers with Black's
    // longest defence.
    let (status, answer) = play(&app, &capture, &["h2-h1"]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer, json!({"result": "right", "reply": "c5-a7"}));
    assert_eq!(
        play(&app, &capture, &["e5xe8"]).await,
        (
            StatusCode::OK,
            json!({"result": "wrong", "solution": ["g5xc5", "e8-f8", "h2-f4"]})
        )
    );
}

#[tokio::test]
async fn bad_moves_and_ids_are_refused_with_a_reason() {
    let (app, capture, _) = with_puzzles().await;
    for (moves, why) in [
        (vec![], "no move was sent"),
        (
            vec!["g5xc5", "e8-f8"],
            "the last move sent is the reply: send the player's move after it",
        ),
        (
            vec!["g5xc5", "e8-d8", "h2-f4"],
            "move 1 is not the reply given (e8-f8)",
        ),
    ] {
        assert_eq!(
            play(&app, &capture, &moves).await,
            (StatusCode::UNPROCESSABLE_ENTITY, json!({ "error": why }))
        );
    }
    let (status, answer) = play(&app, &capture, &["zz"]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    let many = vec!["g5xc5"; 1_001];
    assert_eq!(
        play(&app, &capture, &many).await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        play(&app, "nosuchid", &["g5xc5"]).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        play(&app, "../../x", &["g5xc5"]).await.0,
        StatusCode::NOT_FOUND
    );
    let (status, _) = app
        .call(
            "POST",
            &format!("/api/puzzles/{capture}/moves"),
            Some(json!({"moves": ["g5xc5"], "x": 1})),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, answer) = app.call("GET", "/api/puzzles/nope", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(answer, json!({"error": "no such puzzle"}));
    let (status, answer) = app.call("GET", "/api/puzzles/next?theme=bogus", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        answer,
        json!({"error": "no theme 'bogus': capture, block, connection"})
    );
    assert_eq!(
        app.call("GET", "/api/puzzles/next?variant=chess", None)
            .await
            .0,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn the_first_try_rates_player_and_puzzle_and_the_next_is_untried() {
    let (app, capture, block) = with_puzzles().await;
    let ann = sign_up(&app, "ann").await;
    let next = |query: String| {
        let (app, ann) = (&app, &ann);
        async move { as_person(app, ann, "GET", &format!("/api/puzzles/next{query}"), None).await }
    };
    // Nearest 1500 first: the two-move capture.
    assert_eq!(next(String::new()).await.1["id"], json!(capture));
    assert_eq!(next("?theme=block".into()).await.1["id"], json!(block));
    assert_eq!(
        next(format!("?after={capture}")).await.1["id"],
        json!(block)
    );
    let moves = json!({"moves": ["e5xe8"]});
    let (status, wrong) = as_person(
        &app,
        &ann,
        "POST",
        &format!("/api/puzzles/{capture}/moves"),
        Some(moves.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let rated = &wrong["rated"];
    assert_eq!(rated["solved"], false);
    assert_eq!(rated["rating_before"], 1500);
    let after = rated["rating_after"].as_i64().unwrap();
    assert!(after < 1500, "{wrong}");
    assert_eq!(rated["change"], after - 1500);
    // A try again is not rated.
    let (_, again) = as_person(
        &app,
        &ann,
        "POST",
        &format!("/api/puzzles/{capture}/moves"),
        Some(json!({"moves": ["g5xc5", "e8-f8", "h2-f4"]})),
    )
    .await;
    assert_eq!(again, json!({"result": "solved"}));
    let (_, shown) = as_person(&app, &ann, "GET", &format!("/api/puzzles/{capture}"), None).await;
    assert_eq!(shown["tried"]["solved"], false);
    assert_eq!(
        (shown["plays"].clone(), shown["wins"].clone()),
        (json!(1), json!(0))
    );
    assert!(
        shown["rating"].as_i64().unwrap() > 1500,
        "the puzzle won: {shown}"
    );
    let (_, summary) = as_person(&app, &ann, "GET", "/api/puzzles", None).await;
    assert_eq!(summary["count"], 2);
    assert_eq!(
        summary["themes"],
        json!({"block": 1, "capture": 1, "connection": 1})
    );
    assert_eq!(summary["rating"]["rating"], after);
    assert_eq!(summary["rating"]["plays"], 1);
    assert_eq!(summary["rating"]["provisional"], true);
    // The capture was tried: the block comes next, then nothing.
    assert_eq!(next(String::new()).await.1["id"], json!(block));
    as_person(
        &app,
        &ann,
        "POST",
        &format!("/api/puzzles/{block}/moves"),
        Some(json!({"moves": ["f5-c5", "b6-d6", "c7-d7", "d6-b6", "f4-f7"]})),
    )
    .await;
    let (status, _) = next(String::new()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_try_given_up_is_shown_the_solution_and_counts_as_missed() {
    let (app, capture, _) = with_puzzles().await;
    let ann = sign_up(&app, "ann").await;
    let path = format!("/api/puzzles/{capture}/solution");
    let (status, answer) = as_person(
        &app,
        &ann,
        "POST",
        &path,
        Some(json!({"moves": ["g5xc5", "e8-f8"]})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer["result"], "wrong");
    assert_eq!(answer["solution"], json!(["g5xc5", "e8-f8", "h2-f4"]));
    assert_eq!(answer["rated"]["solved"], false);
    // Not signed in, from the start: the whole line, nothing rated.
    let (status, answer) = app.call("POST", &path, Some(json!({"moves": []}))).await;
    assert_eq!(
        (status, answer),
        (
            StatusCode::OK,
            json!({"result": "wrong", "solution": ["g5xc5", "e8-f8", "h2-f4"]})
        )
    );
    let (status, answer) = app
        .call("POST", &path, Some(json!({"moves": ["g5xc5"]})))
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
}

#[tokio::test]
async fn the_daily_puzzle_is_the_same_all_day() {
    let app = App::new().await;
    assert_eq!(
        app.call("GET", "/api/puzzles/daily", None).await.0,
        StatusCode::NOT_FOUND
    );
    let (app, _, _) = with_puzzles().await;
    let daily = app.ok("GET", "/api/puzzles/daily", None).await;
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    assert_eq!(daily["day"], json!(today));
    assert_eq!(app.ok("GET", "/api/puzzles/daily", None).await, daily);
}
