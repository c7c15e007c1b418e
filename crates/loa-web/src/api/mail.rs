//! The account's mail settings, the links e-mails carry (verify an address, stop the
//! notices), and the games waiting for the player's move.

use super::{accounts::confirm_password, Body};
use crate::accounts::check_email;
use crate::auth::Viewer;
use crate::error::{ApiError, ApiResult};
use crate::hub::Hub;
use crate::mail::{self, compose::SecurityChange, Notices};
use crate::waiting::WaitingGame;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Redirect;
use axum::Json;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// `GET /api/me/mail`: the address, whether it is verified, what is sent to it, and
/// whether this site sends mail at all.
#[derive(Serialize)]
pub struct MailSettings {
    pub email: Option<String>,
    pub verified: bool,
    /// `each`, `digest` or `off`.
    pub notices: &'static str,
    /// Whether the site sends e-mail (`loa serve --smtp`).
    pub sending: bool,
    /// Whether a reply to a your-move e-mail plays the move (`--mail-in`).
    pub replies: bool,
}

async fn settings_of(hub: &Hub, account: i64) -> ApiResult<MailSettings> {
    let row = hub
        .store
        .mail_settings(account)
        .await?
        .ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, "sign in first"))?;
    let config = hub.mail.config();
    Ok(MailSettings {
        email: row.email,
        verified: row.verified,
        notices: row.notices.as_str(),
        sending: config.is_some(),
        replies: config.is_some_and(|c| c.replies),
    })
}

pub async fn mail_settings(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
) -> ApiResult<Json<MailSettings>> {
    let account = viewer.required()?;
    Ok(Json(settings_of(&hub, account.id).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MailChange {
    #[serde(default)]
    pub notices: Option<String>,
    /// A new address (`""` removes it): it needs the password, and is verified by a link.
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub password: Option<String>,
}

/// `PUT /api/me/mail`: what is sent, and the address (a new one gets its link at once).
pub async fn change_mail_settings(
    State(hub): State<Arc<Hub>>,
    headers: axum::http::HeaderMap,
    viewer: Viewer,
    Body(change): Body<MailChange>,
) -> ApiResult<Json<MailSettings>> {
    let account = viewer.required()?;
    let notices = change
        .notices
        .as_deref()
        .map(str::parse::<Notices>)
        .transpose()
        .map_err(ApiError::bad_request)?;
    if let Some(email) = &change.email {
        let email = email.trim();
        if !email.is_empty() {
            check_email(email)?;
        }
        let password = change
            .password
            .ok_or_else(|| ApiError::bad_request("changing the address needs your password"))?;
        confirm_password(&hub, &headers, &account, password).await?;
        if account.email.as_deref() != Some(email) {
            if !email.is_empty() {
                refuse_too_many_links(&hub, account.id, email).await?;
            }
            let email = Some(email).filter(|e| !e.is_empty());
            let before = hub.store.mail_settings(account.id).await?;
            hub.store.set_email(account.id, email).await?;
            // The address that was verified hears of it: someone who took the account
            // would change it first.
            // Only a change of address, not of its letters' case, is news.
            let verified = (before.as_ref().and_then(|s| s.verified_email()))
                .filter(|old| !email.is_some_and(|new| new.eq_ignore_ascii_case(old)));
            let change = SecurityChange::Address(email);
            if let Err(err) =
                mail::send_security_notice(&hub, &account.name, verified, change).await
            {
                tracing::error!("the notice of {}'s new address: {err}", account.name);
            }
            if let Some(email) = email {
                mail::send_verification(&hub, account.id, &account.name, email).await?;
            }
        }
    }
    if let Some(notices) = notices {
        hub.store.set_notices(account.id, notices).await?;
    }
    Ok(Json(settings_of(&hub, account.id).await?))
}

/// `POST /api/me/mail/verify`: the verification link again, for the address as it is.
pub async fn resend_verification(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
) -> ApiResult<StatusCode> {
    let account = viewer.required()?;
    if hub.mail.config().is_none() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "this site sends no e-mail",
        ));
    }
    let settings = settings_of(&hub, account.id).await?;
    match (settings.email, settings.verified) {
        (None, _) => Err(ApiError::new(
            StatusCode::CONFLICT,
            "the account has no address",
        )),
        (Some(_), true) => Err(ApiError::new(
            StatusCode::CONFLICT,
            "the address is verified",
        )),
        (Some(email), false) => {
            refuse_too_many_links(&hub, account.id, &email).await?;
            mail::send_verification(&hub, account.id, &account.name, &email).await?;
            Ok(StatusCode::ACCEPTED)
        }
    }
}

async fn refuse_too_many_links(hub: &Hub, account: i64, email: &str) -> ApiResult<()> {
    if hub.mail.config().is_none() {
        return Ok(());
    }
    match mail::verification_refused(hub, account, email).await? {
        Some(why) => Err(ApiError::new(StatusCode::TOO_MANY_REQUESTS, why)),
        None => Ok(()),
    }
}

/// `GET /mail/verify/{secret}`, the link of a verification e-mail: verifies the address,
/// then shows the account page saying so.
pub async fn verify_email(
    State(hub): State<Arc<Hub>>,
    Path(secret): Path<String>,
) -> ApiResult<Redirect> {
    Ok(match mail::verify(&hub, &secret).await? {
        Some(_) => Redirect::to("/account?email=verified"),
        None => Redirect::to("/account?email=link-expired"),
    })
}

/// `POST /mail/unsubscribe/{secret}` (the page's button, and mail programs' one-click
/// unsubscribe): every notice off.
pub async fn unsubscribe(
    State(hub): State<Arc<Hub>>,
    Path(secret): Path<String>,
) -> ApiResult<Json<serde_json::Value>> {
    let name = if mail::is_secret(&secret) {
        hub.store.unsubscribe(&secret).await?
    } else {
        None
    };
    match name {
        Some(name) => Ok(Json(serde_json::json!({"name": name, "notices": "off"}))),
        None => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "this link stops no e-mails: it is not one of ours",
        )),
    }
}

/// `GET /api/me/waiting`: the games waiting for the signed-in player's move.
pub async fn games_waiting(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
) -> ApiResult<Json<Vec<WaitingGame>>> {
    let account = viewer.required()?;
    Ok(Json(crate::waiting::games_waiting(&hub, account.id).await?))
}
