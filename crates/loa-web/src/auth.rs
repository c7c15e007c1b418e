//! Who is asking, over HTTP: the account of a sign-in session (an HttpOnly cookie) or of
//! an API token (`Authorization: Bearer T`); the browser a person signed in from before
//! (its device cookie); and the refusal of a cross-site request that would act with the
//! session's cookie (CSRF, judged by `Origin`).

use crate::error::ApiError;
use crate::hub::Hub;
use crate::store::{AccountRow, ACCOUNT_KEY};
use axum::extract::{FromRequestParts, Request, State};
use axum::http::{header, request::Parts, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use std::sync::Arc;
use tower_sessions::cookie::{Cookie, SameSite};
use tower_sessions::Session;

/// The device cookie's name: set at a sign-in, it marks the browser as one its person
/// signed in from, so that others' wrong passwords for the name never lock it out.
pub const DEVICE_COOKIE: &str = "loa_device";
/// How long a device cookie lasts.
pub const DEVICE_DAYS: i64 = 365;
/// The most devices an account keeps (the latest).
pub const MAX_DEVICES: i64 = 20;

/// Whether the cookies the site sets are `Secure` (its public address is https): for
/// the handlers that set one beside the session's.
#[derive(Clone, Copy)]
pub struct SecureCookies(pub bool);

/// The value of the request's cookie `name`, if it sends one.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|cookie| cookie.name() == name)
        .map(|cookie| cookie.value().to_string())
}

/// The `Set-Cookie` header that gives a browser its device cookie.
pub fn device_cookie(token: &str, secure: SecureCookies) -> HeaderValue {
    let cookie = Cookie::build((DEVICE_COOKIE, token))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(secure.0)
        .max_age(time::Duration::days(DEVICE_DAYS))
        .build();
    HeaderValue::from_str(&cookie.to_string()).expect("a cookie of plain characters")
}

/// A device cookie a handler gives; set by [`set_device_cookie`] after the session's own
/// (clients that read the first `Set-Cookie` of a sign-in find the session there).
#[derive(Clone)]
pub struct NewDeviceCookie(pub HeaderValue);

/// Puts a handler's device cookie in the answer, after the session's.
pub async fn set_device_cookie(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    if let Some(NewDeviceCookie(cookie)) = response.extensions_mut().remove() {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "loa_session";

/// The account behind a request, if any.
pub struct Viewer {
    pub account: Option<AccountRow>,
    /// Signed in with an API token rather than a session.
    pub by_token: bool,
}

impl Viewer {
    pub fn id(&self) -> Option<i64> {
        self.account.as_ref().map(|a| a.id)
    }

    /// The account, or 401.
    pub fn required(self) -> Result<AccountRow, ApiError> {
        self.account
            .ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, "sign in first"))
    }
}

/// An API token as kept: its SHA-256 (a token is 160 random bits, so a fast hash is
/// enough; a password needs argon2).
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The account of a request's API token, found once by `check_token`.
#[derive(Clone)]
struct TokenAccount(AccountRow);

/// The account an API token names, or the 401 a token that is not valid (revoked, never
/// made, its account deleted) gets.
async fn token_account(hub: &Hub, token: &str) -> Result<AccountRow, ApiError> {
    let now = crate::clock::now_ms();
    let account = hub.store.account_by_token(&token_hash(token), now).await?;
    account.filter(|a| !a.deleted).ok_or_else(|| {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "the API token is not valid (revoked, or never made)",
        )
    })
}

/// Refuses every request whose API token is not valid, whatever it asks (a public page
/// too: a bot learns at once that its token is wrong, docs/bot-api.md), and keeps the
/// account of a valid one for `Viewer`.
pub async fn check_token(
    State(hub): State<Arc<Hub>>,
    mut request: Request,
    next: Next,
) -> Response {
    // Only the Bearer scheme is ours: another is a proxy's (HTTP Basic in front of a
    // staging site), and the request goes on as if it had none.
    let token = (request.headers().get(header::AUTHORIZATION))
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|t| t.trim().to_string());
    if let Some(token) = token {
        match token_account(&hub, &token).await {
            Ok(account) => {
                request.extensions_mut().insert(TokenAccount(account));
            }
            Err(refusal) => return refusal.into_response(),
        }
    }
    next.run(request).await
}

impl FromRequestParts<Arc<Hub>> for Viewer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, hub: &Arc<Hub>) -> Result<Viewer, ApiError> {
        if let Some(TokenAccount(account)) = parts.extensions.get::<TokenAccount>() {
            return Ok(Viewer {
                account: Some(account.clone()),
                by_token: true,
            });
        }
        let Ok(session) = Session::from_request_parts(parts, hub).await else {
            return Ok(Viewer {
                account: None,
                by_token: false,
            });
        };
        let id: Option<i64> = session.get(ACCOUNT_KEY).await.map_err(ApiError::internal)?;
        let account = match id {
            Some(id) => hub.store.account(id).await?.filter(|a| !a.deleted),
            None => None,
        };
        Ok(Viewer {
            account,
            by_token: false,
        })
    }
}

