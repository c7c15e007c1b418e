//! The cluster benchmark (issue #25): many games at once spread over the servers that share
//! one database, each game watched by one socket on every server (two on one server), each
//! move sent to the servers in turn. It measures how long a move takes to be acknowledged,
//! how long after that answer a watcher on the other server sees it, and the moves a second;
//! then checks that every game holds exactly the moves sent and that every socket saw every
//! move. A benchmark, not a timed test: it fails only when something is lost or refused.
//!
//! `scripts/cluster-load.sh` starts the servers (two on one PostgreSQL, then one on
//! SQLite), runs `cluster_load` against each and prints the figures side by side. The
//! suite plays a short form against one server on SQLite.
//!
//! Its async client (tokio, a plain HTTP/1.1 keep-alive connection per game and server,
//! tokio-tungstenite for the sockets) holds thousands of connections on a few threads, where
//! a thread per socket would not.

mod common;

use futures_util::StreamExt;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::Message;

/// How long any one request or socket handshake may take before it counts as failed.
const PATIENCE: Duration = Duration::from_secs(30);
/// How many games are made, or sockets opened, at once while setting up.
const SETUP_AT_ONCE: usize = 32;
/// How long the sockets are given, after the last answer, to deliver the last moves.
const DRAIN: Duration = Duration::from_secs(30);

/// What to play, and against which servers.
struct Plan {
    /// `host:port` of each server; one or two.
    servers: Vec<String>,
    games: usize,
    /// The most moves a game plays (fewer if it ends).
    plies: usize,
    /// How long a player waits after the answer to its move before the next one.
    think: Duration,
    /// The name of the run in the figures (`postgres`, `sqlite`).
    label: String,
    /// Where to add the figures as `label<TAB>figure<TAB>value` lines, for the table.
    results: Option<PathBuf>,
}

/// A keep-alive HTTP/1.1 connection to one server, made on first use and again after a
/// failure. The server answers with a `content-length` (axum's JSON).
struct Http {
    address: String,
    connection: Option<BufReader<TcpStream>>,
}

/// An answer: its status, its JSON and when its last byte was read.
struct Answer {
    status: u16,
    body: Value,
    at: Instant,
}

impl Http {
    fn new(address: &str) -> Http {
        Http {
            address: address.to_string(),
            connection: None,
        }
    }

    /// A request; an error (said with the request) when it could not be sent or answered
    /// within [`PATIENCE`].
    async fn call(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> Result<Answer, String> {
        let body = body.map(Value::to_string).unwrap_or_default();
        match tokio::time::timeout(PATIENCE, self.exchange(method, path, &body)).await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(err)) => {
                self.connection = None;
                Err(format!("{method} {path} to {}: {err}", self.address))
            }
            Err(_) => {
                self.connection = None;
                Err(format!(
                    "{method} {path} to {}: no answer within {PATIENCE:?}",
                    self.address
                ))
            }
        }
    }

    async fn exchange(&mut self, method: &str, path: &str, body: &str) -> std::io::Result<Answer> {
        if self.connection.is_none() {
            let stream = TcpStream::connect(&self.address).await?;
            stream.set_nodelay(true)?;
            self.connection = Some(BufReader::new(stream));
        }
        let connection = self.connection.as_mut().expect("connected");
        let request = format!(
            "{method} {path} HTTP/1.1\r\nhost: {}\r\ncontent-type: application/json\r\n\
             content-length: {}\r\n\r\n{body}",
            self.address,
            body.len()
        );
        connection.get_mut().write_all(request.as_bytes()).await?;
        let mut line = String::new();
        if connection.read_line(&mut line).await? == 0 {
            return Err(std::io::Error::other("the server closed the connection"));
        }
        let status = line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("a bad status line: {line:?}")))?;
        let (mut length, mut close) = (None, false);
        loop {
            line.clear();
            if connection.read_line(&mut line).await? == 0 {
                return Err(std::io::Error::other("the server closed the connection"));
            }
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                let value = value.trim();
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.parse::<usize>().ok();
                } else if name.eq_ignore_ascii_case("connection") {
                    close = value.eq_ignore_ascii_case("close");
                }
            }
        }
        let length =
            length.ok_or_else(|| std::io::Error::other("an answer without a content-length"))?;
        let mut bytes = vec![0; length];
        connection.read_exact(&mut bytes).await?;
        let at = Instant::now();
        if close {
            self.connection = None;
        }
        let body = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
        Ok(Answer { status, body, at })
    }
}

