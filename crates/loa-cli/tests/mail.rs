//! Correspondence by e-mail, and a forgotten password's reset, against a real SMTP server:
//! `aiosmtpd` (from PyPI) runs as the site's mail exchanger, keeping what `loa serve
//! --smtp` sends in a maildir, and Python's `smtplib` sends the players' replies to `loa
//! serve --mail-in`.
//!
//! Without `aiosmtpd` the test says so and passes, unless `LOA_REQUIRE_SMTP` is set, as
//! CI sets it.

mod common;

use common::server::Server;
use serde_json::{json, Value};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const PUBLIC_URL: &str = "http://loa.test";

/// The mail exchanger: aiosmtpd writing each message it takes into a maildir.
struct Exchanger {
    child: Child,
    maildir: PathBuf,
    port: u16,
}

impl Exchanger {
    fn start(dir: &Path) -> Option<Exchanger> {
        let has_aiosmtpd = Command::new("python3")
            .args(["-c", "import aiosmtpd"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !has_aiosmtpd {
            assert!(
                std::env::var_os("LOA_REQUIRE_SMTP").is_none(),
                "the mail tests need aiosmtpd: python3 -m pip install aiosmtpd"
            );
            eprintln!("skipped: the mail tests need aiosmtpd (python3 -m pip install aiosmtpd)");
            return None;
        }
        let port = free_port();
        // aiosmtpd makes the maildir itself.
        let maildir = dir.join("maildir");
        let child = Command::new("python3")
            .args(["-m", "aiosmtpd", "-n", "-l"])
            .arg(format!("127.0.0.1:{port}"))
            .args(["-c", "aiosmtpd.handlers.Mailbox"])
            .arg(&maildir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("aiosmtpd starts");
        let exchanger = Exchanger {
            child,
            maildir,
            port,
        };
        wait_for_port(port);
        Some(exchanger)
    }

    /// A server in `dir` whose mail goes through this exchanger, with `more` options.
    fn serve(&self, dir: &Path, more: &[&str]) -> Server {
        let smtp = format!("smtp://127.0.0.1:{}", self.port);
        Server::start_with(&dir.join("games.db"), &[&["--smtp", &smtp], more].concat())
    }
}

impl Drop for Exchanger {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn wait_for_port(port: u16) {
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "port {port} never opened"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// An e-mail as it arrived: its headers (names in lower case) and decoded text.
#[derive(Clone, Debug)]
struct Received {
    headers: Vec<(String, String)>,
    text: String,
}

impl Received {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The first whole word of the text that starts with `prefix`.
    fn link(&self, prefix: &str) -> String {
        self.text
            .split_whitespace()
            .find(|w| w.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix} link in:\n{}", self.text))
            .to_string()
    }
}

fn parse(raw: &str) -> Received {
    let (head, body) = raw.split_once("\n\n").unwrap_or((raw, ""));
    let mut headers: Vec<(String, String)> = Vec::new();
    for line in head.lines() {
        if line.starts_with([' ', '\t']) {
            if let Some((_, value)) = headers.last_mut() {
                value.push_str(line.trim_start());
            }
        } else if let Some((name, value)) = line.split_once(':') {
            headers.push((name.to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    let qp = headers
        .iter()
        .any(|(n, v)| n == "content-transfer-encoding" && v == "quoted-printable");
    let text = if qp { unquote(body) } else { body.to_string() };
    Received { headers, text }
}

/// Quoted-printable undone (the test's own decoder, for ASCII text).
fn unquote(body: &str) -> String {
    let joined = body.replace("=\r\n", "").replace("=\n", "");
    let mut out = String::new();
    let mut chars = joined.chars();
    while let Some(c) = chars.next() {
        if c == '=' {
            let hex: String = chars.by_ref().take(2).collect();
            out.push(char::from(u8::from_str_radix(&hex, 16).unwrap_or(b'?')));
        } else {
            out.push(c);
        }
    }
    out
}

/// The mail exchanger's messages, each taken once, in the order they arrived.
struct Inbox {
    maildir: PathBuf,
    read: Vec<PathBuf>,
    untaken: Vec<Received>,
}

impl Inbox {
    fn new(maildir: &Path) -> Inbox {
        Inbox {
            maildir: maildir.to_path_buf(),
            read: Vec::new(),
            untaken: Vec::new(),
        }
    }

    fn read_new(&mut self) {
        let Ok(entries) = std::fs::read_dir(self.maildir.join("new")) else {
            return;
        };
        let mut paths: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
        // Maildir names begin with the time of arrival.
        paths.sort();
        for path in paths {
            if !self.read.contains(&path) {
                self.untaken
                    .push(parse(&std::fs::read_to_string(&path).unwrap()));
                self.read.push(path);
            }
        }
    }

    /// The next e-mail to `to`, within `limit`.
    fn wait(&mut self, to: &str, limit: Duration) -> Received {
        let start = Instant::now();
        loop {
            self.read_new();
            if let Some(i) = self.untaken.iter().position(|m| m.header("to") == Some(to)) {
                return self.untaken.remove(i);
            }
            assert!(
                start.elapsed() < limit,
                "no e-mail to {to} within {limit:?}; others: {:#?}",
                self.untaken
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// That nothing more arrives for `wait`.
    fn quiet_for(&mut self, wait: Duration) {
        std::thread::sleep(wait);
        self.read_new();
        assert!(
            self.untaken.is_empty(),
            "unexpected e-mails: {:#?}",
            self.untaken
        );
    }
}

/// A player: a session cookie.
struct Player {
    cookie: String,
}

fn sign_up(server: &Server, name: &str, email: &str) -> Player {
    let body = json!({"name": name, "password": "a long password", "email": email});
    let (status, answer, cookie) = server.call_with("POST", "/api/accounts", Some(body), &[]);
    assert_eq!(status, 201, "{answer}");
    Player {
        cookie: cookie.expect("a session cookie"),
    }
}

fn call(
    server: &Server,
    player: &Player,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let (status, value, _) = server.call_with(method, path, body, &[("cookie", &player.cookie)]);
    (status, value)
}

/// Sends a reply as a mail program does: to `address`, through `--mail-in`.
fn reply(port: u16, address: &str, first_line: &str) {
    let message = format!(
        "From: player@example.org\r\nTo: {address}\r\nSubject: Re: loa: your move\r\n\r\n\
         {first_line}\r\n\r\nOn Thu, 26 Nov 2026, loa wrote:\r\n> It is your move.\r\n"
    );
    let sent = Command::new("python3")
        .args([
            "-c",
            "import smtplib, sys\n\
             with smtplib.SMTP('127.0.0.1', int(sys.argv[1]), timeout=10) as s:\n\
             \x20   s.sendmail('player@example.org', [sys.argv[2]], sys.argv[3].encode())",
        ])
        .arg(port.to_string())
        .arg(address)
        .arg(message)
        .status()
        .unwrap();
    assert!(sent.success(), "the reply was refused");
}

/// The path of a link at the public URL, to ask the test's server.
fn local(link: &str) -> &str {
    link.strip_prefix(PUBLIC_URL)
        .expect("a link at the public URL")
}

fn wait_for_moves(server: &Server, id: &str, moves: usize) -> Value {
    server.wait_for(id, &format!("{moves} moves"), |game| game["ply"] == moves)
}

fn legal_move(game: &Value) -> String {
    common::server::first_move(game)
}

#[test]
fn correspondence_by_e_mail_from_sign_up_to_moves_by_reply() {
    let dir = tempfile::tempdir().unwrap();
    let Some(exchanger) = Exchanger::start(dir.path()) else {
        return;
    };
    let mail_in = free_port();
    let mail_in_address = format!("127.0.0.1:{mail_in}");
    let server = exchanger.serve(
        dir.path(),
        &["--public-url", PUBLIC_URL, "--mail-in", &mail_in_address],
    );
    let mut inbox = Inbox::new(&exchanger.maildir);

    // Sign-up: a verification link within 5 seconds; a GET of it verifies the address.
    let ann = sign_up(&server, "Ann", "ann@example.org");
    let bob = sign_up(&server, "Bob", "bob@example.org");
    for (player, address) in [(&ann, "ann@example.org"), (&bob, "bob@example.org")] {
        let mail = inbox.wait(address, Duration::from_secs(5));
        assert_eq!(
            mail.header("subject"),
            Some("loa: verify your e-mail address")
        );
        assert_eq!(mail.header("from"), Some("loa <loa@loa.test>"));
        let link = mail.link(&format!("{PUBLIC_URL}/mail/verify/"));
        let settings = call(&server, player, "GET", "/api/me/mail", None).1;
        assert_eq!(settings["verified"], false);
        assert_eq!(server.call("GET", local(&link), None).0, 200);
        let settings = call(&server, player, "GET", "/api/me/mail", None).1;
        assert_eq!(
            settings,
            json!({"email": address, "verified": true, "notices": "each",
            "sending": true, "replies": true})
        );
    }

    // A correspondence seek, taken: Ann has Black.
    let seek = json!({"variant": "standard", "rules": "draw", "rated": false, "color": "black",
        "clock": {"kind": "correspondence", "days": 3}});
    let (status, made) = call(&server, &ann, "POST", "/api/seeks", Some(seek));
    assert_eq!(status, 201, "{made}");
    let accept = format!("/api/seeks/{}/accept", made["id"].as_str().unwrap());
    let (status, taken) = call(&server, &bob, "POST", &accept, None);
    assert_eq!(status, 201, "{taken}");
    let id = taken["game"].as_str().unwrap().to_string();
    let game = server.get(&format!("/api/games/{id}"));
    // The game starts: Ann, to move first, is told.
    let start = inbox.wait("ann@example.org", Duration::from_secs(10));
    assert_eq!(start.header("subject"), Some("loa: your move against Bob"));

    // Ann moves on the site: Bob's your-move e-mail, with the game's link and a reply
    // address, within 10 seconds.
    let first = legal_move(&game);
    let (status, after) = call(
        &server,
        &ann,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(json!({"move": first})),
    );
    assert_eq!(status, 200, "{after}");
    let to_bob = inbox.wait("bob@example.org", Duration::from_secs(10));
    assert_eq!(to_bob.header("subject"), Some("loa: your move against Ann"));
    assert!(
        to_bob.text.contains(&format!("{PUBLIC_URL}/game/{id}")),
        "{}",
        to_bob.text
    );
    assert!(
        to_bob.text.contains(&format!("Ann played 1. {first}.")),
        "{}",
        to_bob.text
    );
    assert!(
        to_bob.text.contains("You have 3 days for this move."),
        "{}",
        to_bob.text
    );
    assert!(to_bob.header("list-unsubscribe").is_some());
    let bob_reply = to_bob
        .header("reply-to")
        .expect("a reply address")
        .to_string();
    assert!(
        bob_reply.starts_with("loa+") && bob_reply.ends_with("@loa.test"),
        "{bob_reply}"
    );

    // Bob replies with a move: it is played within 10 seconds, and Ann is told.
    let second = legal_move(&after);
    reply(mail_in, &bob_reply, &second);
    let after = wait_for_moves(&server, &id, 2);
    let to_ann = inbox.wait("ann@example.org", Duration::from_secs(10));
    assert!(
        to_ann.text.contains(&format!("Bob played 1... {second}.")),
        "{}",
        to_ann.text
    );
    let ann_reply = to_ann.header("reply-to").unwrap().to_string();

    // The spent address plays nothing, and is not answered.
    reply(mail_in, &bob_reply, &legal_move(&after));
    // An unreadable move is answered with the reason and the legal moves, and a new
    // address that works.
    reply(mail_in, &ann_reply, "z9-z9");
    let refusal = inbox.wait("ann@example.org", Duration::from_secs(10));
    assert_eq!(
        refusal.header("subject"),
        Some("loa: your reply against Bob played nothing")
    );
    assert!(
        refusal.text.contains("The legal moves are:"),
        "{}",
        refusal.text
    );
    assert!(
        refusal.text.contains(&legal_move(&after)),
        "{}",
        refusal.text
    );
    assert_eq!(server.get(&format!("/api/games/{id}"))["ply"], 2);
    let again = refusal.header("reply-to").unwrap().to_string();
    assert_ne!(again, ann_reply);
    reply(mail_in, &again, &legal_move(&after));
    wait_for_moves(&server, &id, 3);
    inbox.wait("bob@example.org", Duration::from_secs(10));

    // The waiting games: Bob's move.
    let (_, waiting) = call(&server, &bob, "GET", "/api/me/waiting", None);
    assert_eq!(waiting[0]["id"], id.as_str(), "{waiting}");
    assert_eq!(
        call(&server, &ann, "GET", "/api/me/waiting", None).1,
        json!([])
    );

    // Unsubscribed, Ann hears of no more moves.
    let unsubscribe = to_ann.header("list-unsubscribe").unwrap();
    let link = unsubscribe.trim_start_matches('<').trim_end_matches('>');
    assert_eq!(server.call("POST", local(link), None).0, 200);
    let (_, settings) = call(&server, &ann, "GET", "/api/me/mail", None);
    assert_eq!(settings["notices"], "off");
    let now = server.get(&format!("/api/games/{id}"));
    let (status, _) = call(
        &server,
        &bob,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(json!({"move": legal_move(&now)})),
    );
    assert_eq!(status, 200);
    inbox.quiet_for(Duration::from_secs(2));
}

#[test]
fn a_forgotten_password_is_set_again_through_a_link_mailed_to_the_verified_address() {
    let dir = tempfile::tempdir().unwrap();
    let Some(exchanger) = Exchanger::start(dir.path()) else {
        return;
    };
    let server = exchanger.serve(dir.path(), &["--public-url", PUBLIC_URL]);
    let mut inbox = Inbox::new(&exchanger.maildir);
    let ann = sign_up(&server, "Ann", "ann@example.org");
    let verification = inbox.wait("ann@example.org", Duration::from_secs(5));
    let link = verification.link(&format!("{PUBLIC_URL}/mail/verify/"));
    assert_eq!(server.call("GET", local(&link), None).0, 200);

    // An address no account has, and Ann's: the same answer, and one e-mail, hers.
    let ask = |email: &str| {
        server.call(
            "POST",
            "/api/password-reset",
            Some(json!({ "email": email })),
        )
    };
    let nobody = ask("nobody@example.org");
    let hers = ask("ann@example.org");
    assert_eq!(hers.0, 202, "{}", hers.1);
    assert_eq!(nobody, hers);
    let mail = inbox.wait("ann@example.org", Duration::from_secs(10));
    assert_eq!(mail.header("subject"), Some("Reset your loa password"));
    assert_eq!(mail.header("from"), Some("loa <loa@loa.test>"));
    assert_eq!(mail.header("list-unsubscribe"), None);
    assert!(
        mail.text
            .contains("If you did not ask for this, ignore this e-mail: nothing has changed"),
        "{}",
        mail.text
    );
    inbox.quiet_for(Duration::from_secs(1));

    // The link opens the page; the new password signs in there, and the old session ends.
    let link = mail.link(&format!("{PUBLIC_URL}/password-reset/"));
    assert_eq!(server.call("GET", local(&link), None).0, 200);
    let secret = link.rsplit('/').next().unwrap();
    let (status, me, cookie) = server.call_with(
        "POST",
        &format!("/api/password-reset/{secret}"),
        Some(json!({"password": "a brand new password"})),
        &[],
    );
    assert_eq!(status, 200, "{me}");
    assert_eq!(me["name"], "Ann");
    let there = Player {
        cookie: cookie.expect("signed in"),
    };
    assert_eq!(call(&server, &there, "GET", "/api/me", None).0, 200);
    assert_eq!(call(&server, &ann, "GET", "/api/me", None).0, 401);
    let sign_in = |password: &str| {
        let body = json!({"name": "Ann", "password": password});
        server.call("POST", "/api/session", Some(body)).0
    };
    assert_eq!(sign_in("a long password"), 401);
    assert_eq!(sign_in("a brand new password"), 200);
    // The owner of the address hears of the new password.
    let notice = inbox.wait("ann@example.org", Duration::from_secs(10));
    assert_eq!(
        notice.header("subject"),
        Some("Your loa password was changed")
    );
}

#[test]
fn the_listener_takes_mail_for_reply_addresses_only() {
    let dir = tempfile::tempdir().unwrap();
    let Some(exchanger) = Exchanger::start(dir.path()) else {
        return;
    };
    let mail_in = free_port();
    let _server = exchanger.serve(dir.path(), &["--mail-in", &format!("127.0.0.1:{mail_in}")]);
    let refused = Command::new("python3")
        .args([
            "-c",
            "import smtplib, sys\n\
             with smtplib.SMTP('127.0.0.1', int(sys.argv[1]), timeout=10) as s:\n\
             \x20   s.ehlo()\n\
             \x20   print(s.mail('a@example.org')[0], s.rcpt('someone@example.org')[0], \
                   s.rcpt('loa+abcdefghijkmnpqrstuvwxyz23@localhost')[0])",
        ])
        .arg(mail_in.to_string())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&refused.stdout).trim(),
        "250 550 250"
    );
}
