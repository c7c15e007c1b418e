//! Accounts: the rules for names and passwords, password hashes (argon2id), and the
//! guard that slows down guessing. Nothing here knows of HTTP or SQL.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, OnceLock};

/// A name's length, in characters.
pub const NAME_LENGTH: std::ops::RangeInclusive<usize> = 2..=20;
/// The shortest password.
pub const MIN_PASSWORD: usize = 8;
/// The longest password: hashing is costly, and a longer one adds nothing.
pub const MAX_PASSWORD: usize = 256;
/// Failed sign-ins for one name within [`GUARD_WINDOW_MS`] before it is refused for a while.
pub const MAX_FAILURES: usize = 10;
pub const GUARD_WINDOW_MS: i64 = 60_000;

/// Names nobody may take: the site's own, its bots', and words the page uses.
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "anonymous",
    "api",
    "bot",
    "deleted",
    "engine",
    "guest",
    "me",
    "moderator",
    "null",
    "root",
    "support",
    "system",
    "undefined",
];

/// Why a name or password is refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum AccountError {
    #[error("a name has 2 to 20 characters: letters a-z, digits, _ and -")]
    BadName,
    #[error("the name '{0}' is reserved")]
    ReservedName(String),
    #[error("a password has at least {MIN_PASSWORD} characters")]
    ShortPassword,
    #[error("a password has at most {MAX_PASSWORD} characters")]
    LongPassword,
    #[error("an e-mail address has an @ and no spaces, and at most 254 characters")]
    BadEmail,
}

/// A name as people type it, checked; [`AccountName::key`] is what makes two names the
/// same (case is ignored).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountName(String);

