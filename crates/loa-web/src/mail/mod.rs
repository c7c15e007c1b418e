//! Correspondence by e-mail: the site's outgoing mail (an outbox in the database, sent by
//! one worker over SMTP), the e-mails themselves, and moves played by replying to them
//! (an SMTP listener the site's mail exchanger forwards to).
//!
//! - `compose`: the e-mails' text, with no I/O;
//! - `reply`: what a reply says (its first line) and which address it went to;
//! - `outbox`: the worker that sends the outbox, retried with backoff, never twice;
//! - `inbox`: the SMTP listener for replies;
//! - `notices`: when to write (your move, the 24-hour reminder, the daily digest);
//! - `replies`: what a reply plays; `verification`: the links that verify an address;
//! - `password_reset`: the links that set a forgotten password.

pub mod compose;
mod inbox;
mod notices;
mod outbox;
mod password_reset;
mod replies;
pub mod reply;
mod security;
mod verification;

pub use inbox::listen;
pub use notices::{after_change, after_create, game_seen, spawn_ticker};
pub use outbox::spawn_worker;
pub use password_reset::{send_password_resets, RESET_LINK_MS};
pub use replies::play_reply;
pub use security::send_security_notice;
pub use verification::{send_verification, verification_refused, verify};

#[cfg(test)]
pub use notices::{digests, remind};

use std::sync::OnceLock;
use tokio::sync::Notify;

/// An e-mail as the outbox keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Letter {
    pub to: String,
    pub subject: String,
    pub body: String,
    /// Where a reply goes: an address that plays a move.
    pub reply_to: Option<String>,
    /// The link that turns the notices off (for the `List-Unsubscribe` header).
    pub unsubscribe: Option<String>,
}

/// Queues an e-mail about the account itself (a link to verify or reset, a security
/// notice): no reply address, no unsubscribe link, sent whatever the notices say; and
/// wakes the outbox's worker.
async fn send_plain(
    hub: &crate::hub::Hub,
    to: &str,
    (subject, body): compose::Text,
    now: i64,
) -> Result<(), crate::store::StoreError> {
    let letter = Letter {
        to: to.to_string(),
        subject,
        body,
        reply_to: None,
        unsubscribe: None,
    };
    hub.store.queue_mail(&letter, now).await?;
    hub.mail.queued.notify_one();
    Ok(())
}

/// What a player wants to hear when it is their move in a correspondence game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Notices {
    /// An e-mail at each move (not another until they have looked at the game).
    #[default]
    Each,
    /// One e-mail a day listing the games waiting.
    Digest,
    Off,
}

impl Notices {
    pub const ALL: [Notices; 3] = [Notices::Each, Notices::Digest, Notices::Off];

    pub fn as_str(self) -> &'static str {
        match self {
            Notices::Each => "each",
            Notices::Digest => "digest",
            Notices::Off => "off",
        }
    }
}

impl std::str::FromStr for Notices {
    type Err = String;

    fn from_str(text: &str) -> Result<Notices, String> {
        Notices::ALL
            .into_iter()
            .find(|n| n.as_str() == text)
            .ok_or_else(|| {
                format!(
                    "notices are each, digest or off, not '{}'",
                    loa_core::excerpt(text)
                )
            })
    }
}

/// How the site sends mail, as `loa serve` was started.
#[derive(Clone, Debug)]
pub struct MailConfig {
    /// The SMTP server's URL (`smtp://host:port`, `smtps://user:pass@host`,
    /// `smtp://host?tls=required`).
    pub smtp: String,
    /// The address the e-mails come from; replies go to its local part with `+` and a
    /// secret (`loa+secret@loa.example`).
    pub from: String,
    /// The site's address: every link in an e-mail starts with it.
    pub public_url: String,
    /// Whether replies are listened for (`--mail-in`): only then do e-mails offer them.
    pub replies: bool,
}

impl MailConfig {
    /// The reply address standing for one secret: the sender's, with `+secret`.
    pub fn reply_address(&self, secret: &str) -> String {
        let (local, domain) = self
            .from
            .rsplit_once('@')
            .unwrap_or((&self.from, "localhost"));
        format!("{local}+{secret}@{domain}")
    }

    /// The local part replies go to, before the `+`.
    pub fn reply_local_part(&self) -> &str {
        self.from
            .rsplit_once('@')
            .map_or(&self.from, |(local, _)| local)
    }
}

