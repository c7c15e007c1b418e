//! A forgotten password: a link mailed to the account's verified address, and the new
//! password set with it.

use super::accounts::{blocking, new_device, sign_in, tell_of_new_password, Me};
use super::limits::{count_request, Counted};
use super::Body;
use crate::account_news::News;
use crate::accounts::{self, check_email, check_password};
use crate::auth::{token_hash, SecureCookies};
use crate::client::ClientNetwork;
use crate::clock::now_ms;
use crate::error::{ApiError, ApiResult};
use crate::hub::Hub;
use crate::mail::{self, RESET_LINK_MS};
use crate::store::{AccountRow, ResetLink, Tally};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use tower_sessions::Session;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResetAsked {
    pub email: String,
}

/// The one answer to a reset asked for, whether an account has the address or not.
const ON_ITS_WAY: &str =
    "if an account has this verified address, a link to reset its password is on its way";

/// `POST /api/password-reset`: mails a reset link to each account whose verified address
/// is the one given. The same answer, in the same time, whether there is one or not.
pub async fn ask_password_reset(
    State(hub): State<Arc<Hub>>,
    client: ClientNetwork,
    Body(request): Body<ResetAsked>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    if hub.mail.config().is_none() {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "this site sends no e-mail, so it cannot mail a link to reset a password: \
             ask the people who run it",
        ));
    }
    let email = request.email.trim();
    check_email(email)?;
    // Counted by address (its hash: the table keeps no address in clear), whether or not an
    // account has it, so that a refusal says nothing of one either.
    let mut counted = vec![Counted {
        key: format!("address {}", token_hash(&email.to_lowercase())),
        a_day: accounts::MAX_RESETS_TO_AN_ADDRESS_A_DAY,
        an_hour: accounts::MAX_RESETS_TO_AN_ADDRESS_AN_HOUR,
    }];
    if let Some(network) = &client.0 {
        // An IPv6 client's /48 too, under limits four times as wide, as for sign-ups.
        let networks =
            std::iter::once((network.clone(), 1)).chain(client.wider().map(|wider| (wider, 4)));
        counted.extend(networks.map(|(network, times)| Counted {
            key: format!("network {network}"),
            a_day: times * accounts::MAX_RESETS_FROM_A_NETWORK_A_DAY,
            an_hour: times * accounts::MAX_RESETS_FROM_A_NETWORK_AN_HOUR,
        }));
    }
    if let Some(when) = count_request(&hub, Tally::ResetRequests, &counted).await? {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "too many reset links asked for this address or from your network lately: \
                 try again {when}"
            ),
        ));
    }
    // Looked up and mailed after the answer: its time says nothing of whether an account
    // has the address.
    let email = email.to_string();
    tokio::spawn(async move {
        if let Err(err) = mail::send_password_resets(&hub, &email).await {
            tracing::error!("reset links not queued: {err}");
        }
    });
    Ok((StatusCode::ACCEPTED, Json(json!({ "message": ON_ITS_WAY }))))
}

/// The hash a link's secret is kept as, or 400 for text no link carries (a link cut
/// short when copied, most likely).
fn link_hash(secret: &str) -> ApiResult<String> {
    // Secrets are lowercase; a mail program may have changed the case.
    let secret = secret.to_ascii_lowercase();
    if mail::is_secret(&secret) {
        Ok(token_hash(&secret))
    } else {
        Err(ApiError::bad_request(
            "this is not a reset link: check that the whole link was copied from the e-mail",
        ))
    }
}

/// The account a live link resets, or why the link works no more.
fn live(link: ResetLink) -> ApiResult<AccountRow> {
    match link {
        ResetLink::Live(account) => Ok(account),
        ResetLink::Unknown => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "this reset link is not one of ours, or an old one since forgotten: ask for a new one",
        )),
        ResetLink::Used => Err(ApiError::new(
            StatusCode::GONE,
            "this reset link was used already, or the account's password or address has \
             changed since it was sent: ask for a new one if you need it",
        )),
        ResetLink::Expired => Err(ApiError::new(
            StatusCode::GONE,
            "this reset link has expired (a link works for an hour): ask for a new one",
        )),
    }
}

/// The account a link resets, if it still does.
async fn account_of_link(hub: &Hub, secret: &str) -> ApiResult<AccountRow> {
    let hash = link_hash(secret)?;
    live(
        hub.store
            .password_reset(&hash, now_ms() - RESET_LINK_MS)
            .await?,
    )
}

/// `GET /api/password-reset/{secret}`: whether the link works, and the account's name
/// (for the page to say whose password is set, and a password manager to keep it).
pub async fn password_reset_link(
    State(hub): State<Arc<Hub>>,
    Path(secret): Path<String>,
) -> ApiResult<Json<Value>> {
    let account = account_of_link(&hub, &secret).await?;
    Ok(Json(json!({ "name": account.name })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewPassword {
    pub password: String,
}

/// `POST /api/password-reset/{secret}`: sets the new password, as a changed password is
/// set (every session ended, every API token revoked), spends the link, and signs this
/// browser in: whoever opened the link reads the account's mail.
pub async fn reset_password(
    State(hub): State<Arc<Hub>>,
    Extension(secure): Extension<SecureCookies>,
    session: Session,
    Path(secret): Path<String>,
    Body(request): Body<NewPassword>,
) -> ApiResult<Response> {
    // The link is judged before the password is hashed: a dead link costs nothing.
    account_of_link(&hub, &secret).await?;
    check_password(&request.password)?;
    let password = request.password;
    let hash = blocking(move || accounts::hash_password(&password)).await?;
    let now = now_ms();
    let spent = hub
        .store
        .reset_password(&link_hash(&secret)?, &hash, now - RESET_LINK_MS, now)
        .await?;
    let account = live(spent)?;
    hub.tell_accounts(&[account.id], News::SignedOut);
    // The person may have locked the name with their guesses before asking.
    let guarded = accounts::guard_key(&accounts::key_of(&account.name));
    // The password is set: a lock left on the name is not worth answering a failure.
    if let Err(err) = hub.store.clear_sign_in_failures(&guarded).await {
        tracing::warn!("sign-in failures of {} kept: {err}", account.name);
    }
    // Whoever reads the mailbox set it: its owner hears of it, as of any new password.
    tell_of_new_password(&hub, &account).await;
    sign_in(&session, &account).await?;
    let device = new_device(&hub, account.id, secure).await;
    Ok((device.map(Extension), Json(Me::of(account))).into_response())
}
