//! The server's side of the bot: its JSON API over HTTP (ureq) and a game's WebSocket
//! (tungstenite), as an account's API token sees them (docs/bot-api.md). Only the
//! fields the bot reads are declared; the server may send more.

use super::Log;
use loa_core::excerpt;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::fmt;
use std::io::ErrorKind;
use std::marker::PhantomData;
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

/// How long a request may take before the server counts as gone.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a socket read waits before the caller gets control back (to check for
/// Ctrl-C, send a ping, or give up on a silent connection).
pub const SOCKET_TICK: Duration = Duration::from_millis(250);

/// Why a request failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// No answer: the server is down, unreachable or too slow. Worth trying again.
    Unreachable(String),
    /// An answer with an error status and the server's `error` text.
    Status { status: u16, message: String },
    /// An answer the bot cannot read (not the JSON it expects).
    Unreadable(String),
}

impl ApiError {
    pub fn status(&self) -> Option<u16> {
        match self {
            ApiError::Status { status, .. } => Some(*status),
            _ => None,
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::Unreachable(why) => write!(f, "no answer from the server: {why}"),
            ApiError::Status { status, message } => write!(f, "{status}: {message}"),
            ApiError::Unreadable(why) => write!(f, "an answer the bot cannot read: {why}"),
        }
    }
}

/// `GET /api/me`.
#[derive(Clone, Debug, Deserialize)]
pub struct Me {
    pub name: String,
    pub bot: bool,
}

/// A clock's terms, as the API writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Control {
    Live {
        initial_s: u64,
        increment_s: u64,
    },
    Correspondence {
        days: u64,
    },
    /// A kind this bot does not know.
    #[serde(other)]
    Other,
}

impl fmt::Display for Control {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Control::Live {
                initial_s,
                increment_s,
            } => write!(f, "{initial_s}+{increment_s}"),
            Control::Correspondence { days } => {
                write!(f, "{days} day{} a move", if *days == 1 { "" } else { "s" })
            }
            Control::Other => f.write_str("an unknown clock"),
        }
    }
}

/// An entry of `GET /api/challenges`.
#[derive(Clone, Debug, Deserialize)]
pub struct Challenge {
    pub id: String,
    pub from: String,
    pub to: String,
    pub variant: String,
    pub rules: String,
    /// `null` for a challenge without a clock (the API asks for one today).
    pub clock: Option<Control>,
    pub rated: bool,
    pub status: String,
    pub game: Option<String>,
}

/// An entry of `GET /api/me/games`.
#[derive(Clone, Debug, Deserialize)]
pub struct GameSummary {
    pub id: String,
    pub online: bool,
    pub result: Option<String>,
}

/// A game's clocks at the time the view was written.
#[derive(Clone, Debug, Deserialize)]
pub struct ClockView {
    pub control: Control,
    pub black_ms: u64,
    pub white_ms: u64,
}

/// How a game ended.
#[derive(Clone, Debug, Deserialize)]
pub struct Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// `black`, `white`, or `null` for a draw (or an aborted game, `result` `*`).
    pub winner: Option<String>,
    pub reason: String,
}

/// A game as `GET /api/games/{id}` and its socket show it.
#[derive(Clone, Debug, Deserialize)]
pub struct GameView {
    pub id: String,
    pub variant: String,
    pub rules: String,
    #[serde(default)]
    pub online: bool,
    #[serde(default)]
    pub rated: bool,
    /// Black's and White's account names.
    #[serde(default)]
    pub names: [Option<String>; 2],
    /// The start's position text.
    pub start: String,
    pub moves: Vec<String>,
    pub ply: usize,
    /// The place to move (`black`, `white`, ...), while the game goes on.
    pub to_move_slot: Option<String>,
    pub clock: Option<ClockView>,
    #[serde(default)]
    pub started: bool,
    pub result: Option<Outcome>,
    /// The caller's place (`GET` only; the socket leaves it out).
    #[serde(default)]
    pub you: Option<String>,
}

