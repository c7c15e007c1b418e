//! `loa serve` against its real database file: games against the engine, online games
//! with tokens and clocks, the WebSocket, bad input of every kind, and a `kill -9` in the
//! middle of a live game.

mod common;

use common::server::{first_move, next_message, token, two_people, Server};
use common::{loa, stderr};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};
use tungstenite::Message;

fn db() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.db");
    (dir, path)
}

fn id_of(created: &Value) -> String {
    created["id"].as_str().unwrap().to_string()
}

#[test]
fn a_whole_game_against_the_engine_is_played_and_kept() {
    let (_dir, path) = db();
    let server = Server::start(&path);
    let created = server.create(json!({"black": "human", "white": {"engine": {"level": 1}}}));
    let id = id_of(&created);
    assert_eq!(
        created["position"],
        "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b"
    );
    let mut game = created["game"].clone();
    while game["result"].is_null() {
        let ply = game["ply"].as_u64().unwrap();
        let moved = server.post(
            &format!("/api/games/{id}/moves"),
            json!({"move": first_move(&game), "ply": ply, "token": token(&created, "black")}),
        );
        game = server.wait_for(&id, "the engine's reply", |g| {
            !g["result"].is_null() || g["ply"].as_u64() == Some(ply + 2)
        });
        assert!(moved["ply"].as_u64().unwrap() > ply);
        assert!(ply < 400, "the game should end");
    }
    assert_eq!(game["result"]["reason"], "connection");
    // The record replays under the plain rules to the same end.
    let record = ureq::get(&server.url(&format!("/api/games/{id}/record?format=pgn")))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    let mut games = loa_core::record::read_games(&record);
    let replay = games.next().unwrap().unwrap().replay.game;
    assert!(games.next().is_none(), "{record}");
    assert_eq!(replay.ply(), game["moves"].as_array().unwrap().len());
    assert!(replay.is_over());
    let list = server.get("/api/games");
    assert_eq!(list[0]["id"], id.as_str());
    assert_eq!(list[0]["moves"], game["ply"]);
}

