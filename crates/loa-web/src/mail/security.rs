//! Telling an account's verified address that how one gets into the account changed (its
//! password, its address): if someone else did it, the owner learns at once.

use super::compose::{self, SecurityChange};
use super::Letter;
use crate::clock::now_ms;
use crate::hub::Hub;
use crate::store::StoreError;

/// Mails the account `name`'s verified address as it was before the change (`verified`)
/// of `change`; nothing when it had none or the site sends no mail.
pub async fn send_security_notice(
    hub: &Hub,
    name: &str,
    verified: Option<&str>,
    change: SecurityChange<'_>,
) -> Result<(), StoreError> {
    let (Some(config), Some(to)) = (hub.mail.config(), verified) else {
        return Ok(());
    };
    let (subject, body) = compose::security_notice(name, change, &config.public_url);
    let letter = Letter {
        to: to.to_string(),
        subject,
        body,
        reply_to: None,
        unsubscribe: None,
    };
    hub.store.queue_mail(&letter, now_ms()).await?;
    hub.mail.queued.notify_one();
    Ok(())
}