/// The start of a long text, for the protocol log: a view can be tens of kilobytes.
fn clip(text: &str) -> String {
    const SHOWN: usize = 300;
    match text.char_indices().nth(SHOWN) {
        Some((end, _)) => format!("{}... ({} bytes)", &text[..end], text.len()),
        None => text.to_string(),
    }
}

/// The API of one server, as one account's token.
pub struct Client {
    base: String,
    token: String,
    agent: ureq::Agent,
    log: std::sync::Arc<dyn Log>,
}

impl Client {
    /// `base` is the server's address (`http://host:port`), with or without a final `/`.
    pub fn new(base: &str, token: &str, log: std::sync::Arc<dyn Log>) -> Client {
        let agent = ureq::AgentBuilder::new()
            .timeout_connect(Duration::from_secs(10))
            .timeout(REQUEST_TIMEOUT)
            .user_agent(concat!("loa-bot/", env!("CARGO_PKG_VERSION")))
            .build();
        Client {
            base: base.trim_end_matches('/').to_string(),
            token: token.to_string(),
            agent,
            log,
        }
    }

    /// A request answered with JSON; an error status becomes [`ApiError::Status`] with
    /// the server's `error` text.
    fn call<T: DeserializeOwned>(
        &self,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> Result<T, ApiError> {
        self.log.protocol(&match &body {
            Some(body) => format!("> {method} {path} {body}"),
            None => format!("> {method} {path}"),
        });
        let request = self
            .agent
            .request(method, &format!("{}{path}", self.base))
            .set("Authorization", &format!("Bearer {}", self.token));
        let result = match body {
            Some(body) => request.send_json(body),
            None => request.call(),
        };
        let (status, response) = match result {
            Ok(response) => (response.status(), response),
            Err(ureq::Error::Status(status, response)) => (status, response),
            Err(ureq::Error::Transport(transport)) => {
                let why = transport.to_string();
                self.log.protocol(&format!("< {why}"));
                return Err(ApiError::Unreachable(why));
            }
        };
        let text = response
            .into_string()
            .map_err(|e| ApiError::Unreachable(e.to_string()))?;
        self.log
            .protocol(&format!("< {status} {}", clip(text.trim())));
        if status >= 400 {
            let message = serde_json::from_str::<Value>(&text)
                .ok()
                .and_then(|v| v["error"].as_str().map(str::to_string))
                .unwrap_or_else(|| excerpt(text.trim()).into_owned());
            return Err(ApiError::Status { status, message });
        }
        let text = if text.trim().is_empty() {
            "null"
        } else {
            &text
        };
        serde_json::from_str(text).map_err(|e| ApiError::Unreadable(format!("{path}: {e}")))
    }

    /// Notes a line of the protocol (shown with `--verbose`).
    pub fn log_protocol(&self, line: &str) {
        self.log.protocol(line);
    }

    pub fn me(&self) -> Result<Me, ApiError> {
        self.call("GET", "/api/me", None)
    }

    /// Marks the account a bot (`POST /api/me/bot`).
    pub fn make_bot(&self) -> Result<Me, ApiError> {
        self.call("POST", "/api/me/bot", None)
    }

    /// The open challenges the account sent or received.
    pub fn challenges(&self) -> Result<Vec<Challenge>, ApiError> {
        self.call("GET", "/api/challenges", None)
    }

    /// Accepts a challenge: the challenge, with its `game`.
    pub fn accept(&self, id: &str) -> Result<Challenge, ApiError> {
        self.call("POST", &format!("/api/challenges/{id}/accept"), None)
    }

    pub fn decline(&self, id: &str) -> Result<Challenge, ApiError> {
        self.call("POST", &format!("/api/challenges/{id}/decline"), None)
    }

    /// The account's latest games (the server's page size).
    pub fn my_games(&self) -> Result<Vec<GameSummary>, ApiError> {
        self.call("GET", "/api/me/games?limit=200", None)
    }

    /// The game as the account sees it (`you` is its place).
    pub fn game(&self, id: &str) -> Result<GameView, ApiError> {
        self.call("GET", &format!("/api/games/{id}"), None)
    }

    /// Plays a move chosen when `ply` moves had been played; answers the new view.
    pub fn play(&self, id: &str, mv: &str, ply: usize) -> Result<GameView, ApiError> {
        self.call(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(json!({"move": mv, "ply": ply})),
        )
    }

    pub fn resign(&self, id: &str) -> Result<GameView, ApiError> {
        self.call("POST", &format!("/api/games/{id}/resign"), None)
    }

    /// Opens the game's socket. Its reads give control back every [`SOCKET_TICK`].
    pub fn socket(&self, id: &str) -> Result<GameSocket, ApiError> {
        self.connect(&format!("/api/games/{id}/socket"))
    }

    /// Opens the account's socket (`GET /api/me/socket`): the open challenges and the
    /// games waiting for the account, at once and after each change.
    pub fn account_socket(&self) -> Result<AccountSocket, ApiError> {
        self.connect("/api/me/socket")
    }

    fn connect<T>(&self, path: &str) -> Result<Socket<T>, ApiError> {
        let url = format!("{}{path}", self.base);
        let ws_url = if let Some(rest) = url.strip_prefix("http://") {
            format!("ws://{rest}")
        } else {
            return Err(ApiError::Unreachable(format!(
                "{}: only http:// servers are supported (put a TLS proxy's plain side in \
                 --server)",
                excerpt(&self.base)
            )));
        };
        self.log.protocol(&format!("> WebSocket {ws_url}"));
        let unreachable = |e: &dyn fmt::Display| ApiError::Unreachable(e.to_string());
        let mut request = ws_url
            .as_str()
            .into_client_request()
            .map_err(|e| unreachable(&e))?;
        let bearer = format!("Bearer {}", self.token)
            .parse()
            .map_err(|_| ApiError::Unreachable("the token is not a header's text".to_string()))?;
        request.headers_mut().insert("authorization", bearer);
        let host = request.uri().host().unwrap_or_default().to_string();
        let port = request.uri().port_u16().unwrap_or(80);
        let address = (host.as_str(), port)
            .to_socket_addrs()
            .map_err(|e| unreachable(&e))?
            .next()
            .ok_or_else(|| ApiError::Unreachable(format!("{host}: no address")))?;
        let stream = TcpStream::connect_timeout(&address, Duration::from_secs(10))
            .map_err(|e| unreachable(&e))?;
        stream
            .set_read_timeout(Some(REQUEST_TIMEOUT))
            .map_err(|e| unreachable(&e))?;
        let (socket, _) = tungstenite::client(request, stream).map_err(|e| match e {
            tungstenite::HandshakeError::Failure(tungstenite::Error::Http(response)) => {
                ApiError::Status {
                    status: response.status().as_u16(),
                    message: "the socket was refused".to_string(),
                }
            }
            other => unreachable(&other),
        })?;
        socket
            .get_ref()
            .set_read_timeout(Some(SOCKET_TICK))
            .map_err(|e| unreachable(&e))?;
        Ok(Socket {
            socket,
            log: self.log.clone(),
            read: PhantomData,
        })
    }
}

/// A message of the account's socket: one list or the other.
#[derive(Debug, Deserialize)]
pub struct AccountNews {
    /// The open challenges, as `GET /api/challenges` lists them.
    pub challenges: Option<Vec<Challenge>>,
    /// The games waiting for the account's move, as `GET /api/me/waiting` lists them.
    pub waiting: Option<Vec<WaitingGame>>,
}

/// An entry of `GET /api/me/waiting`.
#[derive(Clone, Debug, Deserialize)]
pub struct WaitingGame {
    pub id: String,
}

/// What a read of a socket gave.
#[derive(Debug)]
enum SocketEvent<T> {
    /// A message: a game's view after a change (or when the socket opened), or the
    /// account's news.
    Message(Box<T>),
    /// A frame with no message in it (a pong): the connection lives.
    Alive,
    /// Nothing within [`SOCKET_TICK`].
    Quiet,
    /// The connection is gone, and why.
    Closed(String),
}

/// A socket of the server's, whose text messages are `T`s in JSON.
pub struct Socket<T> {
    socket: WebSocket<TcpStream>,
    log: std::sync::Arc<dyn Log>,
    read: PhantomData<fn() -> T>,
}

/// A game's socket: the server sends the view after every change.
pub type GameSocket = Socket<GameView>;
/// The account's socket.
pub type AccountSocket = Socket<AccountNews>;

impl<T: DeserializeOwned> Socket<T> {
    /// Waits up to [`SOCKET_TICK`] for the next message.
    fn next(&mut self) -> SocketEvent<T> {
        match self.socket.read() {
            Ok(Message::Text(text)) => {
                self.log.protocol(&format!("< socket {}", clip(&text)));
                match serde_json::from_str::<T>(&text) {
                    Ok(message) => SocketEvent::Message(Box::new(message)),
                    Err(e) => SocketEvent::Closed(format!("an unreadable message: {e}")),
                }
            }
            Ok(Message::Close(_)) => SocketEvent::Closed("the server closed it".to_string()),
            Ok(_) => SocketEvent::Alive,
            Err(tungstenite::Error::Io(e))
                if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
            {
                SocketEvent::Quiet
            }
            Err(e) => SocketEvent::Closed(e.to_string()),
        }
    }