#[test]
fn bad_requests_get_a_4xx_with_a_message_and_change_nothing() {
    let (_dir, path) = db();
    let server = Server::start(&path);
    let at_board = server.create(two_people());
    let id = id_of(&at_board);
    let black = token(&at_board, "black");
    let engine_created =
        server.create(json!({"black": {"engine": {"level": 8}}, "white": "human"}));
    let engine_game = id_of(&engine_created);
    let engine_white = token(&engine_created, "white");
    let online = server.create(json!({"black": "human", "white": "human", "online": true}));
    let online_id = id_of(&online);
    let cases: Vec<(&str, String, Option<Value>, u16)> = vec![
        ("GET", "/api/games/aaaaaaaaaaaaaaaaaaaa".into(), None, 404),
        ("GET", "/api/games/not-an-id".into(), None, 404),
        ("GET", "/api/games/../../etc/passwd".into(), None, 404),
        (
            "POST",
            format!("/api/games/{id}/moves"),
            Some(json!({"move": "b1-b9", "token": black})),
            400,
        ),
        (
            "POST",
            format!("/api/games/{id}/moves"),
            Some(json!({"move": "b1-b4", "token": black})),
            400,
        ),
        (
            "POST",
            format!("/api/games/{id}/moves"),
            Some(json!({"move": 42})),
            422,
        ),
        (
            "POST",
            format!("/api/games/{id}/moves"),
            Some(json!({"move": "b1-b3", "extra": 1})),
            422,
        ),
        (
            "POST",
            format!("/api/games/{id}/moves"),
            Some(json!({"move": "b1-b3", "ply": 5, "token": black})),
            409,
        ),
        (
            "POST",
            format!("/api/games/{engine_game}/moves"),
            Some(json!({"move": "a2-a4", "token": engine_white})),
            409,
        ),
        (
            "POST",
            format!("/api/games/{online_id}/moves"),
            Some(json!({"move": "b1-b3"})),
            403,
        ),
        (
            "POST",
            format!("/api/games/{online_id}/moves"),
            Some(json!({"move": "b1-b3", "token": "x"})),
            403,
        ),
        (
            "POST",
            format!("/api/games/{online_id}/join"),
            Some(json!({"token": "nope"})),
            403,
        ),
        (
            "POST",
            format!("/api/games/{id}/resign"),
            Some(json!({"side": "green"})),
            400,
        ),
        (
            "POST",
            "/api/games".into(),
            Some(json!({"black": "human"})),
            422,
        ),
        (
            "POST",
            "/api/games".into(),
            Some(json!({"black": "human", "white": "human", "position": "8/8 b"})),
            400,
        ),
        (
            "POST",
            "/api/games".into(),
            Some(json!({"black": "human", "white": "human", "variant": "go"})),
            400,
        ),
        (
            "POST",
            "/api/games".into(),
            Some(json!({"black": "human", "white": "human", "record": "(;FF[4]"})),
            400,
        ),
        (
            "POST",
            "/api/games".into(),
            Some(json!({"black": "human", "white": {"engine": {"level": 99}}})),
            400,
        ),
        (
            "POST",
            "/api/games".into(),
            Some(
                json!({"black": "human", "white": "human", "clock": {"kind": "live", "initial_s": 1e30, "increment_s": 0}}),
            ),
            422,
        ),
        (
            "POST",
            "/api/position".into(),
            Some(json!({"position": "zzz"})),
            400,
        ),
        (
            "POST",
            "/api/records".into(),
            Some(json!({"record": "[Event \"x\"]\n\n1. b1-b9 *"})),
            400,
        ),
        (
            "POST",
            "/api/evaluate".into(),
            Some(json!({"positions": [], "depth": 60})),
            400,
        ),
        (
            "GET",
            format!("/api/games/{id}/record?format=doc"),
            None,
            400,
        ),
        ("GET", "/api/nothing".into(), None, 404),
    ];
    for (method, path, body, expected) in cases {
        let (status, answer) = server.call(method, &path, body);
        assert_eq!(status, expected, "{method} {path}: {answer}");
        assert!(answer["error"].is_string(), "{method} {path}: {answer}");
    }
    // A body that is not JSON at all.
    let raw = ureq::post(&server.url("/api/games"))
        .set("content-type", "application/json")
        .send_string("{\"black\":");
    match raw {
        Err(ureq::Error::Status(400, response)) => {
            let body: Value = response.into_json().unwrap();
            assert!(body["error"].is_string());
        }
        other => panic!("{other:?}"),
    }
    // A body over the limit is refused from its length alone, before it is read: the
    // server answers and closes, so a client still writing it may see a broken pipe
    // instead of the answer. Only the headers are sent here, which makes that certain.
    let mut socket = TcpStream::connect(server.url("").trim_start_matches("http://")).unwrap();
    write!(
        socket,
        "POST /api/games HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n\
         content-length: 1100000\r\nconnection: close\r\n\r\n"
    )
    .unwrap();
    socket
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut answer = String::new();
    socket.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("\"error\""), "{answer}");
    // Nothing was played.
    assert_eq!(server.get(&format!("/api/games/{id}"))["ply"], 0);
    assert_eq!(server.get(&format!("/api/games/{online_id}"))["ply"], 0);
}

#[test]
fn an_online_game_starts_when_both_join_and_a_flag_falls_on_the_server() {
    let (_dir, path) = db();
    let server = Server::start(&path);
    let created = server.create(json!({
        "black": "human", "white": "human", "online": true,
        "clock": {"kind": "live", "initial_s": 1, "increment_s": 0}
    }));
    let id = id_of(&created);
    let black = created["tokens"]["black"].as_str().unwrap().to_string();
    let white = created["tokens"]["white"].as_str().unwrap().to_string();
    assert_ne!(black, white);
    let moves = format!("/api/games/{id}/moves");
    // Before the other player opens the link, no move is taken.
    server.post(&format!("/api/games/{id}/join"), json!({"token": black}));
    let (status, _) = server.call(
        "POST",
        &moves,
        Some(json!({"move": "b1-b3", "token": black})),
    );
    assert_eq!(status, 409);
    let game = server.post(&format!("/api/games/{id}/join"), json!({"token": white}));
    assert_eq!(game["started"], true);
    assert_eq!(
        server.get(&format!("/api/games/{id}?token={white}"))["you"],
        "white"
    );
    // White may not move for Black.
    let (status, _) = server.call(
        "POST",
        &moves,
        Some(json!({"move": "b1-b3", "token": white})),
    );
    assert_eq!(status, 403);
    let mut socket = server.socket(&id);
    server.post(&moves, json!({"move": "b1-b3", "token": black}));
    // White never answers: the flag falls on the server, and the socket hears of it.
    let mut reason = Value::Null;
    while reason.is_null() {
        let Message::Text(text) = socket.read().unwrap() else {
            continue;
        };
        let view: Value = serde_json::from_str(&text).unwrap();
        reason = view["result"]["reason"].clone();
    }
    assert_eq!(reason, "time");
    let game = server.get(&format!("/api/games/{id}"));
    assert_eq!(game["result"]["winner"], "black");
    assert_eq!(game["clock"]["white_ms"], 0);
}

