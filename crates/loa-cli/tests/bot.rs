//! `loa bot` against a real `loa serve`: a person challenges the bot's account and plays
//! it; challenges its engine cannot play are declined; a bad token is refused; an engine
//! that crashes or answers an illegal move loses its game by resignation.

mod common;

use common::server::Server;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

const LOA: &str = env!("CARGO_BIN_EXE_loa");

/// Long enough for anything asked here, short enough that a hang fails the test.
const PATIENCE: Duration = Duration::from_secs(20);

/// A person signed in: their session cookie.
struct Person {
    cookie: String,
}

impl Person {
    fn sign_up(server: &Server, name: &str) -> Person {
        let body = json!({"name": name, "password": "a long password"});
        let (status, account, cookie) = server.call_with("POST", "/api/accounts", Some(body), &[]);
        assert_eq!(status, 201, "{account}");
        Person {
            cookie: cookie.expect("a session cookie"),
        }
    }

    fn call(&self, server: &Server, method: &str, path: &str, body: Option<Value>) -> Value {
        let (status, value, _) =
            server.call_with(method, path, body, &[("Cookie", self.cookie.as_str())]);
        assert!(status < 300, "{method} {path}: {status} {value}");
        value
    }

    /// An API token of the account.
    fn token(&self, server: &Server) -> String {
        self.token_and_id(server).0
    }

    /// An API token of the account, and its id (to revoke it).
    fn token_and_id(&self, server: &Server) -> (String, String) {
        let made = self.call(server, "POST", "/api/tokens", Some(json!({"label": "bot"})));
        let field = |name: &str| match &made[name] {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        (field("token"), field("id"))
    }

    /// Challenges `to` with these terms; the challenge's id.
    fn challenge(&self, server: &Server, to: &str, terms: Value) -> String {
        let mut body = terms;
        body["to"] = json!(to);
        let made = self.call(server, "POST", "/api/challenges", Some(body));
        made["id"].as_str().unwrap().to_string()
    }
}

/// A one-minute game with a second a move; the challenger plays `color`.
fn live(variant: &str, rules: &str, color: &str) -> Value {
    json!({
        "variant": variant,
        "rules": rules,
        "clock": {"kind": "live", "initial_s": 60, "increment_s": 1},
        "color": color,
    })
}

/// Waits until the challenge is no longer open; it as it is then.
fn settled(server: &Server, id: &str) -> Value {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let challenge = server.get(&format!("/api/challenges/{id}"));
        if challenge["status"] != "open" {
            return challenge;
        }
        assert!(Instant::now() < deadline, "not answered: {challenge}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `loa bot` running, its standard output read line by line.
struct Bot {
    child: Child,
    lines: Receiver<String>,
    /// Every line read so far.
    seen: Vec<String>,
}

impl Bot {
    /// The bot's events are its lines; with `--verbose` among `extra`, the protocol on
    /// its standard error too.
    fn start(server: &Server, token: &str, engine: &[&str], extra: &[&str]) -> Bot {
        let verbose = extra.contains(&"--verbose");
        let mut child = Command::new(LOA)
            .args(["bot", "--server", &server.base, "--engine"])
            .args(engine)
            .args(extra)
            .env("LOA_TOKEN", token)
            .stdout(Stdio::piped())
            .stderr(if verbose {
                Stdio::piped()
            } else {
                Stdio::inherit()
            })
            .spawn()
            .expect("loa bot starts");
        let (tx, lines) = mpsc::channel();
        let forward = |stream: Box<dyn std::io::Read + Send>, tx: mpsc::Sender<String>| {
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    if tx.send(line).is_err() {
                        return;
                    }
                }
            });
        };
        forward(Box::new(child.stdout.take().unwrap()), tx.clone());
        if let Some(stderr) = child.stderr.take() {
            forward(Box::new(stderr), tx);
        }
        Bot {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// The next line that holds every one of `words` (earlier lines are kept in `seen`).
    fn expect(&mut self, words: &[&str]) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(wait) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if words.iter().all(|w| line.contains(w)) {
                        return line;
                    }
                }
                Err(_) => panic!(
                    "no line with {words:?}; the bot said:\n{}",
                    self.seen.join("\n")
                ),
            }
        }
    }

    /// Ctrl-C (SIGINT), then the exit status.
    fn interrupt(mut self) -> (ExitStatus, Vec<String>) {
        let sent = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let deadline = Instant::now() + PATIENCE;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < deadline, "the bot did not stop on Ctrl-C");
            std::thread::sleep(Duration::from_millis(20));
        };
        self.seen.extend(self.lines.try_iter());
        (status, std::mem::take(&mut self.seen))
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The real engine, shallow so that the test is quick.
fn loa_engine() -> Vec<String> {
    ["arg=engine", "option.Hash=1", "depth=2"]
        .iter()
        .map(|s| s.to_string())
        .chain([format!("cmd={LOA}")])
        .collect()
}