/// Refuses a request that changes something, carries the session cookie and comes from
/// another site's page (its `Origin` is not this site's): the browser would otherwise
/// act as the signed-in person for that page. A socket (a WebSocket's upgrade) is refused
/// to another site's page whether signed in or not. This site's origin is the public
/// URL's when the server has one (a proxy may rewrite `Host`), else the `Host` asked.
pub async fn refuse_cross_site(
    State(own_origin): State<Option<Arc<str>>>,
    request: Request,
    next: Next,
) -> Response {
    let headers = request.headers();
    let origin = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok());
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    let socket = headers
        .get(header::UPGRADE)
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"websocket"));
    if socket {
        // Programs that send no `Origin` are not browsers, and may.
        return match origin {
            Some(origin) if !is_own_origin(origin, own_origin.as_deref(), host) => {
                ApiError::forbidden("this socket is open to this server's pages only")
                    .into_response()
            }
            _ => next.run(request).await,
        };
    }
    let safe = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if safe || !carries_session(&request) {
        return next.run(request).await;
    }
    let same_site = match origin {
        // Not sent by a browser's cross-site request: a program, or an old browser's
        // same-site form.
        None => headers
            .get("sec-fetch-site")
            .and_then(|v| v.to_str().ok())
            .is_none_or(|site| site != "cross-site"),
        Some(origin) => is_own_origin(origin, own_origin.as_deref(), host),
    };
    if same_site {
        next.run(request).await
    } else {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "refused: this request came from another site's page",
        )
        .into_response()
    }
}

/// Whether the request sends the session cookie. Read from the header's bytes: a
/// header that is not all visible ASCII (another cookie of the host may hold any byte)
/// still carries the session to the cookie reader, so it must not escape the check.
fn carries_session(request: &Request) -> bool {
    request
        .headers()
        .get_all(header::COOKIE)
        .iter()
        .flat_map(|v| v.as_bytes().split(|&b| b == b';'))
        .any(|c| c.trim_ascii_start().starts_with(SESSION_COOKIE.as_bytes()))
}

/// Whether a page's `Origin` is this site's.
fn is_own_origin(origin: &str, own_origin: Option<&str>, host: Option<&str>) -> bool {
    match own_origin {
        Some(own) => origin == own,
        None => host.is_some_and(|host| origin_host(origin) == Some(host)),
    }
}

/// `host:port` of an origin such as `https://example.org:8080`.
fn origin_host(origin: &str) -> Option<&str> {
    let (_, rest) = origin.split_once("://")?;
    Some(rest.trim_end_matches('/'))
}

/// The origin of a public address: `https://loa.example/` gives `https://loa.example`.
pub fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let host = rest.split('/').next().filter(|h| !h.is_empty())?;
    Some(format!("{scheme}://{host}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_public_address_is_written_as_browsers_write_an_origin() {
        for (given, kept) in [
            ("https://LOA.Example", "https://loa.example"),
            ("https://loa.example:443/", "https://loa.example"),
            ("http://loa.example:8080", "http://loa.example:8080"),
            ("http://127.0.0.1:8081/", "http://127.0.0.1:8081"),
        ] {
            assert_eq!(crate::public_url(given).as_deref(), Ok(kept), "{given}");
        }
        for (given, why) in [
            ("https://loa.example:99999", "not an address"),
            ("https://user:pw@loa.example", "user name or password"),
            ("http://loa.example?x=1", "query or a fragment"),
            ("https://loa.example/#top", "query or a fragment"),
            ("https://loa.example/sub", "has a path"),
            ("ftp://loa.example", "not an address"),
            ("mailto:loa@loa.example", "not an address"),
        ] {
            let refused = crate::public_url(given).unwrap_err();
            assert!(refused.contains(why), "{given}: {refused}");
        }
    }

    #[test]
    fn a_public_address_is_http_or_https() {
        assert_eq!(
            crate::public_url("https://loa.example/").as_deref(),
            Ok("https://loa.example")
        );
        assert!(crate::public_url("loa.example").is_err());
        assert!(crate::public_url("https://").is_err());
    }

    #[test]
    fn origins() {
        assert_eq!(origin_host("http://127.0.0.1:8080"), Some("127.0.0.1:8080"));
        assert_eq!(origin_host("null"), None);
        assert_eq!(
            origin_of("https://loa.example/play/").as_deref(),
            Some("https://loa.example")
        );
        assert_eq!(origin_of("loa.example"), None);
    }

    #[test]
    fn tokens_are_kept_as_sha256() {
        assert_eq!(
            token_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