#[test]
fn a_kill_9_in_a_live_game_loses_nothing_and_the_clock_runs_on() {
    let (_dir, path) = db();
    let server = Server::start(&path);
    let created = server.create(json!({
        "black": "human", "white": "human",
        "clock": {"kind": "live", "initial_s": 300, "increment_s": 2}
    }));
    let id = id_of(&created);
    let mut game = created["game"].clone();
    for mv in ["b1-b3", "a2-c2", "g1-g3"] {
        game = server.play(&created, &game, mv);
    }
    let before = server.get(&format!("/api/games/{id}"));
    std::thread::sleep(Duration::from_millis(300));
    server.kill();
    std::thread::sleep(Duration::from_millis(500));
    let server = Server::start(&path);
    let after = server.get(&format!("/api/games/{id}"));
    assert_eq!(after["moves"], before["moves"]);
    // Black's time stood still after its move; White's ran on through the restart.
    assert_eq!(after["clock"]["black_ms"], before["clock"]["black_ms"]);
    let white_before = before["clock"]["white_ms"].as_u64().unwrap();
    let white_after = after["clock"]["white_ms"].as_u64().unwrap();
    assert!(
        white_after + 700 <= white_before,
        "{white_before} -> {white_after}"
    );
    assert!(white_before - white_after < 30_000);
    assert_eq!(after["clock"]["running"], "white");
    assert_eq!(
        after["clock"]["move_clocks"],
        before["clock"]["move_clocks"]
    );
    // And the game goes on.
    let next = server.play(&created, &after, &first_move(&after));
    assert_eq!(next["ply"], 4);
}

#[test]
fn the_socket_checks_its_origin_and_sends_each_change() {
    let (_dir, path) = db();
    let server = Server::start(&path);
    let created = server.create(two_people());
    let id = id_of(&created);
    let url = format!(
        "{}/api/games/{id}/socket",
        server.base.replace("http://", "ws://")
    );
    let mut request =
        tungstenite::client::IntoClientRequest::into_client_request(url.as_str()).unwrap();
    request
        .headers_mut()
        .insert("origin", "http://evil.example".parse().unwrap());
    match tungstenite::connect(request) {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 403),
        other => panic!(
            "a foreign page's socket must be refused: {:?}",
            other.map(|_| ())
        ),
    }
    let mut request =
        tungstenite::client::IntoClientRequest::into_client_request(url.as_str()).unwrap();
    let own = server.base.clone();
    request.headers_mut().insert("origin", own.parse().unwrap());
    let (mut socket, _) = tungstenite::connect(request).expect("this server's page may");
    let first: Value = serde_json::from_str(socket.read().unwrap().to_text().unwrap()).unwrap();
    assert_eq!(first["ply"], 0);
    server.play(&created, &first, "b1-b3");
    let next: Value = serde_json::from_str(socket.read().unwrap().to_text().unwrap()).unwrap();
    assert_eq!(next["ply"], 1);
    assert_eq!(next["last_move"]["text"], "b1-b3");
    // The page closes: the server answers its close frame, as the protocol asks (a
    // dropped connection reads as an error, 1006, on the page).
    socket.close(None).unwrap();
    loop {
        match socket.read() {
            Ok(Message::Close(_)) | Err(tungstenite::Error::ConnectionClosed) => break,
            Ok(_) => {}
            Err(other) => panic!("the close was not answered: {other}"),
        }
    }
}

