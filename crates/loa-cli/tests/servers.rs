//! `loa serve` processes sharing one PostgreSQL database, as behind a load balancer: a
//! move made through one reaches a watcher on the other, and one killed with `kill -9`
//! loses nothing: its games go on through the other. Skipped where PostgreSQL is not
//! installed (required in CI).

mod common;

use common::server::{first_move, token, two_people, Server};
use loa_web::testing::TestDatabase;
use loa_web::Database;
use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, Instant};

fn two_servers(db: &TestDatabase) -> (Server, Server) {
    let Database::Postgres(url) = &db.database else {
        unreachable!("a PostgreSQL test database")
    };
    (Server::start(Path::new(url)), Server::start(Path::new(url)))
}

/// The next view the socket sends, within a second.
fn next_view(
    socket: &mut tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>>,
) -> Value {
    if let tungstenite::stream::MaybeTlsStream::Plain(stream) = socket.get_mut() {
        stream
            .set_read_timeout(Some(Duration::from_secs(1)))
            .unwrap();
    }
    loop {
        match socket.read().expect("a view within a second") {
            tungstenite::Message::Text(text) => return serde_json::from_str(&text).unwrap(),
            _ => continue,
        }
    }
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
    assert_eq!(next_view(&mut socket)["ply"], 0);
    let game = one.get(&format!("/api/games/{id}"));
    let sent = Instant::now();
    one.play(&created, &game, &first_move(&game));
    let seen = next_view(&mut socket);
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
    assert_eq!(next_view(&mut socket)["ply"], 2);
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