/// Plays the first legal move when it is the person's turn (`ply` moves played), then
/// waits for the bot's answer: the game after it.
fn move_and_wait(server: &Server, ann: &Person, game: &str, ply: usize) -> Value {
    let view = server.get(&format!("/api/games/{game}"));
    assert_eq!(view["ply"], ply, "{view}");
    let mv = view["position"]["moves"][0]["text"].as_str().unwrap();
    ann.call(
        server,
        "POST",
        &format!("/api/games/{game}/moves"),
        Some(json!({"move": mv, "ply": ply})),
    );
    server.wait_for(game, "the bot's move", |g| {
        g["ply"].as_u64() == Some(ply as u64 + 2) || !g["result"].is_null()
    })
}

#[test]
fn the_bot_accepts_a_challenge_plays_it_through_a_restart_and_sees_the_resignation() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("games.db"));
    let robo = Person::sign_up(&server, "robo");
    let token = robo.token(&server);
    let ann = Person::sign_up(&server, "ann");
    let engine = loa_engine();
    let engine: Vec<&str> = engine.iter().map(String::as_str).collect();

    let mut bot = Bot::start(&server, &token, &engine, &["--make-bot"]);
    bot.expect(&["robo is now marked BOT"]);
    bot.expect(&["playing as robo (BOT)"]);
    bot.expect(&["engine", "plays standard"]);
    assert_eq!(server.get("/api/players/robo")["bot"], true);

    let challenge = ann.challenge(&server, "robo", live("standard", "draw", "black"));
    let accepted = settled(&server, &challenge);
    assert_eq!(accepted["status"], "accepted", "{accepted}");
    let game = accepted["game"].as_str().unwrap().to_string();
    bot.expect(&[&format!("challenge {challenge} from ann"), "accepted"]);
    bot.expect(&[&format!("game {game}: started, white against ann")]);

    // The bot answers each move with a legal one: the server takes no other.
    move_and_wait(&server, &ann, &game, 0);
    bot.expect(&[&format!("game {game}: ply 2 ")]);
    move_and_wait(&server, &ann, &game, 2);
    bot.expect(&[&format!("game {game}: ply 4 ")]);

    // Stopped and started again, it takes the game up where it was.
    let (status, said) = bot.interrupt();
    assert!(status.success(), "{status}: {said:?}");
    assert!(
        said.iter().any(|l| l.contains("stopped: 1 game left")),
        "{said:?}"
    );
    let mut bot = Bot::start(&server, &token, &engine, &[]);
    bot.expect(&[&format!("game {game}: taken up at ply 4")]);
    let after = move_and_wait(&server, &ann, &game, 4);
    assert_eq!(after["ply"], 6, "{after}");
    bot.expect(&[&format!("game {game}: ply 6 ")]);

    ann.call(&server, "POST", &format!("/api/games/{game}/resign"), None);
    let over = bot.expect(&[&format!("game {game}: over")]);
    assert!(over.contains("0-1 by resignation: won"), "{over}");
}

#[test]
fn the_bot_hears_of_challenges_on_the_accounts_socket_and_stops_when_its_token_is_revoked() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("games.db"));
    let robo = Person::sign_up(&server, "robo");
    let (token, token_id) = robo.token_and_id(&server);
    let ann = Person::sign_up(&server, "ann");
    let engine = loa_engine();
    let engine: Vec<&str> = engine.iter().map(String::as_str).collect();

    let mut bot = Bot::start(&server, &token, &engine, &["--verbose"]);
    bot.expect(&["> WebSocket ws://", "/api/me/socket"]);
    bot.expect(&["< socket {\"challenges\":[]}"]);
    let challenge = ann.challenge(&server, "robo", live("standard", "draw", "white"));
    bot.expect(&["< socket {\"challenges\":[{", &challenge]);
    bot.expect(&[&format!("challenge {challenge} from ann"), "accepted"]);
    assert_eq!(settled(&server, &challenge)["status"], "accepted");
    let asked = (bot.seen.iter()).filter(|line| line.contains("> GET /api/challenges"));
    assert_eq!(asked.count(), 0, "the socket told: {:?}", bot.seen);

    // Revoked, the token closes the socket; the bot finds the token refused and stops.
    robo.call(&server, "DELETE", &format!("/api/tokens/{token_id}"), None);
    bot.expect(&["account socket left"]);
    let deadline = Instant::now() + PATIENCE;
    let status = loop {
        if let Some(status) = bot.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "the bot went on without its token"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(1), "{status}");
    let said: Vec<String> = bot.lines.try_iter().collect();
    assert!(
        said.iter()
            .any(|l| l.contains("the server refused the token")),
        "{said:?}"
    );
}

