//! Many games at once through the API and the WebSockets: every move acknowledged fast,
//! every game saved intact, the server's memory bounded. The suite plays a short load;
//! `scripts/load-test.sh` plays the full one (100 games at once) and prints the figures.

mod common;

use common::server::Server;
use serde_json::{json, Value};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

struct Figures {
    latencies: Vec<Duration>,
    /// How long each sign-in took, when the players have accounts.
    sign_ins: Vec<Duration>,
    moves: usize,
    peak_kb: u64,
    elapsed: Duration,
}

/// Two signed-in players paired by a rated seek: the game's id and each side's cookie.
fn paired(server: &Server, g: usize) -> (String, [String; 2], [Duration; 2]) {
    let mut cookies = Vec::new();
    let mut times = Vec::new();
    for side in ["a", "b"] {
        let account = json!({"name": format!("p{g}{side}"), "password": "a long password"});
        let (status, _, _) = server.call_with("POST", "/api/accounts", Some(account.clone()), &[]);
        assert_eq!(status, 201);
        let asked = Instant::now();
        let (status, _, cookie) = server.call_with("POST", "/api/session", Some(account), &[]);
        times.push(asked.elapsed());
        assert_eq!(status, 200);
        cookies.push(cookie.expect("a session cookie"));
    }
    let seek = json!({"clock": {"kind": "live", "initial_s": 600, "increment_s": 5},
        "rated": true, "color": "black"});
    let (_, made, _) = server.call_with(
        "POST",
        "/api/seeks",
        Some(seek),
        &[("cookie", cookies[0].as_str())],
    );
    let accept = format!("/api/seeks/{}/accept", made["id"].as_str().unwrap());
    let (status, taken, _) =
        server.call_with("POST", &accept, None, &[("cookie", cookies[1].as_str())]);
    assert_eq!(status, 201, "{taken}");
    let id = taken["game"].as_str().unwrap().to_string();
    (
        id,
        [cookies[0].clone(), cookies[1].clone()],
        [times[0], times[1]],
    )
}

/// Plays `games` games at once, each of two people watched on its socket, for at most
/// `plies` moves each (fewer if a game ends), each move `think` after the answer to the
/// last. The people are at one board with tokens, or (`signed_in`) two accounts each,
/// paired by a rated seek, moving with their sessions.
fn load(games: usize, plies: usize, think: Duration, signed_in: bool) -> Figures {
    let dir = tempfile::tempdir().unwrap();
    let server = Arc::new(Server::start(&dir.path().join("games.db")));
    let barrier = Arc::new(Barrier::new(games));
    let started = Instant::now();
    let players: Vec<_> = (0..games)
        .map(|g| {
            let (server, barrier) = (Arc::clone(&server), Arc::clone(&barrier));
            std::thread::spawn(move || {
                let (created, cookies, sign_ins) = if signed_in {
                    let (id, cookies, times) = paired(&server, g);
                    let game = server.get(&format!("/api/games/{id}"));
                    (json!({"id": id, "game": game}), Some(cookies), times.to_vec())
                } else {
                    let created = server.create(json!({"black": "human", "white": "human"}));
                    (created, None, Vec::new())
                };
                let id = created["id"].as_str().unwrap().to_string();
                let mut socket = server.socket(&id);
                // The socket is read on its own thread, as a page reads it.
                let watcher = std::thread::spawn(move || {
                    let mut seen = 0usize;
                    while let Ok(message) = socket.read() {
                        if let Ok(text) = message.to_text() {
                            let view: Value = serde_json::from_str(text).unwrap();
                            seen = view["ply"].as_u64().unwrap() as usize;
                            if !view["result"].is_null() || seen >= plies {
                                break;
                            }
                        }
                    }
                    seen
                });
                barrier.wait();
                let mut game = created["game"].clone();
                let mut latencies = Vec::new();
                let mut sent = Vec::new();
                while game["result"].is_null() && sent.len() < plies {
                    std::thread::sleep(think);
                    let moves = game["position"]["moves"].as_array().unwrap();
                    // A varied but repeatable choice of move.
                    let mv = moves[(g * 7 + sent.len() * 13) % moves.len()]["text"]
                        .as_str()
                        .unwrap()
                        .to_string();
                    let slot = game["to_move_slot"].as_str().unwrap().to_string();
                    let path = format!("/api/games/{id}/moves");
                    let asked = Instant::now();
                    game = match &cookies {
                        Some(cookies) => {
                            let cookie = &cookies[usize::from(slot == "white")];
                            let body = json!({"move": mv, "ply": sent.len()});
                            let (status, view, _) =
                                server.call_with("POST", &path, Some(body), &[("cookie", cookie)]);
                            assert_eq!(status, 200, "{view}");
                            view
                        }
                        None => server.post(
                            &path,
                            json!({"move": mv, "ply": sent.len(), "token": created["tokens"][slot.as_str()]}),
                        ),
                    };
                    latencies.push(asked.elapsed());
                    sent.push(Value::from(mv));
                }
                let seen = watcher.join().unwrap();
                (id, sent, latencies, seen, sign_ins)
            })
        })
        .collect();
    let mut figures = Figures {
        latencies: Vec::new(),
        sign_ins: Vec::new(),
        moves: 0,
        peak_kb: 0,
        elapsed: Duration::ZERO,
    };
    let mut results = Vec::new();
    for player in players {
        results.push(player.join().unwrap());
    }
    figures.elapsed = started.elapsed();
    for (id, sent, latencies, seen, sign_ins) in results {
        figures.sign_ins.extend(sign_ins);
        assert_eq!(seen, sent.len(), "the socket of {id} saw every move");
        figures.moves += sent.len();
        figures.latencies.extend(latencies);
        // Saved intact: the moves read back are the moves sent.
        let saved = server.get(&format!("/api/games/{id}"));
        assert_eq!(saved["moves"], Value::Array(sent), "game {id}");
    }
    figures.peak_kb = server
        .memory_kb()
        .expect("the server's peak memory from /proc");
    figures.latencies.sort();
    figures.sign_ins.sort();
    figures
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index]
}

