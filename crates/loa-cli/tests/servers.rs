//! `loa serve` processes sharing one PostgreSQL database, as behind a load balancer: a
//! move made through one reaches a watcher on the other, and one killed with `kill -9`
//! loses nothing: its games go on through the other. Skipped where PostgreSQL is not
//! installed (required in CI).

mod common;

use common::server::{first_move, next_message, token, two_people, Server};
use loa_web::testing::TestDatabase;
use loa_web::Database;
use serde_json::json;
use std::path::Path;
use std::time::{Duration, Instant};

fn two_servers(db: &TestDatabase) -> (Server, Server) {
    let Database::Postgres(url) = &db.database else {
        unreachable!("a PostgreSQL test database")
    };
    (Server::start(Path::new(url)), Server::start(Path::new(url)))
}

#[test]
fn a_server_killed_loses_nothing_and_its_games_go_on_through_the_other() {
    let Some(db) = TestDatabase::postgres_blocking() else {
        return;
    };
    let (one, other) = two_servers(&db);
    let created = one.create(two_people());
    let id = created["id"].as_str().unwrap().to_string();
    // A page watching through the second server.
    let mut socket = other.socket(&id);
    assert_eq!(next_message(&mut socket)["ply"], 0);
    let game = one.get(&format!("/api/games/{id}"));
    let sent = Instant::now();
    one.play(&created, &game, &first_move(&game));
    let seen = next_message(&mut socket);
    assert_eq!(seen["ply"], 1, "{seen}");
    assert!(sent.elapsed() < Duration::from_secs(1));
    let engine_game = one.create(json!({"black": "human", "white": {"engine": {"level": 1}}}));
    let engine_id = engine_game["id"].as_str().unwrap().to_string();

    one.kill();

    // The game goes on through the other server, with the move made before the kill.
    let game = other.get(&format!("/api/games/{id}"));
    assert_eq!(game["ply"], 1, "{game}");
    let moved = other.play(&created, &game, &first_move(&game));
    assert_eq!(moved["ply"], 2, "{moved}");
    assert_eq!(next_message(&mut socket)["ply"], 2);
    // So does the game against the engine made on the killed server: one reply a move.
    let game = other.get(&format!("/api/games/{engine_id}"));
    let (status, answer) = other.call(
        "POST",
        &format!("/api/games/{engine_id}/moves"),
        Some(json!({"move": first_move(&game), "token": token(&engine_game, "black")})),
    );
    assert_eq!(status, 200, "{answer}");
    let replied = other.wait_for(&engine_id, "the engine's reply", |g| g["ply"] == 2);
    assert_eq!(replied["movers"], json!(["black", "white"]));
}

#[test]
fn a_challenge_made_through_one_server_reaches_its_player_on_the_other_at_once() {
    let Some(db) = TestDatabase::postgres_blocking() else {
        return;
    };
    let (one, other) = two_servers(&db);
    let ann = one.sign_up("Ann");
    let bob = other.sign_up("Bob");
    let mut socket = other.account_socket(Some(&bob)).expect("Bob's socket");
    assert_eq!(next_message(&mut socket), json!({"challenges": []}));
    assert_eq!(next_message(&mut socket), json!({"waiting": []}));
    let body = json!({"to": "Bob", "variant": "standard", "rules": "draw", "rated": false,
                      "color": "black", "clock": {"kind": "live", "initial_s": 60, "increment_s": 1}});
    let (status, made, _) = one.call_with(
        "POST",
        "/api/challenges",
        Some(body),
        &[("Cookie", ann.as_str())],
    );
    assert_eq!(status, 201, "{made}");
    let heard = next_message(&mut socket);
    assert_eq!(heard["challenges"][0]["id"], made["id"], "{heard}");
    assert_eq!(heard["challenges"][0]["from"], "Ann");
    // Signed out everywhere through the first server: the socket on the second closes.
    let (status, _, _) =
        one.call_with("DELETE", "/api/sessions", None, &[("Cookie", bob.as_str())]);
    assert_eq!(status, 204);
    if let tungstenite::stream::MaybeTlsStream::Plain(stream) = socket.get_mut() {
        stream
            .set_read_timeout(Some(Duration::from_secs(2)))
            .unwrap();
    }
    match socket.read() {
        Ok(tungstenite::Message::Close(_)) | Err(tungstenite::Error::ConnectionClosed) => {}
        Ok(other) => panic!("nothing more after the sign-out: {other}"),
        Err(err) => panic!("the socket was not closed: {err}"),
    }
}