/// A bash engine that plays the standard game only (its `UCI_Variant` lists no other)
/// and knows no `SimultaneousConnection`, and exits as soon as it is asked to search;
/// with the argument `illegal` it answers a move that is not one.
const CRASHING_ENGINE: &str = r#"#!/usr/bin/env bash
while IFS= read -r line; do
  case $line in
    ugi|uci)
      echo "id name crasher"
      echo "option name UCI_Variant type combo default standard var standard"
      echo "${line}ok" ;;
    isready) echo readyok ;;
    go*) if [ "$1" = illegal ]; then echo "bestmove a1a2"; else exit 3; fi ;;
    quit) exit 0 ;;
  esac
done
"#;

#[test]
fn challenges_the_engine_cannot_play_are_declined_and_a_crash_or_an_illegal_move_resigns() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("crasher.sh");
    std::fs::write(&script, CRASHING_ENGINE).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let server = Server::start(&dir.path().join("games.db"));
    let robo = Person::sign_up(&server, "robo");
    let token = robo.token(&server);
    let ann = Person::sign_up(&server, "ann");
    let cmd = format!("cmd={}", script.display());

    let mut bot = Bot::start(&server, &token, &[&cmd], &[]);
    bot.expect(&["not marked BOT", "--make-bot"]);
    bot.expect(&["engine crasher plays standard (the draw rule only)"]);

    let parachute = ann.challenge(&server, "robo", live("parachute", "draw", "black"));
    assert_eq!(settled(&server, &parachute)["status"], "declined");
    bot.expect(&[&parachute, "declined: the engine does not play parachute"]);
    let mover_wins = ann.challenge(&server, "robo", live("standard", "mover-wins", "black"));
    assert_eq!(settled(&server, &mover_wins)["status"], "declined");
    bot.expect(&[&mover_wins, "declined", "mover-wins"]);

    // Ann plays White: the bot moves first, and its engine dies.
    let standard = ann.challenge(&server, "robo", live("standard", "draw", "white"));
    let accepted = settled(&server, &standard);
    assert_eq!(accepted["status"], "accepted");
    let game = accepted["game"].as_str().unwrap();
    bot.expect(&[&format!("game {game}: the engine failed"), "resigning"]);
    let over = bot.expect(&[&format!("game {game}: over")]);
    assert!(over.contains("0-1 by resignation: lost"), "{over}");
    let ended = server.get(&format!("/api/games/{game}"));
    assert_eq!(ended["result"]["reason"], "resignation", "{ended}");

    // An illegal move is not sent: the game is resigned.
    let (status, _) = bot.interrupt();
    assert!(status.success());
    let mut bot = Bot::start(&server, &token, &[&cmd, "arg=illegal"], &[]);
    let standard = ann.challenge(&server, "robo", live("standard", "draw", "white"));
    let game = settled(&server, &standard)["game"]
        .as_str()
        .unwrap()
        .to_string();
    bot.expect(&[
        &format!("game {game}: the engine played an illegal move 'a1a2'"),
        "resigning",
    ]);
    bot.expect(&[&format!("game {game}: over, 0-1 by resignation")]);
    assert_eq!(server.get(&format!("/api/games/{game}"))["ply"], 0);
}

#[test]
fn a_bad_token_is_refused_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("games.db"));
    let out = common::loa(
        &[
            "bot",
            "--server",
            &server.base,
            "--token",
            "loa_not_a_token",
            "--engine",
            &format!("cmd={LOA}"),
            "arg=engine",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = common::stderr(&out);
    assert!(
        err.contains("error: the server refused the token: the API token is not valid"),
        "{err}"
    );
    let out = common::loa(&["bot", "--server", &server.base, "--engine", "cmd=x"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        common::stderr(&out).contains("--token TOKEN, or LOA_TOKEN"),
        "{}",
        common::stderr(&out)
    );
    let out = common::loa(
        &[
            "bot",
            "--server",
            "https://loa.example",
            "--token",
            "t",
            "--engine",
            "cmd=x",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
}
