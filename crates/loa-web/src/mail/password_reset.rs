//! The links that reset a forgotten password: mailed to every account whose verified
//! address was given, each working for an hour and once.

use super::compose;
use crate::auth::token_hash;
use crate::clock::now_ms;
use crate::clock::HOUR;
use crate::hub::Hub;
use crate::store::StoreError;

/// How long a reset link works.
pub const RESET_LINK_MS: i64 = HOUR;

/// How long a link is kept after it is made: until then, an old one is told as expired
/// or used rather than unknown.
const KEPT_MS: i64 = 24 * HOUR;

/// Mails a reset link to each account whose verified address is `email` (none to an
/// address that is no account's, or not verified); nothing when the site sends no mail.
pub async fn send_password_resets(hub: &Hub, email: &str) -> Result<(), StoreError> {
    let Some(config) = hub.mail.config() else {
        return Ok(());
    };
    let accounts = hub.store.accounts_by_verified_email(email).await?;
    for account in &accounts {
        let secret = super::new_secret();
        let now = now_ms();
        hub.store
            .add_password_reset(
                &token_hash(&secret),
                account.id,
                &account.email,
                now,
                now - KEPT_MS,
            )
            .await?;
        let link = format!("{}/password-reset/{secret}", config.public_url);
        let text = compose::password_reset(&account.name, &link);
        super::send_plain(hub, &account.email, text, now).await?;
    }
    Ok(())
}
