//! The router driven in-process: each test has a server of its own (a database in a
//! temporary folder, one engine) and sends it requests as a client would, without a port.

mod abort;
mod access;
mod accounts;
mod blocks;
mod clocks;
mod endpoints;
mod explorer;
mod imports;
mod mail;
mod meta;
mod pairing;
mod password_reset;
mod puzzles;
mod records;
mod rematch;
mod reports;
mod servers;
mod tournaments;
mod vacations;

use crate::engine_pool::EnginePool;
use crate::hub::Hub;
use crate::server::router;
use crate::store::testing::TestDatabase;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// The host the tests' requests name: the site's own origin is `http://` it.
pub const HOST: &str = "loa.test";

pub struct App {
    router: Router,
    pub hub: std::sync::Arc<Hub>,
    db: TestDatabase,
}

impl App {
    /// A server on a new database: SQLite, or PostgreSQL with `LOA_TEST_DATABASE=postgres`.
    pub async fn new() -> App {
        App::on(TestDatabase::chosen().await).await
    }

    async fn on(db: TestDatabase) -> App {
        let hub = Hub::new(db.open().await, EnginePool::new(1));
        tokio::spawn(std::sync::Arc::clone(&hub).follow_other_servers());
        App {
            // As behind a proxy: a request's `x-real-ip` is its client's address.
            router: router(std::sync::Arc::clone(&hub), None).layer(axum::Extension(
                crate::client::AddressHeader {
                    name: axum::http::HeaderName::from_static("x-real-ip"),
                    proxies: std::sync::Arc::from([]),
                },
            )),
            hub,
            db,
        }
    }

    /// A second server on the same database, as another machine behind the same load
    /// balancer would be.
    pub async fn beside(&self) -> App {
        App::on(self.db.shared()).await
    }

    /// The server started again on the same database: nothing in memory.
    pub async fn restart(self) -> App {
        App::on(self.db).await
    }

    /// Changes rows behind the server's back, as damage or time would.
    pub async fn tamper(&self, sql: &str) -> Result<(), crate::store::StoreError> {
        self.hub.store.execute_raw(sql).await
    }

    /// A request: the status and the answer, as JSON (a string if it is not JSON).
    pub async fn call(&self, method: &str, path: &str, body: Option<Value>) -> (StatusCode, Value) {
        let (status, answer, _) = self.send(method, path, body, &[]).await;
        (status, answer)
    }

    /// A request with headers of its own: the status, the answer, and the cookie the
    /// answer sets, if any (`name=value`, and the whole header line).
    pub async fn send(
        &self,
        method: &str,
        path: &str,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> (StatusCode, Value, Option<(String, String)>) {
        let response = self.respond(method, path, body, headers).await;
        let status = response.status();
        let cookie = response
            .headers()
            .get("set-cookie")
            .and_then(|v| v.to_str().ok())
            .map(|line| {
                let pair = line.split(';').next().unwrap_or_default().to_string();
                (pair, line.to_string())
            });
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("the body is read")
            .to_bytes();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
            cookie,
        )
    }

    /// The router's answer to a request (with a JSON body, if any).
    async fn respond(
        &self,
        method: &str,
        path: &str,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> axum::response::Response {
        let mut builder = Request::builder()
            .method(method)
            .uri(path)
            .header("host", HOST);
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        let request = match body {
            Some(body) => builder
                .header("content-type", "application/json")
                .body(Body::from(body.to_string())),
            None => builder.body(Body::empty()),
        }
        .expect("a well-formed request");
        self.router
            .clone()
            .oneshot(request)
            .await
            .expect("the router answers")
    }

    /// A JSON request's status and every cookie its answer sets (the whole lines).
    pub async fn cookies_set(
        &self,
        method: &str,
        path: &str,
        body: Value,
    ) -> (StatusCode, Vec<String>) {
        let response = self.respond(method, path, Some(body), &[]).await;
        let lines = response
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok().map(str::to_string))
            .collect();
        (response.status(), lines)
    }

    /// A request that must succeed.
    pub async fn ok(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let (status, answer) = self.call(method, path, body).await;
        assert!(status.is_success(), "{method} {path}: {status} {answer}");
        answer
    }

    /// A new game: the answer to `POST /api/games`.
    pub async fn create(&self, body: Value) -> Value {
        self.ok("POST", "/api/games", Some(body)).await
    }

    /// `GET path` asked again every 100 ms until `done` holds of its answer, for 20 s at
    /// most: the last answer (the caller asserts what it waited for).
    pub async fn get_until(&self, path: &str, done: impl Fn(&Value) -> bool) -> Value {
        let mut answer = self.ok("GET", path, None).await;
        for _ in 0..200 {
            if done(&answer) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            answer = self.ok("GET", path, None).await;
        }
        answer
    }
}

/// The token of a seat of the game `created` made.
pub fn token(created: &Value, slot: &str) -> Value {
    created["tokens"][slot].clone()
}

/// A game's id from its creation's answer.
pub fn id_of(created: &Value) -> &str {
    created["id"].as_str().expect("an id")
}

/// The answers' statuses of requests sent all at once: how many made something (201)
/// and how many were refused for a limit (429); any other status fails the test.
pub async fn made_and_refused<F>(requests: impl IntoIterator<Item = F>) -> (usize, usize)
where
    F: std::future::Future<Output = StatusCode>,
{
    let statuses = futures_util::future::join_all(requests).await;
    let made = statuses
        .iter()
        .filter(|&&s| s == StatusCode::CREATED)
        .count();
    let refused = (statuses.iter())
        .filter(|&&s| s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert_eq!(made + refused, statuses.len(), "{statuses:?}");
    (made, refused)
}