impl AccountName {
    pub fn parse(text: &str) -> Result<AccountName, AccountError> {
        let allowed = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        if !NAME_LENGTH.contains(&text.chars().count()) || !text.chars().all(allowed) {
            return Err(AccountError::BadName);
        }
        let key = text.to_ascii_lowercase();
        // The site's engine levels play as `loa-1` .. `loa-8`; deleted accounts become
        // `deleted-N`.
        if RESERVED.contains(&key.as_str()) || key.starts_with("loa") || key.starts_with("deleted")
        {
            return Err(AccountError::ReservedName(text.to_string()));
        }
        Ok(AccountName(text.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The name as compared: two names differing only in case are the same name.
    pub fn key(&self) -> String {
        key_of(&self.0)
    }
}

/// The key a typed name is looked up by (any text: an unknown name finds nothing).
pub fn key_of(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// Checks a new password's length.
pub fn check_password(password: &str) -> Result<(), AccountError> {
    let length = password.chars().count();
    if length < MIN_PASSWORD {
        Err(AccountError::ShortPassword)
    } else if length > MAX_PASSWORD {
        Err(AccountError::LongPassword)
    } else {
        Ok(())
    }
}

/// Checks an e-mail address's shape (whether it receives mail is for a message to show).
pub fn check_email(email: &str) -> Result<(), AccountError> {
    let shaped = email.len() <= 254
        && !email.chars().any(|c| c.is_whitespace() || c.is_control())
        && email
            .split_once('@')
            .is_some_and(|(local, domain)| !local.is_empty() && domain.contains('.'))
        && crate::mail::is_sendable(email);
    if shaped {
        Ok(())
    } else {
        Err(AccountError::BadEmail)
    }
}

/// The password's argon2id hash in PHC form (salt and parameters inside). Costly: call
/// it off the async threads.
pub fn hash_password(password: &str) -> String {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).expect("the operating system's random generator works");
    let salt = SaltString::encode_b64(&salt).expect("16 bytes make a salt");
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .expect("argon2 hashes any password of a checked length")
        .to_string()
}

/// Whether `password` is the one `hash` was made from. `None` (no such account) costs
/// the same as a real check, so the time taken does not tell whether a name exists.
pub fn verify_password(password: &str, hash: Option<&str>) -> bool {
    static DECOY: OnceLock<String> = OnceLock::new();
    let decoy = DECOY.get_or_init(|| hash_password("a password nobody has"));
    let (stored, real) = match hash {
        Some(hash) => (hash, true),
        None => (decoy.as_str(), false),
    };
    let Ok(parsed) = PasswordHash::new(stored) else {
        // A deleted account's empty hash: spend the same time, then refuse.
        let _ = verify_password(password, None);
        return false;
    };
    let matches = Argon2::default()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok();
    matches && real
}

/// Counts failed sign-ins a name, in memory: after [`MAX_FAILURES`] within a minute
/// the name is refused until the oldest failure is a minute old.
#[derive(Default)]
pub struct SignInGuard {
    failures: Mutex<HashMap<String, VecDeque<i64>>>,
}

/// The most names the guard remembers; past it, names with no recent failure go first.
const GUARD_NAMES: usize = 100_000;

impl SignInGuard {
    /// Whether the name may try now.
    pub fn allows(&self, key: &str, now: i64) -> bool {
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        match failures.get_mut(key) {
            Some(times) => {
                times.retain(|&t| now - t < GUARD_WINDOW_MS);
                times.len() < MAX_FAILURES
            }
            None => true,
        }
    }

    pub fn failed(&self, key: &str, now: i64) {
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        if failures.len() >= GUARD_NAMES {
            failures.retain(|_, times| times.back().is_some_and(|&t| now - t < GUARD_WINDOW_MS));
        }
        let times = failures.entry(key.to_string()).or_default();
        times.push_back(now);
        while times.len() > MAX_FAILURES {
            times.pop_front();
        }
    }

    pub fn succeeded(&self, key: &str) {
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        failures.remove(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_rules_and_compare_without_case() {
        for good in ["ab", "Mark_W", "x-1", "abcdefghijklmnopqrst"] {
            assert!(AccountName::parse(good).is_ok(), "{good}");
        }
        for bad in [
            "a",
            "abcdefghijklmnopqrstu",
            "has space",
            "émile",
            "a.b",
            "",
            "<b>",
        ] {
            assert_eq!(AccountName::parse(bad), Err(AccountError::BadName), "{bad}");
        }
        for reserved in ["Admin", "loa-3", "LOA", "deleted-7", "me"] {
            assert!(matches!(
                AccountName::parse(reserved),
                Err(AccountError::ReservedName(_))
            ));
        }
        assert_eq!(AccountName::parse("Mark_W").unwrap().key(), "mark_w");
    }

    #[test]
    fn passwords_have_a_length() {
        assert_eq!(check_password("1234567"), Err(AccountError::ShortPassword));
        assert!(check_password("12345678").is_ok());
        // Characters, not bytes.
        assert_eq!(check_password("ééééééé"), Err(AccountError::ShortPassword));
        assert_eq!(
            check_password(&"x".repeat(MAX_PASSWORD + 1)),
            Err(AccountError::LongPassword)
        );
    }

    #[test]
    fn e_mail_addresses_have_a_shape() {
        assert!(check_email("a@b.org").is_ok());
        for bad in ["a", "@b.org", "a@b", "a b@c.org", "a@b.org\n"] {
            assert_eq!(check_email(bad), Err(AccountError::BadEmail), "{bad:?}");
        }
    }

    #[test]
    fn hashes_are_argon2id_salted_and_verified() {
        let hash = hash_password("correct horse");
        assert!(hash.starts_with("$argon2id$"));
        assert_ne!(
            hash,
            hash_password("correct horse"),
            "each hash has its salt"
        );
        assert!(verify_password("correct horse", Some(&hash)));
        assert!(!verify_password("wrong horse", Some(&hash)));
        assert!(!verify_password("a password nobody has", None));
        assert!(!verify_password("anything", Some("")));
    }

    #[test]
    fn the_guard_refuses_a_name_after_ten_failures_in_a_minute() {
        let guard = SignInGuard::default();
        for i in 0..MAX_FAILURES as i64 {
            assert!(guard.allows("ann", 1_000 + i));
            guard.failed("ann", 1_000 + i);
        }
        assert!(!guard.allows("ann", 2_000));
        assert!(guard.allows("bob", 2_000), "other names are not touched");
        // A minute after the first failure, one more try.
        assert!(guard.allows("ann", 1_000 + GUARD_WINDOW_MS));
        guard.succeeded("ann");
        assert!(guard.allows("ann", 2_000));
    }
}
