//! Accounts over HTTP: signing up, in and out, the signed-in person's own account, their
//! games to download, and their API tokens.

use super::limits::{count_request, Counted};
use super::{ApiQuery, Body, MAX_LIST};
use crate::account_news::News;
use crate::accounts::{self, check_email, check_password, AccountError, AccountName};
use crate::auth::{self, token_hash, NewDeviceCookie, SecureCookies, Viewer, DEVICE_COOKIE};
use crate::client::ClientNetwork;
use crate::clock::{now_ms, DAY};
use crate::error::{ApiError, ApiResult};
use crate::hub::Hub;
use crate::ids::random_name;
use crate::mail::{self, compose::SecurityChange};
use crate::store::{AccountRow, GameFilter, Tally, ACCOUNT_KEY};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use axum::Json;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, OnceLock};
use tokio::sync::Semaphore;
use tower_sessions::Session;

impl From<AccountError> for ApiError {
    fn from(err: AccountError) -> ApiError {
        ApiError::bad_request(err.to_string())
    }
}

/// The signed-in person's account, as `GET /api/me` shows it.
#[derive(Serialize)]
pub struct Me {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    pub bot: bool,
    pub created_at: i64,
}

impl Me {
    pub(super) fn of(account: AccountRow) -> Me {
        Me {
            name: account.name,
            email: account.email,
            bot: account.bot,
            created_at: account.created_at,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignUp {
    pub name: String,
    pub password: String,
    #[serde(default)]
    pub email: Option<String>,
}

/// Argon2 is costly on purpose, in time and in memory (19 MB a hash): off the threads
/// that serve requests, and as many at once as the machine has cores, so that a burst of
/// sign-ins waits its turn instead of taking gigabytes.
pub(super) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> ApiResult<T> {
    static HASHING: OnceLock<Semaphore> = OnceLock::new();
    let hashing = HASHING.get_or_init(|| {
        Semaphore::new(std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
    });
    let _permit = hashing.acquire().await.map_err(ApiError::internal)?;
    tokio::task::spawn_blocking(work)
        .await
        .map_err(ApiError::internal)
}

/// Signs the session in as `account`, under a new session id (an id set before signing
/// in, by someone else, is of no use after).
pub(super) async fn sign_in(session: &Session, account: &AccountRow) -> ApiResult<()> {
    session.cycle_id().await.map_err(ApiError::internal)?;
    session
        .insert(ACCOUNT_KEY, account.id)
        .await
        .map_err(ApiError::internal)
}

pub async fn sign_up(
    State(hub): State<Arc<Hub>>,
    Extension(secure): Extension<SecureCookies>,
    client: ClientNetwork,
    session: Session,
    Body(request): Body<SignUp>,
) -> ApiResult<impl IntoResponse> {
    let name = AccountName::parse(&request.name)?;
    check_password(&request.password)?;
    let email = request.email.filter(|e| !e.trim().is_empty());
    if let Some(email) = &email {
        check_email(email)?;
    }
    if hub.store.account_by_key(&name.key()).await?.is_some() {
        return Err(name_taken());
    }
    sign_up_from(&hub, &client).await?;
    let password = request.password;
    let hash = blocking(move || accounts::hash_password(&password)).await?;
    let account = hub
        .store
        .create_account(
            name.as_str(),
            &name.key(),
            &hash,
            email.as_deref(),
            false,
            now_ms(),
        )
        .await?
        .ok_or_else(name_taken)?;
    if let Some(email) = &account.email {
        // The account is made: a verification e-mail that cannot be queued is logged,
        // and can be asked for again from the settings; one over the address's limit
        // (sign-ups giving someone else's address) is not sent.
        let sent = match mail::verification_refused(&hub, account.id, email).await {
            Ok(None) => mail::send_verification(&hub, account.id, &account.name, email).await,
            Ok(Some(why)) => {
                tracing::info!("no verification e-mail at sign-up: {why}");
                Ok(())
            }
            Err(err) => Err(err),
        };
        if let Err(err) = sent {
            tracing::error!("verification e-mail not queued: {err}");
        }
    }
    sign_in(&session, &account).await?;
    let device = new_device(&hub, account.id, secure).await;
    Ok((
        StatusCode::CREATED,
        device.map(Extension),
        Json(Me::of(account)),
    ))
}

fn name_taken() -> ApiError {
    ApiError::new(StatusCode::CONFLICT, "that name is taken")
}

/// Counts an account made from a client's network (and, for IPv6, the /48 it lies in,
/// under limits four times as wide: a site is given 65,536 /64s), or refuses it past the
/// limits, so that one client cannot make accounts without end, nor keep the server
/// hashing.
pub(crate) async fn sign_up_from(hub: &Hub, client: &ClientNetwork) -> ApiResult<()> {
    let Some(network) = client.0.clone() else {
        return Ok(());
    };
    let counted: Vec<Counted> = std::iter::once((network, 1))
        .chain(client.wider().map(|wider| (wider, 4)))
        .map(|(key, times)| Counted {
            key,
            a_day: times * accounts::MAX_SIGN_UPS_A_DAY,
            an_hour: times * accounts::MAX_SIGN_UPS_AN_HOUR,
        })
        .collect();
    match count_request(hub, Tally::SignUps, &counted).await? {
        None => Ok(()),
        Some(when) => Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("too many accounts made from your network lately: try again {when}"),
        )),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignIn {
    pub name: String,
    pub password: String,
}

/// The one answer to a failed sign-in, whether the name exists or not.
fn wrong_name_or_password() -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "wrong name or password")
}

pub async fn sign_in_with_password(
    State(hub): State<Arc<Hub>>,
    Extension(secure): Extension<SecureCookies>,
    headers: HeaderMap,
    session: Session,
    Body(request): Body<SignIn>,
) -> ApiResult<Response> {
    let key = accounts::key_of(&request.name);
    // Oversized input is refused the same way, before any hashing.
    let found = if key.len() > 64 || request.password.len() > 4 * accounts::MAX_PASSWORD {
        None
    } else {
        hub.store.account_by_key(&key).await?
    };
    let (account, hash) = match found {
        Some((account, hash)) if !account.deleted => (Some(account), Some(hash)),
        _ => (None, None),
    };
    let (guarded, device) =
        password_try_from(&hub, &headers, key, account.as_ref().map(|a| a.id)).await?;
    let password = request.password;
    let verified = blocking(move || accounts::verify_password(&password, hash.as_deref())).await?;
    let Some(account) = account.filter(|_| verified) else {
        return Err(wrong_name_or_password());
    };
    hub.store.clear_sign_in_failures(&guarded).await?;
    sign_in(&session, &account).await?;
    let new_device = match device {
        Some(_) => None,
        None => new_device(&hub, account.id, secure).await,
    };
    let mut response = Json(Me::of(account)).into_response();
    if let Some(cookie) = new_device {
        response.extensions_mut().insert(cookie);
    }
    Ok(response)
}

/// The hash of the request's device cookie when it is one of `account`'s: a browser the
/// person signed in from before has a password limit of its own, so that others' wrong
/// passwords for the name never keep them out of it. (Looked up whether or not the name
/// exists: the time taken says nothing of it.)
async fn device_of(
    hub: &Hub,
    headers: &HeaderMap,
    account: Option<i64>,
) -> ApiResult<Option<String>> {
    let Some(token) = auth::cookie(headers, DEVICE_COOKIE).filter(|t| t.len() <= 64) else {
        return Ok(None);
    };
    let hash = token_hash(&token);
    let since = now_ms() - auth::DEVICE_DAYS * DAY;
    let owner = hub.store.device_account(&hash, since).await?;
    Ok(owner.filter(|owner| account == Some(*owner)).map(|_| hash))
}

/// Counts a try of a password for the name `key` (of `account`, when it exists) from the
/// request's browser: under the browser's own limit when it is one the account signed in
/// from, else under the name's. Answers the key to clear when the password is right, and
/// the browser's device hash if it was one of the account's.
async fn password_try_from(
    hub: &Hub,
    headers: &HeaderMap,
    key: String,
    account: Option<i64>,
) -> ApiResult<(String, Option<String>)> {
    let device = device_of(hub, headers, account).await?;
    let counted = match &device {
        Some(hash) => format!("{key}#{}", &hash[..16]),
        None => key,
    };
    Ok((password_try(hub, &counted).await?, device))
}

/// A device cookie for a browser the account signs in from (or signs up in). The person
/// is signed in already: a device that cannot be written is logged, and the answer goes
/// without it.
pub(super) async fn new_device(
    hub: &Hub,
    account: i64,
    secure: SecureCookies,
) -> Option<NewDeviceCookie> {
    let token = format!("{}{}", random_name(), random_name());
    let added = hub
        .store
        .add_device(&token_hash(&token), account, now_ms(), auth::MAX_DEVICES)
        .await;
    match added {
        Ok(()) => Some(NewDeviceCookie(auth::device_cookie(&token, secure))),
        Err(err) => {
            tracing::error!("device cookie not kept: {err}");
            None
        }
    }
}

/// Counts a try of a password for the name `key` (a sign-in, or a password asked again),
/// or refuses it past the limit; the key to clear when the password is right. Every try
/// counts as failed until its password is found right, and the count is read after this
/// one is in it: tries sent all at once cannot all read a count under the limit.
async fn password_try(hub: &Hub, key: &str) -> ApiResult<String> {
    let guarded = accounts::guard_key(key);
    let now = now_ms();
    let since = now - accounts::GUARD_WINDOW_MS;
    hub.store.note_sign_in_failure(&guarded, now, since).await?;
    if hub.store.sign_in_failures(&guarded, since).await? > accounts::MAX_FAILURES {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too many wrong passwords for this name: wait a minute",
        ));
    }
    Ok(guarded)
}

