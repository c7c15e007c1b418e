//! Taking connections: HTTP/1.1 with limits on slow clients, and a graceful end.
//!
//! A client that sends a request's head, or its body, a byte at a time would otherwise
//! hold its connection (and the server's memory for it) as long as it likes: the head
//! must come whole within the client timeout, and so must the body. One that stops
//! reading what it is sent holds it no longer than that either: a write that waits
//! longer closes the connection (sockets included, once upgraded).

use crate::error::ApiError;
use crate::server::MAX_BODY;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::pin::pin;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio_io_timeout::TimeoutStream;
use tower::ServiceExt;

/// How long a client may take over a request's head, and over its body, and may leave
/// what it is sent unread, by default.
pub const DEFAULT_CLIENT_TIMEOUT: Duration = Duration::from_secs(20);

/// Serves `app` on `listener` until `shutdown` completes, then lets the requests under
/// way finish, for a while (a socket, once upgraded, is no longer waited for).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    client_timeout: Duration,
    shutdown: impl Future<Output = ()>,
) {
    let app = app.layer(axum::middleware::from_fn_with_state(
        client_timeout,
        read_body_in_time,
    ));
    // Every connection holds a receiver: the sender learns when the last has gone.
    let (closing, closed) = tokio::sync::watch::channel(false);
    let mut shutdown = pin!(shutdown);
    loop {
        let (stream, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    wait_after(&err).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let service = TowerToHyperService::new(app.clone().map_request(
            move |mut request: Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(ConnectInfo(remote));
                request
            },
        ));
        let mut closing = closed.clone();
        tokio::spawn(async move {
            let mut stream = Box::pin(TimeoutStream::new(stream));
            stream
                .as_mut()
                .set_write_timeout_pinned(Some(client_timeout));
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(client_timeout)
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            let mut connection = pin!(connection);
            tokio::select! {
                result = connection.as_mut() => {
                    if let Err(err) = result {
                        tracing::debug!("connection from {remote}: {err}");
                    }
                }
                _ = closing.changed() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        });
    }
    // New connections are refused at once, and the requests under way given a while.
    drop(listener);
    drop(closed);
    let _ = closing.send(true);
    if tokio::time::timeout(SHUTDOWN_GRACE, closing.closed())
        .await
        .is_err()
    {
        tracing::warn!("stopping with requests still under way");
    }
}

/// How long the requests under way at a stop may take to finish: a client that stops
/// reading its answer must not hold the stop.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// After a failed accept: a client that gave up is nothing; anything else (out of file
/// descriptors, most often) is said, and the loop waits a moment rather than spin.
async fn wait_after(err: &std::io::Error) {
    use std::io::ErrorKind;
    if matches!(
        err.kind(),
        ErrorKind::ConnectionRefused | ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset
    ) {
        return;
    }
    tracing::error!("cannot take a connection: {err}");
    tokio::time::sleep(Duration::from_secs(1)).await;
}

/// Reads the request's body whole, within the client timeout, before the handler runs:
/// 408 when it takes longer, 413 past the size limit. A body declared too long is left
/// unread for the router to refuse at once.
async fn read_body_in_time(
    State(client_timeout): State<Duration>,
    request: Request,
    next: Next,
) -> Response {
    if crate::server::declared_oversize(&request) {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    match tokio::time::timeout(client_timeout, axum::body::to_bytes(body, MAX_BODY)).await {
        Ok(Ok(bytes)) => next.run(Request::from_parts(parts, bytes.into())).await,
        Ok(Err(err)) => {
            let too_large = std::error::Error::source(&err)
                .is_some_and(|inner| inner.is::<http_body_util::LengthLimitError>());
            if too_large {
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!("the request's body is over {MAX_BODY} bytes"),
                )
            } else {
                ApiError::bad_request(format!("the request's body could not be read: {err}"))
            }
            .into_response()
        }
        Err(_) => ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request's body did not come within {} seconds",
                client_timeout.as_secs()
            ),
        )
        .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::routing::get;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn a_client_that_stops_reading_is_let_go() {
        const LARGE: usize = 64 << 20;
        let app = Router::new().route("/large", get(|| async { vec![b'x'; LARGE] }));
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(serve(listener, app, Duration::from_secs(1), async {
            let _ = stopped.await;
        }));
        let mut client = tokio::net::TcpStream::connect(address).await.unwrap();
        client
            .write_all(b"GET /large HTTP/1.1\r\nHost: localhost\r\n\r\n")
            .await
            .unwrap();
        // Far past the timeout, with the socket's buffers full: the server gives up.
        tokio::time::sleep(Duration::from_secs(4)).await;
        let mut received = 0;
        let mut buffer = vec![0; 1 << 16];
        let read_all = tokio::time::timeout(Duration::from_secs(20), async {
            while let Ok(n @ 1..) = client.read(&mut buffer).await {
                received += n;
            }
        });
        read_all.await.expect("the connection is closed");
        assert!(
            received < LARGE,
            "the whole answer was sent: {received} bytes"
        );
        let _ = stop.send(());
        server.await.unwrap();
    }
}
