//! The worker that sends the outbox over SMTP. An e-mail is marked as being sent before
//! it goes (so no second worker and no later run sends it again), then as sent; an
//! attempt the mail server refuses for now is tried again later, with backoff, and one
//! it refuses for good is failed. A move never waits for any of this: it only writes a
//! row and wakes the worker.

use super::Letter;
use crate::clock::now_ms;
use crate::hub::Hub;
use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue, MIME_VERSION_1_0};
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use std::sync::Arc;
use std::time::Duration;

/// The waits before the second, third... attempt; after the last the e-mail is failed.
const BACKOFF_S: [i64; 5] = [60, 5 * 60, 30 * 60, 2 * 3600, 12 * 3600];
/// How long one attempt may take.
const SEND_TIMEOUT: Duration = Duration::from_secs(30);
/// The worker looks at the outbox at least this often (a row another server wrote).
const IDLE_CHECK: Duration = Duration::from_secs(30);
/// E-mails sent at once, over as many pooled connections.
const SENDERS: usize = 4;

/// Checks the SMTP URL and starts the worker; nothing when mail is not configured.
pub fn spawn_worker(hub: &Arc<Hub>) -> anyhow::Result<()> {
    let Some(config) = hub.mail.config().cloned() else {
        return Ok(());
    };
    let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(&config.smtp)
        .map_err(|e| anyhow::anyhow!("--smtp '{}': {e}", redacted(&config.smtp)))?
        .timeout(Some(SEND_TIMEOUT))
        .build();
    let from: Mailbox = format!("loa <{}>", config.from)
        .parse()
        .map_err(|e| anyhow::anyhow!("--mail-from '{}': {e}", config.from))?;
    let hub = Arc::clone(hub);
    tokio::spawn(async move {
        check_mail_server(&transport, &config.smtp).await;
        match fail_interrupted(&hub).await {
            Ok(0) => {}
            Ok(n) => tracing::warn!(
                "{} interrupted mid-send by the last stop: not sent again",
                loa_core::counted(usize::try_from(n).unwrap_or(0), "e-mail")
            ),
            Err(err) => tracing::error!("cannot read the outbox: {err}"),
        }
        for _ in 0..SENDERS {
            tokio::spawn(send_until_stopped(
                Arc::clone(&hub),
                transport.clone(),
                from.clone(),
            ));
        }
    });
    Ok(())
}

/// How long the check at the start waits for the mail server.
const CHECK_TIMEOUT: Duration = Duration::from_secs(10);

/// Asks the mail server for a connection at the start, so that a wrong `--smtp` (a
/// server down, a port closed, a password refused) is in the log at once rather than at
/// the first sign-up. The site serves either way: e-mails wait in the outbox.
async fn check_mail_server(transport: &AsyncSmtpTransport<Tokio1Executor>, url: &str) {
    let why = match tokio::time::timeout(CHECK_TIMEOUT, transport.test_connection()).await {
        Ok(Ok(true)) => return tracing::info!("the mail server at {} answers", redacted(url)),
        Ok(Ok(false)) => "it does not take a connection".to_string(),
        Ok(Err(err)) => err.to_string(),
        Err(_) => format!("no answer within {} s", CHECK_TIMEOUT.as_secs()),
    };
    tracing::warn!(
        "the mail server at {} cannot be reached ({why}): e-mails wait in the outbox and \
         are tried again later",
        redacted(url)
    );
}

/// How long a send may take before the e-mail is taken for one its server never
/// finished (it stopped): far longer than the SMTP timeout.
const SEND_LEASE_MS: i64 = 15 * 60 * 1000;

/// Fails the e-mails a stopped server was sending: on SQLite (one server) all those being
/// sent at the start; on PostgreSQL, where other servers may be sending theirs, those
/// claimed longer ago than a send can take.
pub async fn fail_interrupted(hub: &Hub) -> Result<u64, crate::store::StoreError> {
    let claimed_before = if hub.store.is_shared() {
        now_ms() - SEND_LEASE_MS
    } else {
        i64::MAX
    };
    hub.store.fail_interrupted_mail(claimed_before).await
}

/// One sender: the e-mails due, one after another, then a wait for the next.
async fn send_until_stopped(
    hub: Arc<Hub>,
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
) {
    loop {
        let wake = hub.mail.queued.notified();
        match send_due(&hub, &transport, &from).await {
            Ok(true) => {
                // More may be due: another sender can take the next.
                hub.mail.queued.notify_one();
                continue;
            }
            Ok(false) => {}
            Err(err) => tracing::error!("outbox: {err}"),
        }
        let wait = match hub.store.next_mail_due().await {
            Ok(Some(due)) => {
                Duration::from_millis(u64::try_from(due.saturating_sub(now_ms())).unwrap_or(0))
                    .min(IDLE_CHECK)
            }
            _ => IDLE_CHECK,
        };
        let _ = tokio::time::timeout(wait, wake).await;
    }
}