    /// Waits up to [`SOCKET_TICK`] for the next message, keeping `liveness` (a quiet
    /// socket pinged): `Ok(None)` for none yet, `Err` with why once the connection is lost.
    pub fn next_alive(&mut self, liveness: &mut Liveness) -> Result<Option<T>, String> {
        match self.next() {
            SocketEvent::Message(message) => {
                liveness.heard();
                Ok(Some(*message))
            }
            SocketEvent::Alive => {
                liveness.heard();
                Ok(None)
            }
            SocketEvent::Quiet => liveness.quiet(self).map(|()| None),
            SocketEvent::Closed(why) => Err(why),
        }
    }

    /// Sends a ping: a connection that went away without a word fails on it, or gets no
    /// pong.
    fn ping(&mut self) -> Result<(), String> {
        self.socket
            .send(Message::Ping(Vec::new().into()))
            .map_err(|e| e.to_string())
    }

    pub fn close(mut self) {
        let _ = self.socket.close(None);
        let _ = self.socket.flush();
    }
}

/// Whether a socket still lives: a quiet one is pinged, and one whose ping goes
/// unanswered is dead.
pub struct Liveness {
    heard: Instant,
    pinged: Option<Instant>,
}

impl Liveness {
    /// With no message for this long, a ping asks whether the connection lives.
    const QUIET: Duration = Duration::from_secs(20);
    /// A ping unanswered for this long: the connection is dead.
    const PONG_WAIT: Duration = Duration::from_secs(10);

    pub fn new() -> Liveness {
        Liveness {
            heard: Instant::now(),
            pinged: None,
        }
    }

    /// Something came: the connection lives.
    pub fn heard(&mut self) {
        self.heard = Instant::now();
        self.pinged = None;
    }

    /// A quiet tick: pings if the socket has been quiet long; why it is dead, if it is.
    pub fn quiet<T: DeserializeOwned>(&mut self, socket: &mut Socket<T>) -> Result<(), String> {
        match self.pinged {
            Some(at) if at.elapsed() > Self::PONG_WAIT => Err("no pong".to_string()),
            None if self.heard.elapsed() > Self::QUIET => {
                socket.ping()?;
                self.pinged = Some(Instant::now());
                Ok(())
            }
            _ => Ok(()),
        }
    }
}