/// The site's mail: configured once at start (or never: then nothing is sent), and the
/// worker's wake-up call.
#[derive(Default)]
pub struct Mail {
    config: OnceLock<MailConfig>,
    pub(crate) queued: Notify,
}

impl Mail {
    pub fn configure(&self, config: MailConfig) {
        let _ = self.config.set(config);
    }

    /// The configuration, if mail is sent at all.
    pub fn config(&self) -> Option<&MailConfig> {
        self.config.get()
    }
}

/// Whether an address can be sent to (as lettre reads it): the outbox holds no other.
pub fn is_sendable(address: &str) -> bool {
    address.parse::<lettre::Address>().is_ok()
}

/// The address e-mails come from, as a person gives it (`loa@loa.example`), checked.
pub fn mail_address(text: &str) -> Result<String, String> {
    if is_sendable(text) && !text.contains('+') {
        Ok(text.to_string())
    } else {
        Err(format!(
            "'{}' is not an address like loa@loa.example (without a '+': replies add one)",
            loa_core::excerpt(text)
        ))
    }
}

/// An SMTP server's URL as a person gives it, checked for its shape (lettre reads the
/// rest when the server starts).
pub fn smtp_url(text: &str) -> Result<String, String> {
    let scheme = text.split_once("://").map(|(scheme, _)| scheme);
    match scheme {
        Some("smtp" | "smtps") if text.len() > scheme.map_or(0, str::len) + 3 => {
            lettre::AsyncSmtpTransport::<lettre::Tokio1Executor>::from_url(text)
                .map(|_| text.to_string())
                .map_err(|e| format!("'{}': {e}", loa_core::excerpt(text)))
        }
        _ => Err(format!(
            "'{}' is not an SMTP server's URL: smtp://host:port, smtps://user:password@host, \
             or smtp://host?tls=required",
            loa_core::excerpt(text)
        )),
    }
}

/// A new secret for a link or a reply address: 26 lowercase letters and digits (130
/// bits), safe in a URL and in an address's local part, where case may be lost.
pub fn new_secret() -> String {
    let mut secret = crate::ids::random_name();
    secret.push_str(&crate::ids::random_name()[..6]);
    secret
}

/// Whether `text` could be a secret [`new_secret`] made.
pub fn is_secret(text: &str) -> bool {
    text.len() == 26
        && text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> MailConfig {
        MailConfig {
            smtp: "smtp://127.0.0.1:25".into(),
            from: "loa@loa.example".into(),
            public_url: "https://loa.example".into(),
            replies: true,
        }
    }

    #[test]
    fn a_reply_address_is_the_senders_with_the_secret() {
        let config = config();
        assert_eq!(config.reply_address("abc"), "loa+abc@loa.example");
        assert_eq!(config.reply_local_part(), "loa");
    }

    #[test]
    fn secrets_are_long_lowercase_and_differ() {
        let (a, b) = (new_secret(), new_secret());
        assert!(is_secret(&a) && is_secret(&b), "{a} {b}");
        assert_ne!(a, b);
        assert!(!is_secret("short"));
        assert!(!is_secret(&a.to_uppercase()));
    }

    #[test]
    fn smtp_urls_and_sender_addresses_are_checked() {
        for good in [
            "smtp://127.0.0.1:2525",
            "smtps://user:pw@mail.example",
            "smtp://mail.example?tls=required",
        ] {
            assert_eq!(smtp_url(good).as_deref(), Ok(good));
        }
        for bad in ["", "mail.example", "http://mail.example", "smtp://"] {
            assert!(
                smtp_url(bad).unwrap_err().contains("SMTP server's URL"),
                "{bad}"
            );
        }
        assert_eq!(
            mail_address("loa@loa.example").as_deref(),
            Ok("loa@loa.example")
        );
        for bad in ["loa", "loa+x@loa.example", "a b@c.d"] {
            assert!(mail_address(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn notices_read_their_names_and_refuse_others() {
        for notices in Notices::ALL {
            assert_eq!(notices.as_str().parse::<Notices>(), Ok(notices));
        }
        assert!("weekly"
            .parse::<Notices>()
            .unwrap_err()
            .contains("each, digest or off"));
    }
}
