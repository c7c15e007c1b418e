//! Accounts: the rules for names and passwords, password hashes (argon2id), and the
//! limit on failed sign-ins that slows down guessing (its counts are the store's).
//! Nothing here knows of HTTP or SQL.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use std::sync::OnceLock;

/// A name's length, in characters.
pub const NAME_LENGTH: std::ops::RangeInclusive<usize> = 2..=20;
/// The shortest password.
pub const MIN_PASSWORD: usize = 8;
/// The longest password: hashing is costly, and a longer one adds nothing.
pub const MAX_PASSWORD: usize = 256;
/// Failed sign-ins for one name within [`GUARD_WINDOW_MS`] before it is refused for a while
/// (counted in the database: the limit holds across the servers sharing it).
pub const MAX_FAILURES: i64 = 10;
pub const GUARD_WINDOW_MS: i64 = 60_000;

/// Accounts one client's network may make in an hour, and in a day: a class or a club
/// signing up together behind one address is some tens of people.
pub const MAX_SIGN_UPS_AN_HOUR: i64 = 30;
pub const MAX_SIGN_UPS_A_DAY: i64 = 60;

/// Reset links one address may be sent in an hour, and in a day, counted whether or not
/// an account has it: a person who does not find the first (in a spam folder) asks
/// again, and nobody can use the site to flood someone else's address.
pub const MAX_RESETS_TO_AN_ADDRESS_AN_HOUR: i64 = 3;
pub const MAX_RESETS_TO_AN_ADDRESS_A_DAY: i64 = 6;
/// Reset links one client's network may ask for in an hour, and in a day.
pub const MAX_RESETS_FROM_A_NETWORK_AN_HOUR: i64 = 10;
pub const MAX_RESETS_FROM_A_NETWORK_A_DAY: i64 = 30;

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

/// The name a failed sign-in is counted under: its key, cut to a length no name has (a
/// longer one can never sign in, and is not kept whole).
pub fn guard_key(key: &str) -> String {
    key.chars().take(64).collect()
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
}