pub async fn sign_out(session: Session) -> ApiResult<StatusCode> {
    session.flush().await.map_err(ApiError::internal)?;
    Ok(StatusCode::NO_CONTENT)
}

/// Ends every session of the account, this one included.
pub async fn sign_out_everywhere(
    State(hub): State<Arc<Hub>>,
    session: Session,
    viewer: Viewer,
) -> ApiResult<StatusCode> {
    let account = viewer.required()?;
    hub.store.end_sessions(account.id, None).await?;
    hub.tell_accounts(&[account.id], News::SignedOut);
    session.flush().await.map_err(ApiError::internal)?;
    Ok(StatusCode::NO_CONTENT)
}

pub async fn me(viewer: Viewer) -> ApiResult<Json<Me>> {
    Ok(Json(Me::of(viewer.required()?)))
}

/// The account's password checked again before it changes anything lasting.
pub(super) async fn confirm_password(
    hub: &Hub,
    headers: &HeaderMap,
    account: &AccountRow,
    password: String,
) -> ApiResult<()> {
    // The same limit as signing in: a session in other hands cannot guess the password,
    // and the person's own browser is not held by others' guesses.
    let key = accounts::key_of(&account.name);
    let (guarded, _) = password_try_from(hub, headers, key, Some(account.id)).await?;
    let hash = hub.store.password_hash(account.id).await?;
    let verified = blocking(move || accounts::verify_password(&password, hash.as_deref())).await?;
    if verified {
        hub.store.clear_sign_in_failures(&guarded).await?;
        Ok(())
    } else {
        Err(ApiError::forbidden("the password is wrong"))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    pub current: String,
    pub new: String,
}

/// Changes the password; every other session of the account ends, and every API token.
pub async fn change_password(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    session: Session,
    viewer: Viewer,
    Body(request): Body<PasswordChange>,
) -> ApiResult<StatusCode> {
    let account = viewer.required()?;
    check_password(&request.new)?;
    confirm_password(&hub, &headers, &account, request.current).await?;
    let new = request.new;
    let hash = blocking(move || accounts::hash_password(&new)).await?;
    let current = session.id().map(|id| id.to_string());
    hub.store
        .set_password(account.id, &hash, current.as_deref(), now_ms())
        .await?;
    // Sockets opened by the sessions just ended close; this page's opens again.
    hub.tell_accounts(&[account.id], News::SignedOut);
    tell_of_new_password(&hub, &account).await;
    Ok(StatusCode::NO_CONTENT)
}

/// Tells the account's verified address that its password was changed (here, or with a
/// reset link). The password is changed already: a notice that cannot be queued is
/// logged, not answered as a failure.
pub(super) async fn tell_of_new_password(hub: &Hub, account: &AccountRow) {
    let settings = hub.store.mail_settings(account.id).await;
    let verified = settings.ok().flatten();
    let verified = verified.as_ref().and_then(|s| s.verified_email());
    let notice = SecurityChange::Password;
    if let Err(err) = mail::send_security_notice(hub, &account.name, verified, notice).await {
        tracing::error!("the notice of {}'s new password: {err}", account.name);
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Confirmation {
    pub password: String,
}

/// Deletes the account: its games stay, under an anonymous name.
pub async fn delete_account(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    session: Session,
    viewer: Viewer,
    Body(request): Body<Confirmation>,
) -> ApiResult<StatusCode> {
    let account = viewer.required()?;
    confirm_password(&hub, &headers, &account, request.password).await?;
    // Its open challenges are called off with it: the other players hear of it.
    let challenged: Vec<i64> = (hub.store.open_challenges(account.id).await?.iter())
        .map(|c| {
            if c.from_account == account.id {
                c.to_account
            } else {
                c.from_account
            }
        })
        .collect();
    let renamed = hub.store.delete_account(account.id, now_ms()).await?;
    hub.tell_accounts(&[account.id], News::SignedOut);
    hub.tell_accounts(&challenged, News::Challenges);
    session.flush().await.map_err(ApiError::internal)?;
    // The games open here show the new name at once; other servers read theirs again
    // when told of the new versions. The account is gone whatever happens here.
    if let Err(err) = hub.changed_in_store(&renamed).await {
        tracing::warn!("games of a deleted account read again: {err}");
    }
    Ok(StatusCode::NO_CONTENT)
}

/// Every game of the signed-in account, as one PGN file.
pub async fn my_games_pgn(State(hub): State<Arc<Hub>>, viewer: Viewer) -> ApiResult<Response> {
    let account = viewer.required()?;
    let mut text = String::new();
    let mut offset = 0;
    loop {
        let page = hub
            .store
            .list(MAX_LIST, offset, &GameFilter::of(account.id))
            .await?;
        for (row, _) in &page {
            // Read from the store, not opened in the hub: a download must not keep every
            // finished game in memory. A game that cannot be read is left out, as in the
            // lists.
            let stored = hub.store.load(&row.id).await.ok().flatten();
            if let Some(Ok(live)) = stored.map(crate::game::LiveGame::restore) {
                text.push_str(&super::games::record_of(&live).to_pgn());
                text.push('\n');
            }
        }
        if page.len() < MAX_LIST {
            break;
        }
        offset += page.len();
    }
    let disposition = format!("attachment; filename=\"loa-{}.pgn\"", account.name);
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-chess-pgn".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewToken {
    pub label: String,
}

#[derive(Serialize)]
pub struct CreatedToken {
    pub id: i64,
    pub label: String,
    /// Shown this once: only its hash is kept.
    pub token: String,
}

/// The most API tokens an account may have.
const MAX_TOKENS: usize = 20;

/// A new API token for the signed-in account (a session, not another token, makes one).
pub async fn create_token(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
    Body(request): Body<NewToken>,
) -> ApiResult<(StatusCode, Json<CreatedToken>)> {
    if viewer.by_token {
        return Err(ApiError::forbidden(
            "an API token cannot make tokens: sign in",
        ));
    }
    let account = viewer.required()?;
    let label = request.label.trim().to_string();
    if label.is_empty() || label.chars().count() > 60 {
        return Err(ApiError::bad_request(
            "a token's label has 1 to 60 characters",
        ));
    }
    if hub.store.tokens(account.id).await?.len() >= MAX_TOKENS {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!("an account has at most {MAX_TOKENS} tokens: revoke one first"),
        ));
    }
    let token = format!("loa_{}{}", random_name(), random_name());
    let id = hub
        .store
        .create_token(account.id, &label, &token_hash(&token), now_ms())
        .await?;
    Ok((StatusCode::CREATED, Json(CreatedToken { id, label, token })))
}

#[derive(Serialize)]
pub struct TokenView {
    pub id: i64,
    pub label: String,
    pub created_at: i64,
    pub used_at: Option<i64>,
}

pub async fn list_tokens(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
) -> ApiResult<Json<Vec<TokenView>>> {
    let account = viewer.required()?;
    let tokens = hub.store.tokens(account.id).await?;
    Ok(Json(
        tokens
            .into_iter()
            .map(|t| TokenView {
                id: t.id,
                label: t.label,
                created_at: t.created_at,
                used_at: t.used_at,
            })
            .collect(),
    ))
}

pub async fn revoke_token(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let account = viewer.required()?;
    // An id that is no number names no token.
    let revoked = match id.parse::<i64>() {
        Ok(id) => hub.store.revoke_token(account.id, id).await?,
        Err(_) => false,
    };
    if revoked {
        // A socket the token opened closes; the account's others open again.
        hub.tell_accounts(&[account.id], News::SignedOut);
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::new(StatusCode::NOT_FOUND, "no such token"))
    }
}

