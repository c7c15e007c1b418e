//! The links that verify an address: sent at sign-up and when the address changes, one
//! a minute and five a day to an account or an address, each working 7 days and once.

use super::compose;
use crate::auth::token_hash;
use crate::clock::now_ms;
use crate::clock::HOUR;
use crate::hub::Hub;
use crate::store::StoreError;

/// How long a verification link works.
const VERIFICATION_MS: i64 = 7 * 24 * HOUR;

/// Sends the link that verifies `email` as `account`'s address (made the one the account
/// has, unverified); nothing when the site sends no mail.
pub async fn send_verification(
    hub: &Hub,
    account: i64,
    name: &str,
    email: &str,
) -> Result<(), StoreError> {
    let Some(config) = hub.mail.config() else {
        return Ok(());
    };
    let secret = super::new_secret();
    let now = now_ms();
    hub.store
        .add_verification(&token_hash(&secret), account, email, now)
        .await?;
    let link = format!("{}/mail/verify/{secret}", config.public_url);
    super::send_plain(hub, email, compose::verification(name, email, &link), now).await
}

/// Why a verification link cannot be sent now, if it cannot: one a minute and five a
/// day to an account or an address (however many accounts give it), so that nobody can
/// use the site to flood someone else's address.
pub async fn verification_refused(
    hub: &Hub,
    account: i64,
    email: &str,
) -> Result<Option<String>, StoreError> {
    const MINUTE_MS: i64 = 60 * 1000;
    const MAX_A_DAY: i64 = 5;
    let now = now_ms();
    let (today, last) = hub
        .store
        .verifications_since(account, email, now - 24 * HOUR)
        .await?;
    Ok(if last.is_some_and(|last| now - last < MINUTE_MS) {
        Some("a verification link went less than a minute ago: wait a minute".into())
    } else if today >= MAX_A_DAY {
        Some(format!(
            "{MAX_A_DAY} verification links went in the last 24 hours: try tomorrow"
        ))
    } else {
        None
    })
}

/// Verifies the address a link's secret stands for; the account's name.
pub async fn verify(hub: &Hub, secret: &str) -> Result<Option<String>, StoreError> {
    if !super::is_secret(secret) {
        return Ok(None);
    }
    let now = now_ms();
    hub.store
        .verify_email(&token_hash(secret), now - VERIFICATION_MS, now)
        .await
}