/// One watching socket: the server it is on, each view's ply as it arrived, and why it
/// ended if it ended before it was closed.
struct Watch {
    server: usize,
    seen: Mutex<Vec<(usize, Instant)>>,
    ended: Mutex<Option<String>>,
}

impl Watch {
    fn last_ply(&self) -> Option<usize> {
        self.seen.lock().unwrap().last().map(|&(ply, _)| ply)
    }
}

/// A game made for the run: its id, each seat's token and its view when made.
struct Made {
    id: String,
    tokens: Value,
    view: Value,
}

/// A move sent: the server it went to, when it was sent and when its answer came.
struct Sent {
    server: usize,
    at: Instant,
    answered: Instant,
}

/// What a game's player did.
struct Played {
    moves: Vec<String>,
    sent: Vec<Sent>,
    /// The request that failed or was refused, which ended the game's play: its kind (the
    /// status, or `no answer`) and what it was.
    error: Option<(String, String)>,
}

/// Opens a game's socket on `address` and waits for its first view (the server is then
/// watching for it); the socket is then read on a task of its own until it is aborted.
async fn watch(
    address: &str,
    id: &str,
    server: usize,
) -> Result<(Arc<Watch>, tokio::task::JoinHandle<()>), String> {
    let opened = async {
        let stream = TcpStream::connect(address)
            .await
            .map_err(|e| e.to_string())?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        let url = format!("ws://{address}/api/games/{id}/socket");
        let (mut socket, _) = tokio_tungstenite::client_async(url, stream)
            .await
            .map_err(|e| e.to_string())?;
        let first = socket
            .next()
            .await
            .ok_or("closed before the first view")?
            .map_err(|e| e.to_string())?;
        Ok::<_, String>((socket, first))
    };
    let (mut socket, first) = tokio::time::timeout(PATIENCE, opened)
        .await
        .map_err(|_| format!("the socket of {id} on {address} did not open in time"))?
        .map_err(|e| format!("the socket of {id} on {address}: {e}"))?;
    let watch = Arc::new(Watch {
        server,
        seen: Mutex::new(Vec::new()),
        ended: Mutex::new(None),
    });
    let note = |watch: &Watch, message: &Message| {
        if let Message::Text(text) = message {
            let view: Value = serde_json::from_str(text).expect("a view in JSON");
            let ply = view["ply"].as_u64().expect("a view's ply") as usize;
            watch.seen.lock().unwrap().push((ply, Instant::now()));
        }
    };
    note(&watch, &first);
    let reader = {
        let watch = Arc::clone(&watch);
        tokio::spawn(async move {
            let why = loop {
                match socket.next().await {
                    Some(Ok(message)) => {
                        if let Message::Close(frame) = &message {
                            break format!("closed by the server: {frame:?}");
                        }
                        note(&watch, &message);
                    }
                    Some(Err(err)) => break format!("error: {err}"),
                    None => break "closed".to_string(),
                }
            };
            *watch.ended.lock().unwrap() = Some(why);
        })
    };
    Ok((watch, reader))
}

/// Plays one game: each move (a legal one from the latest view) sent to the servers in
/// turn, `think` after the answer to the last, starting at `start`.
async fn play(
    g: usize,
    made: &Made,
    clients: &mut [Http],
    (plies, think): (usize, Duration),
    start: tokio::time::Instant,
) -> Played {
    tokio::time::sleep_until(start).await;
    let mut played = Played {
        moves: Vec::new(),
        sent: Vec::new(),
        error: None,
    };
    let mut view = made.view.clone();
    let path = format!("/api/games/{}/moves", made.id);
    while view["result"].is_null() && played.moves.len() < plies {
        if !played.moves.is_empty() {
            tokio::time::sleep(think).await;
        }
        let ply = played.moves.len();
        let legal = view["position"]["moves"].as_array().expect("legal moves");
        // A varied but repeatable choice.
        let mv = legal[(g * 7 + ply * 13) % legal.len()]["text"]
            .as_str()
            .expect("a move's text")
            .to_string();
        let slot = view["to_move_slot"].as_str().expect("a seat to move");
        let body = json!({"move": mv, "ply": ply, "token": made.tokens[slot]});
        let server = (g + ply) % clients.len();
        let at = Instant::now();
        match clients[server].call("POST", &path, Some(&body)).await {
            Ok(answer) if answer.status == 200 => {
                played.sent.push(Sent {
                    server,
                    at,
                    answered: answer.at,
                });
                played.moves.push(mv);
                view = answer.body;
            }
            Ok(answer) => {
                played.error = Some((
                    answer.status.to_string(),
                    format!(
                        "POST {path} (ply {ply}, {mv}) to server {server}: {} {}",
                        answer.status, answer.body
                    ),
                ));
                break;
            }
            Err(err) => {
                played.error = Some(("no answer".into(), format!("ply {ply}, {mv}: {err}")));
                break;
            }
        }
    }
    played
}