#[test]
fn a_persons_socket_tells_of_challenges_and_games_waiting_as_they_change() {
    let (_dir, path) = db();
    let server = Server::start(&path);
    assert_eq!(server.account_socket(None).err(), Some(401));
    let ann = server.sign_up("Ann");
    let bob = server.sign_up("Bob");
    let mut socket = server.account_socket(Some(&bob)).expect("Bob's socket");
    assert_eq!(next_message(&mut socket), json!({"challenges": []}));
    assert_eq!(next_message(&mut socket), json!({"waiting": []}));
    let as_ann = [("Cookie", ann.as_str())];
    let body = json!({"to": "bob", "variant": "standard", "rules": "draw", "rated": false,
                      "color": "white", "clock": {"kind": "correspondence", "days": 3}});
    let (status, made, _) = server.call_with("POST", "/api/challenges", Some(body), &as_ann);
    assert_eq!(status, 201, "{made}");
    let heard = next_message(&mut socket);
    assert_eq!(heard["challenges"][0]["id"], made["id"], "{heard}");
    let accept = format!("/api/challenges/{}/accept", id_of(&made));
    let (status, accepted, _) =
        server.call_with("POST", &accept, None, &[("Cookie", bob.as_str())]);
    assert_eq!(status, 201, "{accepted}");
    // Bob plays Black: the new game waits for his move; the challenge is gone.
    let mut last = Value::Null;
    let mut heard = Vec::new();
    while heard.len() < 2 {
        let message = next_message(&mut socket);
        if let Some(waiting) = message.get("waiting") {
            last = waiting.clone();
            if last.as_array().is_some_and(|games| !games.is_empty()) && !heard.contains(&"waiting")
            {
                heard.push("waiting");
            }
        } else if message["challenges"] == json!([]) {
            heard.push("challenges");
        }
    }
    assert_eq!(last[0]["id"], accepted["game"], "{last}");
    socket.close(None).unwrap();
    // A program follows it with an API token.
    let (_, made, _) = server.call_with(
        "POST",
        "/api/tokens",
        Some(json!({"label": "bot"})),
        &[("Cookie", ann.as_str())],
    );
    let bearer = format!("Bearer {}", made["token"].as_str().unwrap());
    let url = format!("{}/api/me/socket", server.base.replace("http://", "ws://"));
    let mut request =
        tungstenite::client::IntoClientRequest::into_client_request(url.as_str()).unwrap();
    request
        .headers_mut()
        .insert("authorization", bearer.parse().unwrap());
    let (mut socket, _) = tungstenite::connect(request).expect("a token opens it");
    assert_eq!(next_message(&mut socket), json!({"challenges": []}));
    assert_eq!(next_message(&mut socket), json!({"waiting": []}));
    // The token revoked, the socket it opened closes.
    let revoke = format!("/api/tokens/{}", made["id"]);
    let (status, _, _) = server.call_with("DELETE", &revoke, None, &[("Cookie", ann.as_str())]);
    assert_eq!(status, 204);
    match socket.read() {
        Ok(Message::Close(_)) | Err(tungstenite::Error::ConnectionClosed) => {}
        other => panic!("the socket was not closed: {other:?}"),
    }
}

#[test]
fn the_analysis_shows_a_win_the_solver_proves_with_its_line() {
    let (_dir, path) = db();
    let server = Server::start(&path);
    let url = format!("{}/api/analysis", server.base.replace("http://", "ws://"));
    let mut request =
        tungstenite::client::IntoClientRequest::into_client_request(url.as_str()).unwrap();
    let own = server.base.clone();
    request.headers_mut().insert("origin", own.parse().unwrap());
    let (mut socket, _) = tungstenite::connect(request).expect("this server's page may");
    // White (h1, h5) to move cannot join; Black (a1, c1) joins next whatever White does.
    let position = "8/8/8/7w/8/8/8/b1b4w w";
    let ask = json!({ "variant": "standard", "rules": "draw", "position": position, "moves": [] });
    socket.send(Message::text(ask.to_string())).unwrap();
    let proved = loop {
        let message: Value =
            serde_json::from_str(socket.read().unwrap().to_text().unwrap()).unwrap();
        assert_ne!(message["type"], "error", "{message}");
        if message["type"] == "proved" {
            break message;
        }
    };
    assert_eq!(proved["position"], position);
    assert_eq!(proved["winner"], "black");
    assert_eq!(proved["moves"], 2, "{proved}");
    let line = proved["line"].as_array().unwrap();
    assert_eq!(line.len(), 2, "{proved}");
    assert!(
        line[1].as_str().unwrap().starts_with("a1-")
            || line[1].as_str().unwrap().starts_with("c1-"),
        "{proved}"
    );
}

