//! A real `loa serve` on a free port with a database file of its own, and a small client
//! for its JSON API and WebSockets.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A WebSocket to the server.
pub type Socket = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>>;

pub struct Server {
    child: Child,
    pub base: String,
    pub db: PathBuf,
}

impl Server {
    /// Starts `loa serve` on `db`, waiting until it says where it listens.
    pub fn start(db: &Path) -> Server {
        Server::start_with(db, &[])
    }

    pub fn start_with(db: &Path, extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_loa"))
            .args(["serve", "--port", "0", "--db"])
            .arg(db)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("loa serve starts");
        let stdout = child.stdout.take().unwrap();
        let mut lines = BufReader::new(stdout).lines();
        let base = loop {
            let line = lines
                .next()
                .expect("loa serve printed its address")
                .unwrap();
            if let Some(rest) = line.strip_prefix("Open ") {
                break rest
                    .split_whitespace()
                    .next()
                    .unwrap()
                    .trim_end_matches('/')
                    .to_string();
            }
        };
        // Keep reading so the server never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        Server {
            child,
            base,
            db: db.to_path_buf(),
        }
    }

    /// The server's resident memory, in kB (Linux).
    pub fn memory_kb(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// Sends the process `signal` (`TERM`, `INT`) and waits for it to end: how it ended.
    pub fn stop_with(mut self, signal: &str) -> std::process::ExitStatus {
        let sent = Command::new("kill")
            .args([format!("-{signal}"), self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success());
        self.child.wait().unwrap()
    }

    /// `kill -9`: the process ends at once, with no chance to tidy up.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// A request: the status and the JSON answer.
    pub fn call(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let (status, value, _) = self.call_with(method, path, body, &[]);
        (status, value)
    }

    /// A request with headers: the status, the JSON answer and the cookie it sets
    /// (`name=value`), if any.
    pub fn call_with(
        &self,
        method: &str,
        path: &str,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> (u16, Value, Option<String>) {
        let mut request = ureq::request(method, &self.url(path)).timeout(Duration::from_secs(30));
        for (name, value) in headers {
            request = request.set(name, value);
        }
        let result = match body {
            Some(body) => request.send_json(body),
            None => request.call(),
        };
        let response = match result {
            Ok(response) => response,
            Err(ureq::Error::Status(_, response)) => response,
            Err(e) => panic!("{method} {path}: {e}"),
        };
        let status = response.status();
        let cookie = response
            .header("set-cookie")
            .and_then(|line| line.split(';').next())
            .map(str::to_string);
        let text = response.into_string().unwrap();
        let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, value, cookie)
    }

    pub fn get(&self, path: &str) -> Value {
        let (status, value) = self.call("GET", path, None);
        assert_eq!(status, 200, "GET {path}: {value}");
        value
    }

    pub fn post(&self, path: &str, body: Value) -> Value {
        let (status, value) = self.call("POST", path, Some(body));
        assert!(
            status == 200 || status == 201,
            "POST {path}: {status} {value}"
        );
        value
    }

    /// A new game; its id.
    pub fn create(&self, body: Value) -> Value {
        self.post("/api/games", body)
    }

    /// Plays `mv` in the game `created` made (its answer to `POST /api/games`), with the
    /// token of the seat to move in `game` (the game's latest view).
    pub fn play(&self, created: &Value, game: &Value, mv: &str) -> Value {
        let id = created["id"].as_str().expect("a game's id");
        let slot = game["to_move_slot"].as_str().expect("a seat to move");
        self.post(
            &format!("/api/games/{id}/moves"),
            json!({"move": mv, "token": token(created, slot)}),
        )
    }

    /// Waits until `done` holds for the game, polling.
    pub fn wait_for(&self, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let game = self.get(&format!("/api/games/{id}"));
            if done(&game) {
                return game;
            }
            assert!(
                Instant::now() < deadline,
                "waited too long for {what}: {game}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Signs `name` up: the session's cookie (`name=value`).
    pub fn sign_up(&self, name: &str) -> String {
        let body = json!({"name": name, "password": "a long password"});
        let (status, answer, cookie) = self.call_with("POST", "/api/accounts", Some(body), &[]);
        assert_eq!(status, 201, "{answer}");
        cookie.expect("a session cookie")
    }

    /// Opens the socket of the person signed in with `cookie` (`/api/me/socket`), or the
    /// status it was refused with.
    pub fn account_socket(&self, cookie: Option<&str>) -> Result<Socket, u16> {
        let url = format!("{}/api/me/socket", self.base.replace("http://", "ws://"));
        let mut request =
            tungstenite::client::IntoClientRequest::into_client_request(url.as_str()).unwrap();
        if let Some(cookie) = cookie {
            request
                .headers_mut()
                .insert("cookie", cookie.parse().unwrap());
        }
        match tungstenite::connect(request) {
            Ok((socket, _)) => Ok(socket),
            Err(tungstenite::Error::Http(response)) => Err(response.status().as_u16()),
            Err(other) => panic!("the socket: {other}"),
        }
    }

    /// Opens a game's WebSocket.
    pub fn socket(&self, id: &str) -> Socket {
        let url = format!(
            "{}/api/games/{id}/socket",
            self.base.replace("http://", "ws://")
        );
        let (socket, _) = tungstenite::connect(url).expect("the socket opens");
        socket
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The next message the socket sends, read as JSON, within a second.
pub fn next_message(socket: &mut Socket) -> Value {
    if let tungstenite::stream::MaybeTlsStream::Plain(stream) = socket.get_mut() {
        stream
            .set_read_timeout(Some(Duration::from_secs(1)))
            .unwrap();
    }
    loop {
        match socket.read().expect("a message within a second") {
            tungstenite::Message::Text(text) => return serde_json::from_str(&text).unwrap(),
            _ => continue,
        }
    }
}

/// A human against a human at one board.
pub fn two_people() -> Value {
    json!({"black": "human", "white": "human"})
}

/// The token of a seat of the game `created` made.
pub fn token(created: &Value, slot: &str) -> String {
    created["tokens"][slot]
        .as_str()
        .unwrap_or_else(|| panic!("no token for {slot}: {created}"))
        .to_string()
}

/// The first legal move of the game's position.
pub fn first_move(game: &Value) -> String {
    game["position"]["moves"][0]["text"]
        .as_str()
        .expect("a legal move")
        .to_string()
}