/// Milliseconds, as a float.
fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The time from `from` to `to` in milliseconds, negative when `to` came first.
fn signed_ms(from: Instant, to: Instant) -> f64 {
    if to >= from {
        ms(to - from)
    } else {
        -ms(from - to)
    }
}

/// The `p` quantile (nearest rank) of sorted values.
fn quantile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// p50, p99 and max of a list of milliseconds, as the table shows them.
fn spread(values: &mut [f64]) -> [(&'static str, String); 3] {
    values.sort_by(f64::total_cmp);
    let show = |v: f64| {
        if v.is_nan() {
            "-".to_string()
        } else {
            format!("{v:.1}")
        }
    };
    [
        ("p50", show(quantile(values, 0.5))),
        ("p99", show(quantile(values, 0.99))),
        ("max", show(values.last().copied().unwrap_or(f64::NAN))),
    ]
}

/// What went wrong in a run: nothing, for a run whose every move was acknowledged, saved
/// and seen.
#[derive(Default)]
struct Faults {
    lines: Vec<String>,
    count: usize,
}

impl Faults {
    fn add(&mut self, line: String) {
        self.count += 1;
        // The first few are shown; the rest are counted.
        if self.lines.len() < 20 {
            self.lines.push(line);
        }
    }
}

/// Runs the plan: sets up the games and sockets, plays, waits for the sockets, reads every
/// game back, and reports. Answers the faults found (none for a clean run).
async fn run(plan: &Plan) -> Faults {
    let servers = plan.servers.len();
    let mut faults = Faults::default();
    let mut figures: Vec<(String, String)> = Vec::new();
    let mut figure = |name: &str, value: String| figures.push((name.to_string(), value));
    let setup = Instant::now();

    // The games, made on the servers in turn.
    let at_once = Arc::new(Semaphore::new(SETUP_AT_ONCE));
    let making: Vec<_> = (0..plan.games)
        .map(|g| {
            let (at_once, address) = (Arc::clone(&at_once), plan.servers[g % servers].clone());
            tokio::spawn(async move {
                let _turn = at_once.acquire().await.unwrap();
                let mut http = Http::new(&address);
                let asked = Instant::now();
                let answer = http
                    .call(
                        "POST",
                        "/api/games",
                        Some(&json!({"black": "human", "white": "human"})),
                    )
                    .await?;
                if answer.status != 201 {
                    return Err(format!(
                        "POST /api/games: {} {}",
                        answer.status, answer.body
                    ));
                }
                let made = Made {
                    id: answer.body["id"].as_str().expect("an id").to_string(),
                    tokens: answer.body["tokens"].clone(),
                    view: answer.body["game"].clone(),
                };
                Ok::<_, String>((made, answer.at - asked))
            })
        })
        .collect();
    let mut games = Vec::new();
    let mut creations = Vec::new();
    for task in making {
        let (made, took) = task
            .await
            .unwrap()
            .unwrap_or_else(|e| panic!("making a game: {e}"));
        games.push(made);
        creations.push(ms(took));
    }
    let made_in = setup.elapsed();

    // Two sockets a game: one on each server, or both on the one.
    let opening: Vec<_> = games
        .iter()
        .enumerate()
        .flat_map(|(g, made)| (0..2).map(move |k| (g, made.id.clone(), k)))
        .map(|(g, id, k)| {
            let server = k % servers;
            let (at_once, address) = (Arc::clone(&at_once), plan.servers[server].clone());
            tokio::spawn(async move {
                let _turn = at_once.acquire().await.unwrap();
                watch(&address, &id, server).await.map(|w| (g, w))
            })
        })
        .collect();
    let mut watches: Vec<Vec<Arc<Watch>>> = (0..plan.games).map(|_| Vec::new()).collect();
    let mut readers = Vec::new();
    for task in opening {
        let (g, (watch, reader)) = task.await.unwrap().unwrap_or_else(|e| panic!("{e}"));
        watches[g].push(watch);
        readers.push(reader);
    }
    let sockets = readers.len();
    let opened_in = setup.elapsed() - made_in;
    println!(
        "[{}] {} games made in {:.1} s, {sockets} sockets opened in {:.1} s",
        plan.label,
        plan.games,
        made_in.as_secs_f64(),
        opened_in.as_secs_f64()
    );

    // Play: the games' first moves spread over one think time, so that they do not all
    // come at once.
    let begun = Instant::now();
    let (machine_before, client_before) = (machine_cpu(), client_cpu());
    let start = tokio::time::Instant::now() + Duration::from_millis(100);
    let plan_think = plan.think.max(Duration::from_millis(1));
    let players: Vec<_> = games
        .into_iter()
        .enumerate()
        .map(|(g, made)| {
            let mut clients: Vec<Http> = plan.servers.iter().map(|a| Http::new(a)).collect();
            let pace = (plan.plies, plan.think);
            let offset = plan_think.mul_f64(g as f64 / plan.games as f64);
            tokio::spawn(async move {
                let played = play(g, &made, &mut clients, pace, start + offset).await;
                (made, clients, played)
            })
        })
        .collect();
    let mut results = Vec::new();
    for player in players {
        results.push(player.await.unwrap());
    }
    let last_answer = results
        .iter()
        .filter_map(|(_, _, played)| played.sent.last().map(|s| s.answered))
        .max()
        .unwrap_or(begun);
    let playing = last_answer.saturating_duration_since(begun + Duration::from_millis(100));
    let (machine_after, client_after) = (machine_cpu(), client_cpu());

    // The sockets are given a while to deliver the last moves.
    let drain = Instant::now();
    loop {
        let behind = results
            .iter()
            .zip(&watches)
            .filter(|((_, _, played), watches)| {
                watches.iter().any(|w| {
                    w.ended.lock().unwrap().is_none()
                        && w.last_ply().unwrap_or(0) < played.moves.len()
                })
            })
            .count();
        if behind == 0 || drain.elapsed() > DRAIN {
            if behind > 0 {
                faults.add(format!(
                    "{behind} games' sockets had not seen their last move {DRAIN:?} after the last answer"
                ));
            }
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let drained_in = drain.elapsed();
    for reader in &readers {
        reader.abort();
    }

    // Every game read back, from a server other than the one that made it.
    let reading: Vec<_> = results
        .into_iter()
        .enumerate()
        .map(|(g, (made, mut clients, played))| {
            let at_once = Arc::clone(&at_once);
            tokio::spawn(async move {
                let _turn = at_once.acquire().await.unwrap();
                let server = (g + 1) % clients.len();
                let path = format!("/api/games/{}", made.id);
                let saved = clients[server].call("GET", &path, None).await;
                (made, played, server, saved)
            })
        })
        .collect();
    let mut acks = Vec::new();
    let (mut other, mut same, mut end_to_end) = (Vec::new(), Vec::new(), Vec::new());
    let (mut moves, mut errors, mut unseen, mut out_of_order, mut closed) = (0, 0, 0, 0, 0);
    let mut status_counts: BTreeMap<String, usize> = BTreeMap::new();
    // Every move as each socket saw it, for a closer look: LOA_CLUSTER_RAW names the file.
    let mut raw = std::env::var_os("LOA_CLUSTER_RAW").map(|path| {
        let mut file = std::io::BufWriter::new(std::fs::File::create(path).expect("the raw file"));
        writeln!(
            file,
            "game\tply\tsocket\tmove server\tsocket server\tsent ms\tack ms\tseen ms after ack"
        )
        .unwrap();
        file
    });
    for (g, (task, watches)) in reading.into_iter().zip(&watches).enumerate() {
        let (made, played, server, saved) = task.await.unwrap();
        moves += played.moves.len();
        if let Some((kind, error)) = &played.error {
            errors += 1;
            *status_counts.entry(kind.clone()).or_default() += 1;
            faults.add(format!("game {}: {error}", made.id));
        }
        match saved {
            Ok(answer) if answer.status == 200 => {
                let sent: Vec<Value> = played
                    .moves
                    .iter()
                    .map(|m| Value::from(m.as_str()))
                    .collect();
                if answer.body["moves"] != Value::Array(sent) {
                    faults.add(format!(
                        "game {} on server {server}: holds {} where {:?} were acknowledged",
                        made.id, answer.body["moves"], played.moves
                    ));
                }
            }
            Ok(answer) => faults.add(format!(
                "GET game {} on server {server}: {} {}",
                made.id, answer.status, answer.body
            )),
            Err(err) => faults.add(format!("game {}: {err}", made.id)),
        }
        for (k, watch) in watches.iter().enumerate() {
            let seen = watch.seen.lock().unwrap();
            let mut first: BTreeMap<usize, Instant> = BTreeMap::new();
            for pair in seen.windows(2) {
                if pair[1].0 < pair[0].0 {
                    out_of_order += 1;
                }
            }
            for &(ply, at) in seen.iter() {
                first.entry(ply).or_insert(at);
            }
            if let Some(why) = watch.ended.lock().unwrap().as_ref() {
                closed += 1;
                faults.add(format!("game {} socket {k}: ended early, {why}", made.id));
            }
            for (i, sent) in played.sent.iter().enumerate() {
                let Some(&at) = first.get(&(i + 1)) else {
                    unseen += 1;
                    faults.add(format!(
                        "game {} socket {k} (server {}): never saw ply {}",
                        made.id,
                        watch.server,
                        i + 1
                    ));
                    continue;
                };
                let after = signed_ms(sent.answered, at);
                if let Some(raw) = raw.as_mut() {
                    writeln!(
                        raw,
                        "{g}\t{}\t{k}\t{}\t{}\t{:.3}\t{:.3}\t{after:.3}",
                        i + 1,
                        sent.server,
                        watch.server,
                        ms(sent.at.saturating_duration_since(begun)),
                        ms(sent.answered - sent.at),
                    )
                    .unwrap();
                }
                if watch.server == sent.server {
                    same.push(after);
                } else {
                    other.push(after);
                    end_to_end.push(ms(at - sent.at));
                }
            }
        }
        acks.extend(played.sent.iter().map(|s| ms(s.answered - s.at)));
    }
    let mut creations_sorted = creations;

    figure("servers", servers.to_string());
    figure("games", plan.games.to_string());
    figure("sockets", sockets.to_string());
    figure("plies a game (at most)", plan.plies.to_string());
    figure("think ms", plan.think.as_millis().to_string());
    figure("moves acknowledged", moves.to_string());
    figure(
        "moves/s",
        format!("{:.0}", moves as f64 / playing.as_secs_f64().max(1e-9)),
    );
    for (name, value) in spread(&mut acks) {
        figure(&format!("ack ms {name}"), value);
    }
    for (name, value) in spread(&mut other) {
        figure(&format!("other server sees it, ms after ack {name}"), value);
    }
    for (name, value) in spread(&mut end_to_end) {
        figure(
            &format!("other server sees it, ms after send {name}"),
            value,
        );
    }
    for (name, value) in spread(&mut same) {
        figure(&format!("same server sees it, ms after ack {name}"), value);
    }
    figure("games stopped by an error", errors.to_string());
    figure(
        "errors by status",
        if status_counts.is_empty() {
            "-".to_string()
        } else {
            status_counts
                .iter()
                .map(|(k, v)| format!("{k}x{v}"))
                .collect::<Vec<_>>()
                .join(",")
        },
    );
    figure("plies a socket never saw", unseen.to_string());
    figure("socket views out of order", out_of_order.to_string());
    figure("sockets ended early", closed.to_string());
    figure("faults", faults.count.to_string());
    for (name, value) in spread(&mut creations_sorted) {
        figure(&format!("game made ms {name}"), value);
    }
    figure(
        "sockets opened s",
        format!("{:.1}", opened_in.as_secs_f64()),
    );
    figure("play s", format!("{:.1}", playing.as_secs_f64()));
    // What the machine had to spare while the games were played (every process on it:
    // the servers, the database, this client and anything else running).
    let (busy, total) = (
        machine_after.0 - machine_before.0,
        machine_after.1 - machine_before.1,
    );
    figure(
        "machine CPU busy while playing %",
        format!("{:.0}", 100.0 * busy as f64 / total.max(1) as f64),
    );
    figure(
        "client CPU s",
        format!("{:.1}", (client_after - client_before) as f64 / 100.0),
    );
    figure(
        "last sockets caught up s",
        format!("{:.2}", drained_in.as_secs_f64()),
    );

    let mut text = String::new();
    for (name, value) in &figures {
        writeln!(text, "[{}] {name}: {value}", plan.label).unwrap();
    }
    print!("{text}");
    for line in &faults.lines {
        println!("[{}] FAULT {line}", plan.label);
    }
    if faults.count > faults.lines.len() {
        println!(
            "[{}] ... and {} more faults",
            plan.label,
            faults.count - faults.lines.len()
        );
    }
    if let Some(path) = &plan.results {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("the results file opens");
        for (name, value) in &figures {
            writeln!(file, "{}\t{name}\t{value}", plan.label).unwrap();
        }
    }
    faults
}

/// The machine's busy and total CPU time so far, in ticks (Linux `/proc/stat`).
fn machine_cpu() -> (u64, u64) {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let ticks: Vec<u64> = stat
        .lines()
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .skip(1)
        .filter_map(|t| t.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
    let total: u64 = ticks.iter().take(8).sum();
    let idle = ticks.get(3).unwrap_or(&0) + ticks.get(4).unwrap_or(&0);
    (total - idle, total)
}

/// This process's CPU time so far (user and system), in ticks of 1/100 s (Linux).
fn client_cpu() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command's name, which ends with the last ')'.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    // utime and stime are fields 14 and 15, the 12th and 13th after the name.
    fields
        .get(11..13)
        .map_or(0, |f| f.iter().filter_map(|t| t.parse::<u64>().ok()).sum())
}

fn number(name: &str, default: usize) -> usize {
    std::env::var(name).map_or(default, |v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name}={v}: a whole number"))
    })
}