#[test]
fn behind_a_proxy_the_socket_is_open_to_the_public_urls_pages() {
    let (_dir, path) = db();
    // A proxy that passes its own Host on: the origin compared is the public URL's.
    let server = Server::start_with(&path, &["--public-url", "https://loa.example"]);
    let created = server.create(two_people());
    let url = format!(
        "{}/api/games/{}/socket",
        server.base.replace("http://", "ws://"),
        id_of(&created)
    );
    let connect = |origin: &str| {
        let mut request =
            tungstenite::client::IntoClientRequest::into_client_request(url.as_str()).unwrap();
        request
            .headers_mut()
            .insert("origin", origin.parse().unwrap());
        tungstenite::connect(request)
    };
    let (mut socket, _) = connect("https://loa.example").expect("the site's page may");
    let first: Value = serde_json::from_str(socket.read().unwrap().to_text().unwrap()).unwrap();
    assert_eq!(first["ply"], 0);
    for foreign in ["http://evil.example", server.base.as_str()] {
        match connect(foreign) {
            Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 403),
            other => panic!(
                "{foreign}'s socket must be refused: {:?}",
                other.map(|_| ())
            ),
        }
    }
}

#[test]
fn a_slow_client_cannot_hold_a_connection() {
    let (_dir, path) = db();
    let server = Server::start_with(&path, &["--client-timeout", "1"]);
    let address = server.base.trim_start_matches("http://").to_string();
    let connect = || {
        let stream = TcpStream::connect(&address).unwrap();
        // Far past the client timeout: a server that waits on fails the read.
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        stream
    };
    let answer_to = |mut stream: TcpStream, sent: &str| {
        stream.write_all(sent.as_bytes()).unwrap();
        let started = Instant::now();
        let mut answer = Vec::new();
        let read = stream.read_to_end(&mut answer);
        assert!(read.is_ok(), "the connection is held: {read:?}");
        assert!(started.elapsed() < Duration::from_secs(5));
        String::from_utf8_lossy(&answer).into_owned()
    };
    // A head that never ends: the connection is closed.
    let head = answer_to(connect(), "GET /api/meta HTTP/1.1\r\nHost: localhost\r\n");
    assert!(!head.contains("200 OK"), "{head}");
    // A body that never comes whole: 408, and the connection closed.
    let body = answer_to(
        connect(),
        "POST /api/position HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\n\
         content-length: 100\r\n\r\n{\"position\": ",
    );
    assert!(body.starts_with("HTTP/1.1 408"), "{body}");
    assert!(body.contains("did not come within 1 seconds"), "{body}");
    // A client in time is served as ever.
    assert_eq!(server.call("GET", "/api/meta", None).0, 200);
}

#[test]
fn on_loopback_the_server_answers_to_its_own_names_only() {
    // Another site's name pointed at 127.0.0.1 (DNS rebinding) must not reach it.
    let (_dir, path) = db();
    let server = Server::start(&path);
    let address = server.base.trim_start_matches("http://").to_string();
    let port = address.rsplit(':').next().unwrap().to_string();
    assert_eq!(status_for(&address, &format!("evil.example:{port}")), "421");
    assert_eq!(status_for(&address, &format!("localhost:{port}")), "200");
    assert_eq!(status_for(&address, &format!("127.0.0.1:{port}")), "200");
    // With a public address, the proxy's names are the server's business.
    let (_dir, path) = db();
    let proxied = Server::start_with(&path, &["--public-url", "https://loa.example"]);
    let address = proxied.base.trim_start_matches("http://").to_string();
    assert_eq!(status_for(&address, "loa.example"), "200");
}

