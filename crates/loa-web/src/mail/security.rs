//! Telling an account's verified address that how one gets into the account changed (its
//! password, its address): if someone else did it, the owner learns at once.

use super::compose::{self, SecurityChange};
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
    let text = compose::security_notice(name, change, &config.public_url);
    super::send_plain(hub, to, text, now_ms()).await
}