fn report(games: usize, figures: &Figures) -> String {
    let sign_ins = if figures.sign_ins.is_empty() {
        String::new()
    } else {
        format!(
            "; {} sign-ins: median {:.1} ms, p99 {:.1} ms",
            figures.sign_ins.len(),
            percentile(&figures.sign_ins, 0.5).as_secs_f64() * 1e3,
            percentile(&figures.sign_ins, 0.99).as_secs_f64() * 1e3,
        )
    };
    format!(
        "{games} games at once, {} moves in {:.1} s ({:.0} moves/s); move acknowledged in \
         median {:.1} ms, p99 {:.1} ms, max {:.1} ms; server peak memory {} MB{sign_ins}",
        figures.moves,
        figures.elapsed.as_secs_f64(),
        figures.moves as f64 / figures.elapsed.as_secs_f64(),
        percentile(&figures.latencies, 0.5).as_secs_f64() * 1e3,
        percentile(&figures.latencies, 0.99).as_secs_f64() * 1e3,
        figures.latencies.last().unwrap().as_secs_f64() * 1e3,
        figures.peak_kb / 1024,
    )
}

#[test]
fn twenty_games_at_once_are_all_saved_intact() {
    let figures = load(20, 30, Duration::ZERO, false);
    eprintln!("{}", report(20, &figures));
    assert!(figures.moves > 20 * 10);
    assert!(figures.peak_kb < 300 * 1024, "{}", report(20, &figures));
}

#[test]
fn ten_games_between_accounts_move_with_their_sessions() {
    let figures = load(10, 20, Duration::ZERO, true);
    eprintln!("{}", report(10, &figures));
    assert_eq!(figures.sign_ins.len(), 20);
    assert!(figures.moves > 10 * 10);
}

/// The full load: `scripts/load-test.sh` runs it with the release build.
#[test]
#[ignore = "the full load test: scripts/load-test.sh"]
fn full_load() {
    let games: usize = std::env::var("LOA_LOAD_GAMES").map_or(100, |v| v.parse().unwrap());
    let plies: usize = std::env::var("LOA_LOAD_PLIES").map_or(100, |v| v.parse().unwrap());
    let think: u64 = std::env::var("LOA_LOAD_THINK_MS").map_or(100, |v| v.parse().unwrap());
    // LOA_LOAD_SIGNED_IN=1: two accounts a game, paired by rated seeks, moving with
    // their sessions (100 games: 200 signed-in players).
    let signed_in = std::env::var("LOA_LOAD_SIGNED_IN").is_ok_and(|v| v == "1");
    let figures = load(games, plies, Duration::from_millis(think), signed_in);
    println!("{}", report(games, &figures));
    let p99 = percentile(&figures.latencies, 0.99);
    assert!(p99 < Duration::from_millis(50), "p99 {p99:?}");
    assert!(figures.peak_kb < 300 * 1024);
}