/// Sends the next e-mail due; `false` when none is.
async fn send_due(
    hub: &Hub,
    transport: &AsyncSmtpTransport<Tokio1Executor>,
    from: &Mailbox,
) -> Result<bool, crate::store::StoreError> {
    let Some(row) = hub.store.claim_mail(now_ms()).await? else {
        return Ok(false);
    };
    let message = match message(&row.letter, from) {
        Ok(message) => message,
        Err(err) => {
            hub.store.mail_failed(row.id, &err, None).await?;
            return Ok(true);
        }
    };
    match transport.send(message).await {
        Ok(_) => hub.store.mail_sent(row.id, now_ms()).await?,
        Err(err) => {
            let retry_at = usize::try_from(row.attempts - 1)
                .ok()
                .and_then(|i| BACKOFF_S.get(i))
                .filter(|_| !err.is_permanent())
                .map(|wait| now_ms() + wait * 1000);
            let to = &row.letter.to;
            match retry_at {
                Some(_) => tracing::warn!("e-mail to {to} not sent, tried again later: {err}"),
                None => tracing::error!("e-mail to {to} not sent, given up: {err}"),
            }
            hub.store
                .mail_failed(row.id, &err.to_string(), retry_at)
                .await?;
        }
    }
    Ok(true)
}

/// The e-mail as SMTP carries it: plain text, with its reply address and one-click
/// unsubscribe headers, and the `Message-ID` and `MIME-Version` that large mail services
/// want before they take a message for mail rather than spam.
fn message(letter: &Letter, from: &Mailbox) -> Result<Message, String> {
    let to: Mailbox = letter.to.parse().map_err(|e| format!("address: {e}"))?;
    // The sending domain's, not this machine's name, which may be a container's.
    let message_id = format!("<{}@{}>", crate::ids::random_name(), from.email.domain());
    let mut builder = Message::builder()
        .from(from.clone())
        .to(to)
        .subject(&letter.subject)
        .message_id(Some(message_id))
        .header(MIME_VERSION_1_0)
        .header(ContentType::TEXT_PLAIN);
    if let Some(reply_to) = &letter.reply_to {
        builder = builder.reply_to(
            reply_to
                .parse()
                .map_err(|e| format!("reply address: {e}"))?,
        );
    }
    if let Some(link) = &letter.unsubscribe {
        builder = builder
            .header(ListUnsubscribe(format!("<{link}>")))
            .header(ListUnsubscribePost);
    }
    builder.body(letter.body.clone()).map_err(|e| e.to_string())
}

/// An SMTP URL as a log may show it: without its password.
fn redacted(url: &str) -> String {
    match (url.split_once("://"), url.rfind('@')) {
        (Some((scheme, _)), Some(at)) => format!("{scheme}://…{}", &url[at..]),
        _ => url.to_string(),
    }
}

/// RFC 2369: the link that unsubscribes, which mail programs show as a button.
#[derive(Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribe(s.to_string()))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.clone())
    }
}

/// RFC 8058: the link unsubscribes with one POST, without a page to confirm on.
#[derive(Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribePost)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_letter_becomes_a_message_with_its_headers() {
        let letter = Letter {
            to: "ann@example.org".into(),
            subject: "loa: your move against Bob".into(),
            body: "It is your move.\n".into(),
            reply_to: Some("loa+abc@loa.example".into()),
            unsubscribe: Some("https://loa.example/mail/unsubscribe/u".into()),
        };
        let from: Mailbox = "loa <loa@loa.example>".parse().unwrap();
        let raw = String::from_utf8(message(&letter, &from).unwrap().formatted()).unwrap();
        for header in [
            "From: loa <loa@loa.example>\r\n",
            "To: ann@example.org\r\n",
            "Reply-To: loa+abc@loa.example\r\n",
            "List-Unsubscribe: <https://loa.example/mail/unsubscribe/u>\r\n",
            "List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n",
            "MIME-Version: 1.0\r\n",
            "@loa.example>\r\n",
        ] {
            assert!(raw.contains(header), "{header:?} not in:\n{raw}");
        }
        assert!(raw.contains("\r\nMessage-ID: <"), "{raw}");
        // Each message its own id.
        let again = String::from_utf8(message(&letter, &from).unwrap().formatted()).unwrap();
        let id = |raw: &str| {
            raw.lines()
                .find(|l| l.starts_with("Message-ID"))
                .map(str::to_string)
        };
        assert_ne!(id(&raw), id(&again));
        let bad = Letter {
            to: "not an address".into(),
            ..letter
        };
        assert!(message(&bad, &from).unwrap_err().starts_with("address"));
    }

    #[test]
    fn a_password_is_never_logged() {
        assert_eq!(
            redacted("smtps://user:secret@mail.example"),
            "smtps://…@mail.example"
        );
        assert_eq!(redacted("smtp://127.0.0.1:25"), "smtp://127.0.0.1:25");
    }
}
