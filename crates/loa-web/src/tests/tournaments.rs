//! Tournaments through the API: made, joined, started, paired round by round as games
//! end, finished; the rules of who may do what.

use super::accounts::{as_person, sign_up, Person};
use super::{made_and_refused, App};
use axum::http::StatusCode;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

fn swiss(rounds: i64) -> Value {
    json!({
        "name": "Autumn Swiss",
        "format": "swiss",
        "rounds": rounds,
        "variant": "standard",
        "rules": "draw",
        "clock": {"kind": "live", "initial_s": 300, "increment_s": 5},
        "rated": true,
    })
}

/// People signed up, by name.
async fn people(app: &App, names: &[&str]) -> BTreeMap<String, Person> {
    let mut people = BTreeMap::new();
    for name in names {
        people.insert(name.to_string(), sign_up(app, name).await);
    }
    people
}

/// Ends every game of the current round that is still played: on each board, the
/// player named first in `winners` that plays in it wins (by the other's resignation);
/// boards with neither are won by Black.
async fn play_round(app: &App, people: &BTreeMap<String, Person>, id: &str, winners: &[&str]) {
    let t = app.ok("GET", &format!("/api/tournaments/{id}"), None).await;
    let round = t["round"].clone();
    for p in t["pairings"].as_array().unwrap() {
        if p["round"] != round || p["game"].is_null() || !p["result"].is_null() {
            continue;
        }
        let (black, white) = (p["black"].as_str().unwrap(), p["white"].as_str().unwrap());
        let loser = match winners.iter().find(|w| **w == black || **w == white) {
            Some(&w) if w == black => white,
            Some(_) => black,
            None => white,
        };
        let game = p["game"].as_str().unwrap();
        let (status, answer) = as_person(
            app,
            &people[loser],
            "POST",
            &format!("/api/games/{game}/resign"),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
}

#[tokio::test]
async fn a_swiss_is_made_joined_started_and_paired_round_by_round() {
    let app = App::new().await;
    assert_eq!(
        app.call("POST", "/api/tournaments", Some(swiss(3))).await.0,
        StatusCode::UNAUTHORIZED
    );
    let people = people(&app, &["ann", "bob", "cy", "dan", "eve"]).await;
    // A body of the wrong shape is the API's JSON error, as everywhere.
    let mut wrong = swiss(3);
    wrong["rounds"] = json!("three");
    let (status, answer) = as_person(
        &app,
        &people["ann"],
        "POST",
        "/api/tournaments",
        Some(wrong),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    assert!(answer["error"].is_string(), "{answer}");
    let (status, made) = as_person(
        &app,
        &people["ann"],
        "POST",
        "/api/tournaments",
        Some(swiss(3)),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    assert_eq!(made["status"], "open");
    assert_eq!(made["creator"], "ann");
    for name in ["bob", "cy", "dan", "eve", "ann"] {
        let join = format!("/api/tournaments/{id}/join");
        let (status, _) = as_person(&app, &people[name], "POST", &join, None).await;
        assert_eq!(status, StatusCode::OK);
    }
    // Joining twice changes nothing.
    let join = format!("/api/tournaments/{id}/join");
    as_person(&app, &people["bob"], "POST", &join, None).await;
    assert_eq!(
        app.ok("GET", &format!("/api/tournaments/{id}"), None).await["players"],
        5
    );
    let start = format!("/api/tournaments/{id}/start");
    assert_eq!(
        as_person(&app, &people["bob"], "POST", &start, None)
            .await
            .0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        app.call("POST", &start, None).await.0,
        StatusCode::UNAUTHORIZED
    );
    let (status, started) = as_person(&app, &people["ann"], "POST", &start, None).await;
    assert_eq!(status, StatusCode::OK, "{started}");
    assert_eq!(started["status"], "running");
    assert_eq!(started["round"], 1);
    assert_eq!(
        as_person(&app, &people["ann"], "POST", &start, None)
            .await
            .0,
        StatusCode::CONFLICT
    );
    // Five players: two games and a bye a round.
    let pairings = started["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 3);
    assert_eq!(pairings.iter().filter(|p| p["bye"].is_string()).count(), 1);
    // The games are ordinary games between the accounts, with their clocks running.
    let game = pairings[0]["game"].as_str().unwrap();
    let view = app.ok("GET", &format!("/api/games/{game}"), None).await;
    assert_eq!(view["rated"], true);
    assert_eq!(view["names"][0], pairings[0]["black"]);
    // A tournament's game is played or lost: it is not aborted, even before a move.
    let black = pairings[0]["black"].as_str().unwrap();
    let abort = format!("/api/games/{game}/abort");
    let (status, refused) = as_person(&app, &people[black], "POST", &abort, None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        refused["error"],
        "a tournament's game is not aborted: resign instead, or withdraw from the tournament"
    );
    // Round after round: ann wins all her games, then bob, then the rest by colour.
    for round in 1..=3 {
        let t = app.ok("GET", &format!("/api/tournaments/{id}"), None).await;
        assert_eq!(t["round"], round, "{t}");
        assert_eq!(t["status"], "running");
        play_round(&app, &people, &id, &["ann", "bob"]).await;
    }
    let t = app.ok("GET", &format!("/api/tournaments/{id}"), None).await;
    assert_eq!(t["status"], "finished", "{t}");
    let pairings = t["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 9);
    // Nobody met twice, and nobody had two byes.
    let mut met = BTreeSet::new();
    let mut byes = BTreeSet::new();
    for p in pairings {
        if let Some(bye) = p["bye"].as_str() {
            assert!(byes.insert(bye.to_string()), "two byes for {bye}");
            assert_eq!(p["points"], 1.0);
        } else {
            let mut pair = [p["black"].as_str().unwrap(), p["white"].as_str().unwrap()];
            pair.sort();
            assert!(met.insert(pair), "{pair:?} met twice");
            assert!(p["result"].is_string());
        }
    }
    // Six games and three byes: nine points in all, in order.
    let standings = t["standings"].as_array().unwrap();
    let points: Vec<f64> = standings
        .iter()
        .map(|s| s["points"].as_f64().unwrap())
        .collect();
    assert_eq!(points.iter().sum::<f64>(), 9.0);
    assert!(points.windows(2).all(|w| w[0] >= w[1]), "{points:?}");
    assert_eq!(standings[0]["name"], "ann");
    assert_eq!(standings[0]["rank"], 1);
    // Finished: nobody joins or leaves.
    assert_eq!(
        as_person(&app, &people["bob"], "POST", &join, None).await.0,
        StatusCode::CONFLICT
    );
    let withdraw = format!("/api/tournaments/{id}/withdraw");
    assert_eq!(
        as_person(&app, &people["bob"], "POST", &withdraw, None)
            .await
            .0,
        StatusCode::CONFLICT
    );
    // The exports: every game, and the standings.
    let (status, csv) = app
        .call("GET", &format!("/api/tournaments/{id}/standings.csv"), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    let csv = csv.as_str().unwrap().to_string();
    assert_eq!(csv.lines().count(), 6, "{csv}");
    assert!(csv.lines().nth(1).unwrap().starts_with("1,ann,"), "{csv}");
    let (_, pgn) = app
        .call("GET", &format!("/api/tournaments/{id}/games.pgn"), None)
        .await;
    let pgn = pgn.as_str().unwrap().to_string();
    assert_eq!(pgn.matches("[Event \"Autumn Swiss\"]").count(), 6, "{pgn}");
    assert_eq!(pgn.matches("[Round \"3\"]").count(), 2);
}

#[tokio::test]
async fn joining_leaving_and_starting_follow_the_rules() {
    let app = App::new().await;
    let people = people(&app, &["ann", "bob"]).await;
    for (body, why) in [
        (
            json!({"name": "", "format": "swiss", "rounds": 3, "clock": {"kind": "live", "initial_s": 60, "increment_s": 0}}),
            "empty name",
        ),
        (
            json!({"name": "x", "format": "knockout", "rounds": 3, "clock": {"kind": "live", "initial_s": 60, "increment_s": 0}}),
            "format",
        ),
        (
            json!({"name": "x", "format": "swiss", "clock": {"kind": "live", "initial_s": 60, "increment_s": 0}}),
            "a Swiss needs rounds",
        ),
        (
            json!({"name": "x", "format": "swiss", "rounds": 0, "clock": {"kind": "live", "initial_s": 60, "increment_s": 0}}),
            "zero rounds",
        ),
        (
            json!({"name": "x", "format": "round-robin", "rounds": -3, "clock": {"kind": "live", "initial_s": 60, "increment_s": 0}}),
            "negative rounds",
        ),
        (
            json!({"name": "x", "format": "arena", "minutes": 0, "clock": {"kind": "live", "initial_s": 60, "increment_s": 0}}),
            "a zero-minute arena",
        ),
        (
            json!({"name": "x", "format": "swiss", "rounds": 3, "variant": "go", "clock": {"kind": "live", "initial_s": 60, "increment_s": 0}}),
            "variant",
        ),
        (
            json!({"name": "x", "format": "swiss", "rounds": 3, "clock": {"kind": "live", "initial_s": 60, "increment_s": 0}, "starts_at": i64::MAX}),
            "starts in the far future",
        ),
        (
            json!({"name": "x", "format": "swiss", "rounds": 3, "clock": {"kind": "live", "initial_s": 60, "increment_s": 0}, "starts_at": 1_600_000_000_000_i64}),
            "started in 2020",
        ),
        (
            json!({"name": "x", "format": "swiss", "rounds": 3, "clock": {"kind": "live", "initial_s": 60, "increment_s": 0}, "starts_at": i64::MIN}),
            "starts before anything",
        ),
    ] {
        let (status, answer) =
            as_person(&app, &people["ann"], "POST", "/api/tournaments", Some(body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{why}: {answer}");
        assert!(answer["error"].is_string());
    }
    let (_, made) = as_person(
        &app,
        &people["ann"],
        "POST",
        "/api/tournaments",
        Some(swiss(5)),
    )
    .await;
    let id = made["id"].as_str().unwrap();
    let path = |action: &str| format!("/api/tournaments/{id}/{action}");
    assert_eq!(
        app.call("POST", &path("join"), None).await.0,
        StatusCode::UNAUTHORIZED
    );
    as_person(&app, &people["bob"], "POST", &path("join"), None).await;
    // One player is not a tournament.
    let (status, answer) = as_person(&app, &people["ann"], "POST", &path("start"), None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    // Leaving before the start takes the name off the list.
    let (status, left) = as_person(&app, &people["bob"], "POST", &path("withdraw"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(left["players"], 0);
    assert_eq!(
        as_person(&app, &people["bob"], "POST", &path("withdraw"), None)
            .await
            .0,
        StatusCode::CONFLICT
    );
    assert_eq!(
        app.call("GET", "/api/tournaments/nope", None).await.0,
        StatusCode::NOT_FOUND
    );
    let listed = app.ok("GET", "/api/tournaments?status=open", None).await;
    assert_eq!(listed[0]["id"], id);
    assert_eq!(
        app.call("GET", "/api/tournaments?status=lost", None)
            .await
            .0,
        StatusCode::BAD_REQUEST
    );
    // Survives a restart.
    let app = app.restart().await;
    assert_eq!(
        app.ok("GET", &format!("/api/tournaments/{id}"), None).await["name"],
        "Autumn Swiss"
    );
}

#[tokio::test]
async fn one_person_has_at_most_ten_tournaments_not_finished() {
    let app = App::new().await;
    let people = people(&app, &["ann", "bob"]).await;
    let make = |who: &str| {
        as_person(
            &app,
            &people[who],
            "POST",
            "/api/tournaments",
            Some(swiss(3)),
        )
    };
    for _ in 0..10 {
        assert_eq!(make("ann").await.0, StatusCode::CREATED);
    }
    let (status, refused) = make("ann").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{refused}");
    assert_eq!(make("bob").await.0, StatusCode::CREATED);
}

#[tokio::test]
async fn a_tournament_not_started_is_cancelled_by_its_creator_alone() {
    let app = App::new().await;
    let people = people(&app, &["ann", "bob"]).await;
    let make = || {
        as_person(
            &app,
            &people["ann"],
            "POST",
            "/api/tournaments",
            Some(swiss(3)),
        )
    };
    let mut made = Vec::new();
    for _ in 0..10 {
        let (status, t) = make().await;
        assert_eq!(status, StatusCode::CREATED);
        made.push(t["id"].as_str().unwrap().to_string());
    }
    let path = format!("/api/tournaments/{}", made[0]);
    let join = format!("{path}/join");
    assert_eq!(
        as_person(&app, &people["bob"], "POST", &join, None).await.0,
        StatusCode::OK
    );
    // Nobody else cancels it, and nobody signed out.
    assert_eq!(
        app.call("DELETE", &path, None).await.0,
        StatusCode::UNAUTHORIZED
    );
    let (status, refused) = as_person(&app, &people["bob"], "DELETE", &path, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(refused["error"], "only the tournament's creator cancels it");
    // Its creator does: gone, with its list of players, and room for another.
    let (status, _) = as_person(&app, &people["ann"], "DELETE", &path, None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(app.call("GET", &path, None).await.0, StatusCode::NOT_FOUND);
    assert_eq!(
        as_person(&app, &people["ann"], "DELETE", &path, None)
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    let listed = app.ok("GET", "/api/tournaments", None).await;
    assert!(listed
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["id"] != made[0].as_str()));
    assert_eq!(make().await.0, StatusCode::CREATED);
    // Started, it is played to its end.
    let path = format!("/api/tournaments/{}", made[1]);
    assert_eq!(
        as_person(&app, &people["bob"], "POST", &format!("{path}/join"), None)
            .await
            .0,
        StatusCode::OK
    );
    let join = format!("{path}/join");
    assert_eq!(
        as_person(&app, &people["ann"], "POST", &join, None).await.0,
        StatusCode::OK
    );
    let start = format!("{path}/start");
    assert_eq!(
        as_person(&app, &people["ann"], "POST", &start, None)
            .await
            .0,
        StatusCode::OK
    );
    let (status, refused) = as_person(&app, &people["ann"], "DELETE", &path, None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        refused["error"],
        "the tournament has started: it is played to its end"
    );
}

#[tokio::test]
async fn tournaments_made_at_once_stop_at_ten() {
    let app = App::new().await;
    let people = people(&app, &["ann"]).await;
    let make = || async {
        let ann = &people["ann"];
        let body = Some(swiss(3));
        as_person(&app, ann, "POST", "/api/tournaments", body)
            .await
            .0
    };
    assert_eq!(made_and_refused((0..20).map(|_| make())).await, (10, 10));
}

#[tokio::test]
async fn a_round_robin_follows_the_berger_table() {
    let app = App::new().await;
    let people = people(&app, &["ann", "bob", "cy", "dan"]).await;
    let body = json!({
        "name": "Club round robin", "format": "round-robin", "rounds": 1,
        "clock": {"kind": "correspondence", "days": 3},
    });
    let (status, made) =
        as_person(&app, &people["ann"], "POST", "/api/tournaments", Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["id"].as_str().unwrap();
    for name in ["ann", "bob", "cy", "dan"] {
        as_person(
            &app,
            &people[name],
            "POST",
            &format!("/api/tournaments/{id}/join"),
            None,
        )
        .await;
    }
    let start = format!("/api/tournaments/{id}/start");
    let (_, t) = as_person(&app, &people["ann"], "POST", &start, None).await;
    // All rated 1500: seeded in the order they joined. Berger, 4 players, round 1: 1-4, 2-3.
    let round_of = |t: &Value, round: i64| -> Vec<(String, String)> {
        t["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["round"] == round)
            .map(|p| {
                (
                    p["black"].as_str().unwrap().into(),
                    p["white"].as_str().unwrap().into(),
                )
            })
            .collect()
    };
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(round_of(&t, 1), [pair("ann", "dan"), pair("bob", "cy")]);
    play_round(&app, &people, id, &[]).await;
    let t = app.ok("GET", &format!("/api/tournaments/{id}"), None).await;
    // Round 2: 4-3, 1-2.
    assert_eq!(round_of(&t, 2), [pair("dan", "cy"), pair("ann", "bob")]);
    play_round(&app, &people, id, &[]).await;
    let t = app.ok("GET", &format!("/api/tournaments/{id}"), None).await;
    // Round 3: 2-4, 3-1.
    assert_eq!(round_of(&t, 3), [pair("bob", "dan"), pair("cy", "ann")]);
    play_round(&app, &people, id, &[]).await;
    let t = app.ok("GET", &format!("/api/tournaments/{id}"), None).await;
    assert_eq!(t["status"], "finished");
}

/// Makes a tournament as ann, joins `names` and starts it: its id.
async fn started(
    app: &App,
    people: &BTreeMap<String, Person>,
    body: Value,
    names: &[&str],
) -> String {
    let (status, made) =
        as_person(app, &people["ann"], "POST", "/api/tournaments", Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    for name in names {
        let join = format!("/api/tournaments/{id}/join");
        assert_eq!(
            as_person(app, &people[*name], "POST", &join, None).await.0,
            StatusCode::OK
        );
    }
    let start = format!("/api/tournaments/{id}/start");
    let (status, answer) = as_person(app, &people["ann"], "POST", &start, None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    id
}

#[tokio::test]
async fn an_arena_pairs_players_again_as_soon_as_they_finish() {
    let app = App::new().await;
    let people = people(&app, &["ann", "bob", "cy", "dan"]).await;
    let body = json!({
        "name": "Blitz arena", "format": "arena", "minutes": 60,
        "clock": {"kind": "live", "initial_s": 180, "increment_s": 2},
    });
    let id = started(&app, &people, body, &["ann", "bob", "cy", "dan"]).await;
    let t = app.ok("GET", &format!("/api/tournaments/{id}"), None).await;
    assert_eq!(t["pairings"].as_array().unwrap().len(), 2, "{t}");
    assert!(t["ends_at"].as_i64().unwrap() > t["started_at"].as_i64().unwrap());
    // The first board ends: its two players are paired again at once, the others play on.
    let first = &t["pairings"][0];
    let (black, white) = (
        first["black"].as_str().unwrap(),
        first["white"].as_str().unwrap(),
    );
    let game = first["game"].as_str().unwrap();
    as_person(
        &app,
        &people[white],
        "POST",
        &format!("/api/games/{game}/resign"),
        None,
    )
    .await;
    let t = app.ok("GET", &format!("/api/tournaments/{id}"), None).await;
    let pairings = t["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 3, "{t}");
    let again = &pairings[2];
    assert!(again["result"].is_null());
    let mut pair = [
        again["black"].as_str().unwrap(),
        again["white"].as_str().unwrap(),
    ];
    pair.sort();
    let mut before = [black, white];
    before.sort();
    assert_eq!(pair, before);
    // Arena points: a win is 2.
    assert_eq!(t["standings"][0]["name"], black);
    assert_eq!(t["standings"][0]["points"], 2.0);
    // Their second game ends too: a third running waits while the other board plays on.
    let resign = |board: &Value| {
        let path = format!("/api/games/{}/resign", board["game"].as_str().unwrap());
        (path, &people[board["white"].as_str().unwrap()])
    };
    let (path, white) = resign(again);
    as_person(&app, white, "POST", &path, None).await;
    let t = app.ok("GET", &format!("/api/tournaments/{id}"), None).await;
    assert_eq!(t["pairings"].as_array().unwrap().len(), 3, "{t}");
    // The other board ends: the four are mixed.
    let other = &t["pairings"][1];
    let (path, white) = resign(other);
    as_person(&app, white, "POST", &path, None).await;
    let t = app.ok("GET", &format!("/api/tournaments/{id}"), None).await;
    let pairings = t["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 5, "{t}");
    for new in &pairings[3..] {
        let pair = [
            new["black"].as_str().unwrap(),
            new["white"].as_str().unwrap(),
        ];
        let firsts = pair.iter().filter(|p| before.contains(p)).count();
        assert_eq!(firsts, 1, "{pair:?} against {before:?}");
    }
    // A late joiner is taken while it runs.
    let eve = sign_up(&app, "eve").await;
    let join = format!("/api/tournaments/{id}/join");
    assert_eq!(
        as_person(&app, &eve, "POST", &join, None).await.0,
        StatusCode::OK
    );
    // An arena made with the body every format takes lasts an hour; its rounds are not
    // counted.
    let body = json!({"name": "x", "format": "arena", "rounds": 5, "clock": {"kind": "live", "initial_s": 60, "increment_s": 0}});
    let (status, made) =
        as_person(&app, &people["ann"], "POST", "/api/tournaments", Some(body)).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(made["minutes"], 60);
    // A round robin's rounds are its field's: 2 makes it double, another number single.
    for (rounds, cycles) in [(2, 2), (3, 1), (7, 1)] {
        let body = json!({"name": "rr", "format": "round-robin", "rounds": rounds, "clock": {"kind": "live", "initial_s": 60, "increment_s": 0}});
        let (status, made) =
            as_person(&app, &people["ann"], "POST", "/api/tournaments", Some(body)).await;
        assert_eq!(status, StatusCode::CREATED);
        assert_eq!(made["rounds"], cycles, "rounds {rounds}");
    }
}

#[tokio::test]
async fn a_league_plays_its_seasons_and_starts_the_next_by_itself() {
    let app = App::new().await;
    let people = people(&app, &["ann", "bob", "cy"]).await;
    let body = json!({
        "name": "Postal league", "format": "league", "rounds": 2,
        "clock": {"kind": "correspondence", "days": 5},
    });
    let id = started(&app, &people, body, &["ann", "bob", "cy"]).await;
    let t = app.ok("GET", &format!("/api/tournaments/{id}"), None).await;
    // Three players, one division, a double round robin all at once: six games.
    assert_eq!(t["round"], 1);
    assert_eq!(t["pairings"].as_array().unwrap().len(), 6, "{t}");
    assert!(t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["division"] == 1));
    // A newcomer joins during the season: placed from the next one.
    let dan = sign_up(&app, "dan").await;
    let join = format!("/api/tournaments/{id}/join");
    assert_eq!(
        as_person(&app, &dan, "POST", &join, None).await.0,
        StatusCode::OK
    );
    // Listed at once, under the season's divisions, with none of their own yet.
    let t = app.ok("GET", &format!("/api/tournaments/{id}"), None).await;
    let last = &t["standings"][3];
    assert_eq!(
        (&last["name"], &last["division"]),
        (&json!("dan"), &Value::Null)
    );
    let mut people = people;
    people.insert("dan".into(), dan);
    // Every game of the season at once: ann wins all hers.
    play_round(&app, &people, &id, &["ann"]).await;
    let t = app.ok("GET", &format!("/api/tournaments/{id}"), None).await;
    assert_eq!(t["round"], 2, "{t}");
    assert_eq!(t["status"], "running");
    // Season two: four players, twelve games.
    let season_two = t["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["round"] == 2)
        .count();
    assert_eq!(season_two, 12);
    // Season one's final standings stay, without the newcomer.
    let seasons = t["seasons"].as_array().unwrap();
    assert_eq!(seasons.len(), 1, "{t}");
    assert_eq!(seasons[0]["season"], 1);
    let first: Vec<(&str, f64, i64)> = seasons[0]["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let name = s["name"].as_str().unwrap();
            (
                name,
                s["points"].as_f64().unwrap(),
                s["division"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(first[0], ("ann", 4.0, 1));
    assert_eq!(first.len(), 3);
    assert_eq!(first.iter().map(|s| s.1).sum::<f64>(), 6.0);
    play_round(&app, &people, &id, &["dan"]).await;
    let t = app.ok("GET", &format!("/api/tournaments/{id}"), None).await;
    assert_eq!(t["status"], "finished", "{t}");
    assert_eq!(t["standings"][0]["name"], "dan");
}

#[tokio::test]
async fn a_championship_makes_its_editions_and_its_podium_gets_medals() {
    use crate::tournament::championship::Championship;
    let app = App::new().await;
    let people = people(&app, &["ann", "bob", "cy"]).await;
    let now = crate::clock::now_ms();
    let made =
        crate::director::schedule::next_edition(&app.hub, Championship::MonthlyBlitz, now).await;
    let id = made.unwrap().expect("the first edition");
    // One edition at a time.
    let again =
        crate::director::schedule::next_edition(&app.hub, Championship::MonthlyBlitz, now).await;
    assert_eq!(again.unwrap(), None);
    let t = app.ok("GET", &format!("/api/tournaments/{id}"), None).await;
    assert_eq!(t["championship"], "monthly-blitz");
    assert_eq!(t["rounds"], 7);
    assert_eq!(t["creator"], "loa");
    assert_eq!(t["starts_at"], Championship::MonthlyBlitz.next_start(now));
    assert!(t["name"]
        .as_str()
        .unwrap()
        .starts_with("Monthly blitz championship, "));
    for name in ["ann", "bob", "cy"] {
        as_person(
            &app,
            &people[name],
            "POST",
            &format!("/api/tournaments/{id}/join"),
            None,
        )
        .await;
    }
    // Its date comes: it starts by itself. Three players run out of new opponents after
    // three rounds; the Swiss then takes the fewest rematches, and plays all seven.
    crate::director::start(&app.hub, &id).await.unwrap();
    for _ in 0..7 {
        play_round(&app, &people, &id, &["ann", "bob"]).await;
    }
    let t = app.ok("GET", &format!("/api/tournaments/{id}"), None).await;
    assert_eq!(t["status"], "finished", "{t}");
    let podium: Vec<&str> = t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(podium[0], "ann");
    for (name, medal) in [
        (podium[0], "gold"),
        (podium[1], "silver"),
        (podium[2], "bronze"),
    ] {
        let profile = app.ok("GET", &format!("/api/players/{name}"), None).await;
        assert_eq!(profile["medals"][medal], 1, "{name}: {profile}");
    }
    // The next edition is made once this one is over.
    let next =
        crate::director::schedule::next_edition(&app.hub, Championship::MonthlyBlitz, now).await;
    assert!(next.unwrap().is_some());
}

#[tokio::test]
async fn a_player_who_does_not_move_forfeits_and_two_forfeits_withdraw_them() {
    let app = App::new().await;
    let people = people(&app, &["ann", "bob", "cy"]).await;
    let mut body = swiss(4);
    body["clock"] = json!({"kind": "live", "initial_s": 1, "increment_s": 0});
    let id = started(&app, &people, body, &["ann", "bob", "cy"]).await;
    // Nobody moves: each game's first mover loses on time a second after the pairing,
    // and the next round is paired at once.
    let path = format!("/api/tournaments/{id}");
    let t = app.get_until(&path, |t| t["status"] == "finished").await;
    assert_eq!(t["status"], "finished", "{t}");
    let mut forfeits: BTreeMap<String, usize> = BTreeMap::new();
    for p in t["pairings"].as_array().unwrap() {
        let Some(black) = p["black"].as_str() else {
            continue;
        };
        assert_eq!(p["result"], "0-1", "{p}");
        assert_eq!(p["forfeit"], true, "{p}");
        // Nobody plays after their second forfeit.
        assert!(
            forfeits.get(black).copied().unwrap_or(0) < 2,
            "{black} paired after two forfeits: {t}"
        );
        assert!(
            forfeits
                .get(p["white"].as_str().unwrap())
                .copied()
                .unwrap_or(0)
                < 2
        );
        *forfeits.entry(black.to_string()).or_default() += 1;
    }
    for s in t["standings"].as_array().unwrap() {
        let name = s["name"].as_str().unwrap();
        let twice = forfeits.get(name).copied().unwrap_or(0) >= 2;
        assert_eq!(s["active"], !twice, "{name}: {t}");
    }
    assert!(forfeits.values().any(|&n| n >= 2), "{t}");
}

#[tokio::test]
async fn a_player_who_makes_no_first_move_in_a_minute_loses_by_forfeit() {
    let app = App::new().await;
    let people = people(&app, &["ann", "bob"]).await;
    let id = started(&app, &people, swiss(2), &["ann", "bob"]).await;
    let path = format!("/api/tournaments/{id}");
    let t = app.ok("GET", &path, None).await;
    let game = t["pairings"][0]["game"].as_str().unwrap().to_string();
    let view = app.ok("GET", &format!("/api/games/{game}"), None).await;
    // A five-minute clock, but a minute for the first move, which loses by forfeit.
    assert_eq!(view["first_move_missed"], "forfeit", "{view}");
    let by = view["first_move_by"].as_i64().unwrap();
    let paired = by - 60_000;
    assert!((paired - crate::clock::now_ms()).abs() < 5_000, "{view}");
    // The minute passed while the server was down: nobody could move meanwhile, so the
    // server taking the game up gives Black a minute from then.
    app.tamper(&format!(
        "UPDATE games SET running_since = running_since - 61000, started_at = started_at - 61000 WHERE id = '{game}'"
    ))
    .await
    .unwrap();
    let app = app.restart().await;
    assert!(app.hub.resume_clocks().await.unwrap() >= 1);
    let view = app.ok("GET", &format!("/api/games/{game}"), None).await;
    assert_eq!(view["result"], Value::Null, "{view}");
    let by = view["first_move_by"].as_i64().unwrap();
    assert!(
        (by - 60_000 - crate::clock::now_ms()).abs() < 5_000,
        "{view}"
    );
    // That minute passes too: the server ends the game on its own.
    let open = app.hub.open(&game).await.unwrap();
    {
        let mut live = open.game.lock().await;
        live.resumed_at = Some(crate::clock::now_ms() - 61_000);
        let view = live.view(crate::clock::now_ms());
        app.hub.after_change(&open, &live, &view);
    }
    let view = app
        .get_until(&format!("/api/games/{game}"), |g| !g["result"].is_null())
        .await;
    assert_eq!(
        view["result"],
        json!({"result": "0-1", "reason": "forfeit", "winner": "white"}),
        "{view}"
    );
    // Won against nobody: no rating moves.
    assert_eq!(view["rating_changes"], Value::Null, "{view}");
    // White's clock was never touched; Black's stopped where the minute left it.
    let clock = &view["clock"];
    assert_eq!(clock["white_ms"], 300_000, "{clock}");
    assert!(clock["black_ms"].as_i64().unwrap() <= 240_000, "{clock}");
    let t = app
        .get_until(&path, |t| t["pairings"][0]["result"] == "0-1")
        .await;
    assert_eq!(t["pairings"][0]["result"], "0-1", "{t}");
    assert_eq!(t["pairings"][0]["forfeit"], true, "{t}");
}

#[tokio::test]
async fn an_arena_player_who_loses_without_a_move_is_paused_and_may_come_back() {
    let app = App::new().await;
    let people = people(&app, &["ann", "bob"]).await;
    let body = json!({
        "name": "Bullet arena", "format": "arena", "minutes": 60,
        "clock": {"kind": "live", "initial_s": 1, "increment_s": 0},
    });
    let id = started(&app, &people, body, &["ann", "bob"]).await;
    let path = format!("/api/tournaments/{id}");
    // Black never moves: its flag falls a second after the pairing.
    let t = app
        .get_until(&path, |t| !t["pairings"][0]["result"].is_null())
        .await;
    let first = &t["pairings"][0];
    assert_eq!(
        (first["result"].clone(), first["forfeit"].clone()),
        (json!("0-1"), json!(true)),
        "{t}"
    );
    let absent = first["black"].as_str().unwrap().to_string();
    // Paused: not paired again to keep the other waiting.
    let active = |t: &Value| {
        t["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == absent.as_str())
            .map(|s| s["active"].clone())
    };
    assert_eq!(active(&t), Some(json!(false)), "{t}");
    // Back at the board: they join again.
    let (status, t) = as_person(
        &app,
        &people[&absent],
        "POST",
        &format!("{path}/join"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{t}");
    assert_eq!(active(&t), Some(json!(true)), "{t}");
}

#[tokio::test]
async fn a_round_robin_player_who_withdraws_loses_the_game_in_progress_at_once() {
    let app = App::new().await;
    let people = people(&app, &["ann", "bob", "cy", "dan"]).await;
    let body = json!({
        "name": "Table", "format": "round-robin", "rounds": 1,
        "clock": {"kind": "correspondence", "days": 3},
    });
    let id = started(&app, &people, body, &["ann", "bob", "cy", "dan"]).await;
    // Round 1: ann-dan and bob-cy, on a clock of three days a move.
    let withdraw = format!("/api/tournaments/{id}/withdraw");
    let (status, t) = as_person(&app, &people["ann"], "POST", &withdraw, None).await;
    assert_eq!(status, StatusCode::OK, "{t}");
    let t = app.ok("GET", &format!("/api/tournaments/{id}"), None).await;
    let first = &t["pairings"][0];
    assert_eq!(
        (&first["black"], &first["white"]),
        (&json!("ann"), &json!("dan"))
    );
    assert_eq!(
        first["result"], "0-1",
        "dan does not wait out ann's clock: {t}"
    );
    let game = app
        .ok(
            "GET",
            &format!("/api/games/{}", first["game"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(game["result"]["reason"], "resignation", "{game}");
    // A tournament's game names it, with its round, and so does its record.
    assert_eq!(
        game["tournament"],
        json!({"id": id, "name": "Table", "round": 1})
    );
    let record = format!("/api/games/{}/record", first["game"].as_str().unwrap());
    let (_, pgn) = app.call("GET", &record, None).await;
    let pgn = pgn.as_str().unwrap().to_string();
    assert!(
        pgn.contains("[Event \"Table\"]\n") && pgn.contains("[Round \"1\"]\n"),
        "{pgn}"
    );
    // Nor is there a rematch outside the tournament.
    let rematch = format!("/api/games/{}/rematch", first["game"].as_str().unwrap());
    let (status, refused) = as_person(&app, &people["dan"], "POST", &rematch, None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    // The other game plays on.
    assert_eq!(t["pairings"][1]["result"], Value::Null, "{t}");
}

#[tokio::test]
async fn a_swiss_player_who_withdrew_may_join_again() {
    let app = App::new().await;
    let people = people(&app, &["ann", "bob", "cy"]).await;
    let body = json!({
        "name": "Back again", "format": "swiss", "rounds": 3,
        "clock": {"kind": "correspondence", "days": 3},
    });
    let id = started(&app, &people, body, &["ann", "bob", "cy"]).await;
    let path = |action: &str| format!("/api/tournaments/{id}/{action}");
    let active = |t: &Value| {
        let standings = t["standings"].as_array().unwrap();
        let cy = standings.iter().find(|s| s["name"] == "cy").unwrap();
        cy["active"].as_bool().unwrap()
    };
    let (status, t) = as_person(&app, &people["cy"], "POST", &path("withdraw"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!active(&t), "{t}");
    let (status, t) = as_person(&app, &people["cy"], "POST", &path("join"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(active(&t), "{t}");
}