/// The host:port of a server's base URL.
fn address(base: &str) -> String {
    base.trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string()
}

/// A short form on one server on SQLite, so that the benchmark keeps working.
#[tokio::test(flavor = "multi_thread")]
async fn a_short_cluster_load_on_one_server_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = common::server::Server::start(&dir.path().join("games.db"));
    let plan = Plan {
        servers: vec![address(&server.base)],
        games: 20,
        plies: 12,
        think: Duration::from_millis(5),
        label: "short".into(),
        results: None,
    };
    let faults = run(&plan).await;
    assert_eq!(faults.count, 0, "{:#?}", faults.lines);
}

/// The benchmark: against the servers of `LOA_CLUSTER_SERVERS` (`host:port,host:port`),
/// or one server on SQLite it starts itself. `LOA_LOAD_GAMES` (1000), `LOA_LOAD_PLIES`
/// (40), `LOA_LOAD_THINK_MS` (1000); `LOA_CLUSTER_LABEL` names the run and
/// `LOA_CLUSTER_RESULTS` is the file its figures are added to.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "the cluster benchmark: scripts/cluster-load.sh"]
async fn cluster_load() {
    let dir = tempfile::tempdir().unwrap();
    let (servers, _own) = match std::env::var("LOA_CLUSTER_SERVERS") {
        Ok(list) => (list.split(',').map(address).collect(), None),
        Err(_) => {
            let server = common::server::Server::start(&dir.path().join("games.db"));
            (vec![address(&server.base)], Some(server))
        }
    };
    let plan = Plan {
        servers,
        games: number("LOA_LOAD_GAMES", 1000),
        plies: number("LOA_LOAD_PLIES", 40),
        think: Duration::from_millis(number("LOA_LOAD_THINK_MS", 1000) as u64),
        label: std::env::var("LOA_CLUSTER_LABEL").unwrap_or_else(|_| "run".into()),
        results: std::env::var_os("LOA_CLUSTER_RESULTS").map(PathBuf::from),
    };
    assert!(
        (1..=2).contains(&plan.servers.len()),
        "one or two servers, not {:?}",
        plan.servers
    );
    let faults = run(&plan).await;
    std::io::stdout().flush().unwrap();
    assert_eq!(faults.count, 0, "{:#?}", faults.lines);
}