/// The status of `GET /api/meta` sent to `address` naming `host`.
fn status_for(address: &str, host: &str) -> String {
    let mut stream = TcpStream::connect(address).unwrap();
    write!(
        stream,
        "GET /api/meta HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
        .split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .to_string()
}

#[test]
fn offers_takebacks_and_resignation() {
    let (_dir, path) = db();
    let server = Server::start(&path);
    let created = server.create(two_people());
    let id = id_of(&created);
    let (black, white) = (token(&created, "black"), token(&created, "white"));
    let at = |p: &str| format!("/api/games/{id}/{p}");
    let game = server.play(&created, &created["game"], "b1-b3");
    server.play(&created, &game, "a2-c2");
    let back = server.post(&at("takeback"), json!({"token": white}));
    assert_eq!(back["moves"], json!(["b1-b3"]));
    let offered = server.post(&at("draw"), json!({"token": white, "side": "white"}));
    assert_eq!(offered["draw_offer"], "white");
    let drawn = server.post(&at("draw"), json!({"token": black}));
    assert_eq!(drawn["result"]["reason"], "agreement");
    assert_eq!(drawn["result"]["result"], "1/2-1/2");
    let (status, _) = server.call("POST", &at("resign"), Some(json!({"token": black})));
    assert_eq!(status, 409);
    // Against the engine a takeback goes back to before the person's last move.
    let engine_created =
        server.create(json!({"black": "human", "white": {"engine": {"level": 1}}}));
    let engine = id_of(&engine_created);
    let person = json!({"token": token(&engine_created, "black")});
    server.play(&engine_created, &engine_created["game"], "b1-b3");
    server.wait_for(&engine, "the engine's reply", |g| g["ply"] == 2);
    let back = server.post(&format!("/api/games/{engine}/takeback"), person.clone());
    assert_eq!(back["ply"], 0);
    let resigned = server.post(&format!("/api/games/{engine}/resign"), person);
    assert_eq!(resigned["result"]["winner"], "white");
    assert_eq!(resigned["result"]["reason"], "resignation");
}

#[test]
fn every_variant_is_set_up_played_and_described() {
    let (_dir, path) = db();
    let server = Server::start(&path);
    for variant in [
        "standard",
        "scrambled-eggs",
        "parachute",
        "ambiloa",
        "neighbors",
        "fields-of-action",
    ] {
        let created =
            server.create(json!({"variant": variant, "black": "human", "white": "human"}));
        let mut game = created["game"].clone();
        for _ in 0..6 {
            if !game["result"].is_null() {
                break;
            }
            game = server.play(&created, &game, &first_move(&game));
        }
        assert_eq!(game["variant"], variant);
        let view = server.post(
            "/api/position",
            json!({"variant": variant, "position": game["start"], "moves": game["moves"]}),
        );
        assert_eq!(view["position"], game["position"]["position"], "{variant}");
        assert_eq!(view["line"], game["positions"], "{variant}");
    }
    // Four seats: the partnership game with an engine at one of them.
    let created = server.create(json!({
        "variant": "ambiloa", "black": ["human", {"engine": {"level": 1}}], "white": "human"
    }));
    let id = id_of(&created);
    let mut game = created["game"].clone();
    // B, W, then b is the engine's.
    for _ in 0..2 {
        game = server.play(&created, &game, &first_move(&game));
    }
    let game = server.wait_for(&id, "the engine's b move", |g| g["ply"] == 3);
    assert_eq!(game["to_move_slot"], "white");
    // A 6x6 game, and a game from an SGF record.
    let small = server.create(json!({"board": 6, "black": "human", "white": "human"}));
    assert_eq!(small["game"]["position"]["size"], 6);
    let from_record = server.create(json!({
        "record": "(;FF[4]GM[9]SU[Standard];B[b1-b3];W[a2-c2])", "black": "human", "white": "human"
    }));
    assert_eq!(from_record["game"]["ply"], 2);
}

#[test]
fn a_url_for_the_database_is_postgres_or_refused_and_makes_no_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = common::loa_in(
        dir.path(),
        &["serve", "--port", "0", "--db", "sqlite://games.db"],
        "",
        common::HANG,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("is a URL: give a file path (SQLite) or a postgres:// URL"),
        "{err}"
    );
    // A PostgreSQL server nobody runs: said at once, its password never shown.
    let out = common::loa_in(
        dir.path(),
        &[
            "serve",
            "--port",
            "0",
            "--db",
            "postgres://user:secret@127.0.0.1:1/games",
        ],
        "",
        common::HANG,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("cannot open the database postgres://user:***@127.0.0.1:1/games"),
        "{err}"
    );
    assert!(!err.contains("secret"), "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // A database that takes the connection and never answers: refused in seconds, not
    // waited on for ever.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!(
        "postgres://user@127.0.0.1:{}/games",
        silent.local_addr().unwrap().port()
    );
    let started = Instant::now();
    let out = common::loa_in(
        dir.path(),
        &["serve", "--port", "0", "--db", &url],
        "",
        common::HANG,
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("did not answer within 10 s"),
        "{}",
        stderr(&out)
    );
    assert!(started.elapsed() < Duration::from_secs(20));
    drop(silent);
}

