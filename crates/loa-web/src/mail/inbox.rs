//! The SMTP listener for replies (`--mail-in`): the site's mail exchanger forwards to it
//! what comes to the reply addresses. It takes mail for reply addresses only (so it
//! relays nothing), a message of at most 256 KB, from at most 32 connections at once;
//! each message taken is handed to [`super::play_reply`] once per reply address.

use crate::hub::Hub;
use mailin::{response, Action, Handler, Response, SessionBuilder};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, Semaphore};

/// The largest message taken.
const MAX_MESSAGE: usize = 256 * 1024;
/// The longest line (SMTP allows 1,000 characters; some clients send longer).
const MAX_LINE: u64 = 4096;
/// The most connections at once.
const MAX_CONNECTIONS: usize = 32;
/// A client silent this long is dropped.
const IDLE: Duration = Duration::from_secs(120);
/// The longest conversation: a client cannot hold a connection by sending little.
const LONGEST: Duration = Duration::from_secs(600);

/// A message received, for the reply addresses it was sent to.
struct Received {
    secrets: Vec<String>,
    message: Vec<u8>,
}

/// Binds `address` and answers SMTP there until the server stops.
pub async fn listen(hub: &Arc<Hub>, address: SocketAddr) -> anyhow::Result<SocketAddr> {
    use anyhow::Context;
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .with_context(|| format!("--mail-in: cannot listen on {address}"))?;
    let bound = listener.local_addr()?;
    let local_part = hub
        .mail
        .config()
        .map(|c| c.reply_local_part().to_string())
        .context("--mail-in needs --smtp: the replies' answers are e-mails")?;
    let (sender, mut received) = mpsc::channel::<Received>(64);
    let player = Arc::clone(hub);
    tokio::spawn(async move {
        while let Some(Received { secrets, message }) = received.recv().await {
            for secret in secrets {
                super::play_reply(&player, &secret, &message).await;
            }
        }
    });
    let permits = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    tokio::spawn(async move {
        loop {
            let Ok((stream, peer)) = listener.accept().await else {
                continue;
            };
            let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
                let mut stream = stream;
                let _ = stream
                    .write_all(b"421 Too many connections, try later\r\n")
                    .await;
                continue;
            };
            let handler = ReplyHandler {
                local_part: local_part.clone(),
                secrets: Vec::new(),
                data: Vec::new(),
                too_big: false,
                sender: sender.clone(),
            };
            tokio::spawn(async move {
                match tokio::time::timeout(LONGEST, converse(stream, peer.ip(), handler)).await {
                    Ok(Ok(())) => {}
                    Ok(Err(err)) => tracing::debug!("mail from {peer}: {err}"),
                    Err(_) => tracing::debug!("mail from {peer}: too long a conversation"),
                }
                drop(permit);
            });
        }
    });
    Ok(bound)
}

/// One SMTP conversation: lines in, the state machine's answers out.
async fn converse(
    stream: tokio::net::TcpStream,
    peer: IpAddr,
    handler: ReplyHandler,
) -> std::io::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut reader = BufReader::new(read);
    let mut session = SessionBuilder::new("loa").build(peer, handler);
    write.write_all(&session.greeting().buffer()?).await?;
    let mut line = Vec::new();
    loop {
        line.clear();
        let mut limited = (&mut reader).take(MAX_LINE);
        let n = match tokio::time::timeout(IDLE, limited.read_until(b'\n', &mut line)).await {
            Ok(result) => result?,
            Err(_) => {
                write.write_all(b"421 Idle too long, closing\r\n").await?;
                return Ok(());
            }
        };
        if n == 0 {
            return Ok(());
        }
        if !line.ends_with(b"\n") {
            write.write_all(b"500 Line too long, closing\r\n").await?;
            return Ok(());
        }
        let answer = session.process(&line);
        match answer.action {
            Action::Reply => write.write_all(&answer.buffer()?).await?,
            Action::Close => {
                write.write_all(&answer.buffer()?).await?;
                return Ok(());
            }
            Action::NoReply | Action::UpgradeTls => {}
        }
    }
}

/// Takes mail for reply addresses only, and hands each message on.
struct ReplyHandler {
    local_part: String,
    secrets: Vec<String>,
    data: Vec<u8>,
    too_big: bool,
    sender: mpsc::Sender<Received>,
}

impl Handler for ReplyHandler {
    fn mail(&mut self, _ip: IpAddr, _domain: &str, _from: &str) -> Response {
        self.secrets.clear();
        response::OK
    }

    fn rcpt(&mut self, to: &str) -> Response {
        match super::reply::secret_of(to, &self.local_part) {
            Some(secret) => {
                if !self.secrets.contains(&secret) {
                    self.secrets.push(secret);
                }
                response::OK
            }
            None => response::NO_MAILBOX,
        }
    }

    fn data_start(
        &mut self,
        _domain: &str,
        _from: &str,
        _is8bit: bool,
        _to: &[String],
    ) -> Response {
        self.data.clear();
        self.too_big = false;
        response::OK
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        if self.data.len() + buf.len() > MAX_MESSAGE {
            self.too_big = true;
        } else {
            self.data.extend_from_slice(buf);
        }
        Ok(())
    }

    fn data_end(&mut self) -> Response {
        if self.too_big {
            self.data.clear();
            return response::NO_STORAGE;
        }
        let received = Received {
            secrets: std::mem::take(&mut self.secrets),
            message: std::mem::take(&mut self.data),
        };
        match self.sender.try_send(received) {
            Ok(()) => response::OK,
            Err(_) => response::INTERNAL_ERROR,
        }
    }
}