/// Makes the account a bot: its games are played by a program through its API tokens,
/// and it is marked BOT. Only an account that has played no game becomes one.
pub async fn become_bot(State(hub): State<Arc<Hub>>, viewer: Viewer) -> ApiResult<Json<Me>> {
    let mut account = viewer.required()?;
    if !account.bot {
        if !hub
            .store
            .list(1, 0, &GameFilter::of(account.id))
            .await?
            .is_empty()
        {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "an account that has played games cannot become a bot",
            ));
        }
        hub.store.set_bot(account.id).await?;
        account.bot = true;
    }
    Ok(Json(Me::of(account)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GamesQuery {
    #[serde(default)]
    pub limit: Option<usize>,
    #[serde(default)]
    pub offset: Option<usize>,
}

/// The signed-in account's games, newest first.
pub async fn my_games(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
    ApiQuery(query): ApiQuery<GamesQuery>,
) -> ApiResult<Json<Vec<super::GameSummary>>> {
    let account = viewer.required()?;
    super::games::summaries(&hub, query.limit, query.offset, &GameFilter::of(account.id)).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::App;

    #[tokio::test]
    async fn an_ipv6_site_is_limited_as_well_as_each_of_its_64s() {
        let app = App::new().await;
        let from = |address: &str| ClientNetwork::of(address.parse().unwrap());
        // 120 accounts an hour from the /64s of one /48: each /64 is far under its limit.
        for n in 0..120 {
            let client = from(&format!("2001:db8:7:{n:x}::1"));
            sign_up_from(&app.hub, &client).await.unwrap();
        }
        let refused = sign_up_from(&app.hub, &from("2001:db8:7:ff::1")).await;
        assert_eq!(refused.unwrap_err().status, StatusCode::TOO_MANY_REQUESTS);
        // Refused, it was not counted for its /64 either; another /48 is free.
        assert_eq!(
            app.hub
                .store
                .requests(Tally::SignUps, "2001:db8:7:ff::/64", 0)
                .await
                .unwrap(),
            0
        );
        sign_up_from(&app.hub, &from("2001:db8:8::1"))
            .await
            .unwrap();
        // IPv4 has no wider network; a client not known is not counted.
        sign_up_from(&app.hub, &ClientNetwork(Some("203.0.113.7".into())))
            .await
            .unwrap();
        sign_up_from(&app.hub, &ClientNetwork(None)).await.unwrap();
    }
}