#[test]
fn every_engine_level_has_its_bot_profile_from_the_start() {
    let (_dir, path) = db();
    for _start in 0..2 {
        // Made at the first start, found at the next.
        let server = Server::start(&path);
        for level in 1..=8 {
            let name = format!("loa-level-{level}");
            let profile = server.get(&format!("/api/players/{name}"));
            assert_eq!(
                (profile["name"].as_str(), &profile["bot"]),
                (Some(name.as_str()), &json!(true))
            );
        }
        let (status, _) = server.call("GET", "/api/players/loa-level-9", None);
        assert_eq!(status, 404);
        server.kill();
    }
}

#[test]
fn a_sqlite_file_serves_one_server() {
    let (dir, path) = db();
    let first = Server::start(&path);
    let out = common::loa_in(
        dir.path(),
        &["serve", "--port", "0", "--db", path.to_str().unwrap()],
        "",
        common::HANG,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("is in use by another loa serve: a SQLite file serves one server"),
        "{err}"
    );
    // Once the first is gone (kill -9 too), the file is free.
    first.kill();
    let again = Server::start(&path);
    assert_eq!(again.get("/api/games"), serde_json::json!([]));
}

#[test]
fn a_port_in_use_is_said_before_any_folder_is_made() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("new");
    let db = folder.join("games.db");
    let out = loa(
        &["serve", "--port", &port, "--db", db.to_str().unwrap()],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!("error: cannot listen on 127.0.0.1:{port}")),
        "{err}"
    );
    assert!(!folder.exists(), "{err}");
}

#[test]
fn a_database_that_cannot_be_opened_is_said_once() {
    // A folder where the file should be.
    let dir = tempfile::tempdir().unwrap();
    let out = loa(
        &["serve", "--port", "0", "--db", dir.path().to_str().unwrap()],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out).to_lowercase();
    assert!(err.starts_with("error: cannot open the database"), "{err}");
    assert!(err.contains("is a directory"), "{err}");
    assert_eq!(err.matches("cannot open").count(), 1, "{err}");
}

#[test]
fn accounts_made_from_one_network_are_limited() {
    let (_dir, path) = db();
    let server = Server::start_with(&path, &["--client-address-header", "X-Real-IP"]);
    let sign_up = |name: &str, from: &[(&str, &str)]| {
        let body = json!({"name": name, "password": "correct horse"});
        let (status, answer, _) = server.call_with("POST", "/api/accounts", Some(body), from);
        (status, answer)
    };
    // Thirty an hour from one network: a class signing up together.
    let client = [("X-Real-IP", "2001:db8:5:6::1")];
    for n in 0..30 {
        assert_eq!(sign_up(&format!("pupil{n}"), &client).0, 201);
    }
    let (status, answer) = sign_up("pupil30", &[("X-Real-IP", "2001:db8:5:6::ff")]);
    assert_eq!(status, 429, "{answer}");
    assert!(answer["error"]
        .as_str()
        .unwrap()
        .contains("too many accounts made from your network"));
    // A name taken is said as ever.
    assert_eq!(sign_up("pupil3", &client).0, 409);
    // Another client, and this machine itself (no header), are not held back.
    assert_eq!(
        sign_up("visitor", &[("X-Real-IP", "2001:db8:5:7::1")]).0,
        201
    );
    assert_eq!(sign_up("teacher", &[]).0, 201);
}

#[test]
fn a_client_address_header_not_named_is_not_believed() {
    let (_dir, path) = db();
    let server = Server::start(&path);
    // Every sign-up names one address: without --client-address-header it is the
    // client's own word, and the peer (this machine) is the client.
    for n in 0..31 {
        let body = json!({"name": format!("pupil{n}"), "password": "correct horse"});
        let from = [
            ("X-Real-IP", "203.0.113.7"),
            ("X-Forwarded-For", "203.0.113.7"),
        ];
        let (status, answer, _) = server.call_with("POST", "/api/accounts", Some(body), &from);
        assert_eq!(status, 201, "{answer}");
    }
}

#[test]
fn a_trusted_proxy_is_a_network_and_needs_the_header() {
    for (args, said) in [
        (
            &[
                "--client-address-header",
                "X-Real-IP",
                "--trusted-proxy",
                "10.0.0.0/33",
            ][..],
            "'10.0.0.0/33' is not an address or a network like 203.0.113.0/24",
        ),
        (
            &[
                "--client-address-header",
                "X-Real-IP",
                "--trusted-proxy",
                "",
            ][..],
            "'' is not an address or a network",
        ),
        (
            &["--trusted-proxy", "203.0.113.0/24"][..],
            "--client-address-header <HEADER>",
        ),
    ] {
        let out = loa(&[&["serve", "--port", "0"][..], args].concat(), "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains(said), "{args:?}: {err}");
    }
}

#[test]
fn one_client_holds_two_of_the_engines_study_places_at_most() {
    let (_dir, path) = db();
    let server = Server::start_with(
        &path,
        &["--engines", "4", "--client-address-header", "X-Real-IP"],
    );
    let url = format!("{}/api/analysis", server.base.replace("http://", "ws://"));
    let analyse = |from: &str| {
        let mut request =
            tungstenite::client::IntoClientRequest::into_client_request(url.as_str()).unwrap();
        let headers = request.headers_mut();
        headers.insert("origin", server.base.parse().unwrap());
        headers.insert("x-real-ip", from.parse().unwrap());
        let (mut socket, _) = tungstenite::connect(request).unwrap();
        if let tungstenite::stream::MaybeTlsStream::Plain(stream) = socket.get_mut() {
            stream
                .set_read_timeout(Some(Duration::from_secs(3)))
                .unwrap();
        }
        let ask = json!({"variant": "standard", "rules": "draw", "moves": []});
        socket.send(Message::text(ask.to_string())).unwrap();
        socket
    };
    let searching = |socket: &mut tungstenite::WebSocket<_>| match socket.read() {
        Ok(message) => {
            let message: Value = serde_json::from_str(message.to_text().unwrap()).unwrap();
            assert_eq!(message["type"], "info", "{message}");
            true
        }
        Err(tungstenite::Error::Io(err)) if err.kind() == std::io::ErrorKind::WouldBlock => false,
        Err(err) => panic!("{err}"),
    };
    let mut first = analyse("203.0.113.7");
    let mut second = analyse("203.0.113.7");
    assert!(searching(&mut first) && searching(&mut second));
    // The client's third board waits for its own turn; another client's does not.
    let mut third = analyse("203.0.113.7");
    assert!(!searching(&mut third), "a third study place was taken");
    let mut other = analyse("198.51.100.1");
    assert!(searching(&mut other));
    // A board closed gives the turn on.
    drop(first);
    assert!(searching(&mut third));
}

#[test]
fn sigterm_and_ctrl_c_both_stop_the_server_cleanly() {
    for signal in ["TERM", "INT"] {
        let (_dir, path) = db();
        let server = Server::start(&path);
        let started = Instant::now();
        let ended = server.stop_with(signal);
        assert!(ended.success(), "{signal}: {ended:?}");
        assert!(started.elapsed() < Duration::from_secs(10), "{signal}");
    }
}

#[test]
fn a_mail_server_that_cannot_be_reached_is_named_in_the_log_at_the_start() {
    use std::io::BufRead;
    let (_dir, path) = db();
    // A port nothing listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_loa"))
        .args(["serve", "--port", "0", "--db"])
        .arg(&path)
        .args(["--smtp", &format!("smtp://ann:hunter22@127.0.0.1:{closed}")])
        .args(["--public-url", "https://loa.example"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (lines, seen) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr).lines() {
            if lines.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let warning = std::iter::from_fn(|| seen.recv_timeout(Duration::from_secs(20)).ok())
        .find(|line| line.contains("mail server"));
    child.kill().unwrap();
    child.wait().unwrap();
    let warning = warning.expect("a warning about the mail server");
    assert!(
        warning.contains(&format!("smtp://…@127.0.0.1:{closed} cannot be reached")),
        "{warning}"
    );
    assert!(warning.contains("tried again later"), "{warning}");
    assert!(
        !warning.contains("hunter22"),
        "the password is kept out of the log"
    );
}
