//! The server: the routes, the database, the engine pool, and serving until stopped.

use crate::api;
use crate::auth;
use crate::engine_pool::EnginePool;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::page;
use crate::store::Store;
use crate::ws;
use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderName, HeaderValue};
use axum::routing::{delete, get, post, put};
use axum::Router;
use std::net::SocketAddr;
use std::sync::Arc;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_sessions::cookie::SameSite;
use tower_sessions::{Expiry, SessionManagerLayer};

/// The largest request body: 1 MB.
pub const MAX_BODY: usize = 1 << 20;

#[derive(Clone, Debug)]
pub struct Config {
    pub host: String,
    pub port: u16,
    pub db: crate::store::Database,
    /// How many searches may run at once; the machine's cores by default.
    pub engines: Option<usize>,
    /// Nodes searched in each position of a game's report.
    pub report_nodes: u64,
    /// The address people reach the site at (`https://loa.example`), when it is behind a
    /// proxy: its origin is the only one allowed to act with a session, and `https`
    /// makes the session cookie Secure.
    pub public_url: Option<String>,
    /// The site's championships: each edition made and started by itself.
    pub championships: Vec<crate::tournament::championship::Championship>,
    /// The SMTP server mail goes out through (`smtp://host:port`, `smtps://user:pass@host`);
    /// without it the site sends no mail.
    pub smtp: Option<String>,
    /// The address e-mails come from; `loa@` the public address's host by default.
    pub mail_from: Option<String>,
    /// Where to listen for replies to your-move e-mails (SMTP).
    pub mail_in: Option<SocketAddr>,
    /// Files of puzzles (as `loa puzzles make` writes them) added at start, beside the
    /// site's own.
    pub puzzles: Vec<std::path::PathBuf>,
    /// Game records (SGF or PGN) counted in the opening explorer, each file once.
    pub archives: Vec<std::path::PathBuf>,
    /// How long a client may take to send a request's head, and its body, and may leave
    /// what it is sent unread.
    pub client_timeout: std::time::Duration,
    /// The header a proxy in front gives the client's address in (`X-Real-IP`); without
    /// it the peer is the client.
    pub client_address_header: Option<HeaderName>,
    /// Public networks the proxy may connect from, whose header is believed (a peer that
    /// is not public always may).
    pub trusted_proxies: Vec<ipnet::IpNet>,
}

/// The address mail comes from when none is given: `loa@` the site's host name, or
/// `loa@localhost` for an address by number.
pub fn default_sender(public_url: &str) -> String {
    let host = public_url
        .split_once("://")
        .map_or(public_url, |(_, rest)| rest)
        .split(['/', ':'])
        .next()
        .unwrap_or_default();
    let named = host.contains('.') && host.chars().any(|c| c.is_ascii_alphabetic());
    format!("loa@{}", if named { host } else { "localhost" })
}

/// The site's public address as a person gives it (`https://loa.example`), checked and
/// written as browsers write a page's origin (host in lower case, no default port), so
/// that requests from the site's own pages are recognised and links are whole.
pub fn public_url(text: &str) -> Result<String, String> {
    let shown = loa_core::excerpt(text);
    let refuse = |why: &str| Err(format!("'{shown}' {why}"));
    let Ok(url) = url::Url::parse(text) else {
        return refuse("is not an address like https://loa.example");
    };
    if !matches!(url.scheme(), "http" | "https") || !url.has_host() {
        return refuse("is not an address like https://loa.example");
    }
    if !url.username().is_empty() || url.password().is_some() {
        return refuse("has a user name or password: give the site's address alone");
    }
    if url.path() != "/" {
        return refuse("has a path: the site is served at the root of its address");
    }
    if url.query().is_some() || url.fragment().is_some() {
        return refuse("has a query or a fragment: give the site's address alone");
    }
    Ok(url.origin().ascii_serialization())
}

/// The name of the header a trusted proxy gives the client's address in, checked.
pub fn client_address_header(text: &str) -> Result<HeaderName, String> {
    match text.parse::<HeaderName>() {
        Ok(name) => Ok(name),
        Err(_) => Err(format!(
            "'{}' is not a header name like X-Real-IP",
            loa_core::excerpt(text)
        )),
    }
}

/// A network a proxy connects from (`203.0.113.0/24`, `2001:db8::/32`) or one address,
/// checked.
pub fn trusted_proxy(text: &str) -> Result<ipnet::IpNet, String> {
    text.parse::<ipnet::IpNet>()
        .or_else(|_| text.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
        .map(|net| net.trunc())
        .map_err(|_| {
            format!(
                "'{}' is not an address or a network like 203.0.113.0/24",
                loa_core::excerpt(text)
            )
        })
}

/// How long a sign-in lasts.
const SESSION_DAYS: i64 = 30;

/// The routes of the page and the API, with sessions and the cross-site refusal.
pub fn router(hub: Arc<Hub>, public_url: Option<&str>) -> Router {
    let own_origin: Option<Arc<str>> = public_url.and_then(auth::origin_of).map(Into::into);
    let secure_cookies = public_url.is_some_and(|url| url.starts_with("https://"));
    let sessions = SessionManagerLayer::new(hub.store.sessions())
        .with_name(auth::SESSION_COOKIE)
        .with_http_only(true)
        .with_same_site(SameSite::Lax)
        .with_secure(secure_cookies)
        .with_expiry(Expiry::OnInactivity(time::Duration::days(SESSION_DAYS)));
    Router::new()
        .route("/@/{name}", get(page::index))
        .route("/players", get(page::index))
        .route("/rules", get(page::index))
        .route("/puzzles", get(page::index))
        .route("/puzzles/{id}", get(page::index))
        .route("/account", get(page::index))
        .route("/api/accounts", post(api::sign_up))
        .route(
            "/api/session",
            post(api::sign_in_with_password).delete(api::sign_out),
        )
        .route("/api/sessions", delete(api::sign_out_everywhere))
        .route("/api/me", get(api::me).delete(api::delete_account))
        .route("/api/me/password", post(api::change_password))
        .route("/api/password-reset", post(api::ask_password_reset))
        .route(
            "/api/password-reset/{secret}",
            get(api::password_reset_link).post(api::reset_password),
        )
        .route("/password-reset/{secret}", get(page::index))
        .route("/api/me/games", get(api::my_games))
        .route("/api/me/games.pgn", get(api::my_games_pgn))
        .route("/api/me/bot", post(api::become_bot))
        .route(
            "/api/me/mail",
            get(api::mail_settings).put(api::change_mail_settings),
        )
        .route("/api/me/mail/verify", post(api::resend_verification))
        .route("/api/me/waiting", get(api::games_waiting))
        .route("/api/me/socket", get(ws::account_socket))
        .route("/api/me/blocks", get(api::list_blocks))
        .route(
            "/api/me/blocks/{name}",
            put(api::block_player).delete(api::unblock_player),
        )
        .route(
            "/api/me/vacation",
            get(api::vacation)
                .post(api::start_vacation)
                .delete(api::end_vacation),
        )
        .route("/mail/verify/{secret}", get(api::verify_email))
        .route(
            "/mail/unsubscribe/{secret}",
            get(page::index).post(api::unsubscribe),
        )
        .route("/api/tokens", post(api::create_token).get(api::list_tokens))
        .route("/api/tokens/{id}", delete(api::revoke_token))
        .route("/api/players/{name}", get(api::player))
        .route("/api/players/{name}/games", get(api::player_games))
        .route("/api/players/{name}/opponents", get(api::player_opponents))
        .route(
            "/api/tournaments",
            post(api::create_tournament).get(api::list_tournaments),
        )
        .route(
            "/api/tournaments/{id}",
            get(api::get_tournament).delete(api::cancel_tournament),
        )
        .route("/api/tournaments/{id}/join", post(api::join_tournament))
        .route(
            "/api/tournaments/{id}/withdraw",
            post(api::withdraw_from_tournament),
        )
        .route("/api/tournaments/{id}/start", post(api::start_tournament))
        .route("/api/tournaments/{id}/games.pgn", get(api::tournament_pgn))
        .route(
            "/api/tournaments/{id}/standings.csv",
            get(api::tournament_csv),
        )
        .route("/api/tournaments/{id}/socket", get(ws::tournament_socket))
        .route("/tournaments", get(page::index))
        .route("/tournament/{id}", get(page::index))
        .route("/api/leaderboard", get(api::leaderboard))
        .route("/api/seeks", post(api::create_seek).get(api::list_seeks))
        .route(
            "/api/seeks/{id}",
            get(api::get_seek).delete(api::delete_seek),
        )
        .route("/api/seeks/{id}/accept", post(api::accept_seek))
        .route("/api/pairing", post(api::quick_pairing))
        .route("/api/lobby/socket", get(ws::lobby_socket))
        .route(
            "/api/challenges",
            post(api::create_challenge).get(api::my_challenges),
        )
        .route("/api/challenges/{id}", get(api::get_challenge))
        .route("/api/challenges/{id}/accept", post(api::accept_challenge))
        .route("/api/challenges/{id}/decline", post(api::decline_challenge))
        .route("/", get(page::index))
        .route("/game/{id}", get(page::index))
        .route("/analysis", get(page::index))
        .route("/app.js", get(page::script))
        .route("/js/{name}", get(page::module))
        .route("/style.css", get(page::style))
        .route("/icon.svg", get(page::icon))
        .route("/api/meta", get(crate::meta::meta))
        .route("/api/health", get(crate::meta::health))
        .route("/api/games", post(api::create_game).get(api::list_games))
        .route("/api/games/{id}", get(api::get_game))
        .route("/api/games/{id}/moves", post(api::play_move))
        .route("/api/games/{id}/join", post(api::join))
        .route("/api/games/{id}/resign", post(api::resign))
        .route("/api/games/{id}/abort", post(api::abort))
        .route("/api/games/{id}/draw", post(api::offer_draw))
        .route("/api/games/{id}/draw/decline", post(api::decline_draw))
        .route("/api/games/{id}/takeback", post(api::takeback))
        .route(
            "/api/games/{id}/takeback/decline",
            post(api::decline_takeback),
        )
        .route("/api/games/{id}/rematch", post(api::rematch))
        .route("/api/games/{id}/chat", post(api::chat))
        .route("/api/games/{id}/record", get(api::record))
        .route(
            "/api/games/{id}/report",
            get(api::get_report).post(api::request_report),
        )
        .route("/api/explorer", post(api::explore))
        .route("/api/puzzles", get(api::puzzles_summary))
        .route("/api/puzzles/next", get(api::next_puzzle))
        .route("/api/puzzles/daily", get(api::daily_puzzle))
        .route("/api/puzzles/{id}", get(api::get_puzzle))
        .route("/api/puzzles/{id}/moves", post(api::puzzle_move))
        .route("/api/puzzles/{id}/solution", post(api::puzzle_solution))
        .route("/api/games/{id}/socket", get(ws::game_socket))
        .route("/api/analysis", get(ws::analysis_socket))
        .route("/api/position", post(api::describe_position))
        .route("/api/records", post(api::read_records))
        .route("/api/evaluate", post(api::evaluate))
        .fallback(page::not_found)
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&hub),
            auth::check_token,
        ))
        .layer(axum::middleware::from_fn(crate::error::json_errors))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn(refuse_declared_oversize))
        .layer(axum::middleware::from_fn_with_state(
            own_origin,
            auth::refuse_cross_site,
        ))
        .layer(axum::Extension(auth::SecureCookies(secure_cookies)))
        .layer(sessions)
        .layer(axum::middleware::from_fn(auth::set_device_cookie))
        // Keeps browsers from misusing the site: no page of it in another site's frame
        // (a click there would be a click here), no type guessed other than the one
        // sent, no address (which may hold a mail link's secret) told to another site.
        .layer(always(header::X_FRAME_OPTIONS, "DENY"))
        .layer(always(
            header::CONTENT_SECURITY_POLICY,
            "frame-ancestors 'none'",
        ))
        .layer(always(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(always(header::REFERRER_POLICY, "same-origin"))
        .with_state(hub)
}

/// A header on every answer that has not set it.
fn always(name: HeaderName, value: &'static str) -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
}

/// A body whose declared length is over the limit is refused before any of it is read:
/// the client learns at once, and the server reads nothing it would throw away.
/// (`DefaultBodyLimit` still stops a body sent without a length.)
async fn refuse_declared_oversize(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    if declared_oversize(&request) {
        use axum::response::IntoResponse;
        ApiError::new(
            axum::http::StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request's body is over {MAX_BODY} bytes"),
        )
        .into_response()
    } else {
        next.run(request).await
    }
}

/// Refuses (421) a request that names a host other than this machine, on a server that
/// listens on loopback alone without a public address: another site's page whose name
/// was pointed at 127.0.0.1 (DNS rebinding) would otherwise be of the server's own origin.
async fn refuse_foreign_host(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let host = request
        .headers()
        .get(header::HOST)
        .map(|value| value.to_str().unwrap_or_default());
    match host {
        Some(host) if !names_loopback(host) => {
            use axum::response::IntoResponse;
            ApiError::new(
                axum::http::StatusCode::MISDIRECTED_REQUEST,
                "this server answers to localhost only (give --public-url to serve a name)",
            )
            .into_response()
        }
        _ => next.run(request).await,
    }
}

/// Whether a `Host` header names this machine: `localhost` (or a name under it) or a
/// loopback address, with any port.
fn names_loopback(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or_default(),
        None => host.split(':').next().unwrap_or_default(),
    }
    .to_ascii_lowercase();
    name == "localhost"
        || name.ends_with(".localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Whether the request's declared length is over the limit.
pub(crate) fn declared_oversize(request: &axum::extract::Request) -> bool {
    request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok())
        .is_some_and(|length| length > MAX_BODY as u64)
}

/// The puzzles every site starts with.
const OWN_PUZZLES: &str = include_str!("../data/puzzles.txt");

/// The engine levels' bot accounts, so that each level has its profile before its first
/// rated game.
async fn add_level_bots(store: &Store) -> anyhow::Result<()> {
    for level in 1..=crate::levels::MAX_LEVEL {
        let name = crate::levels::bot_name(level);
        store
            .bot_account(&name, crate::clock::now_ms())
            .await
            .map_err(|e| anyhow::anyhow!("cannot make the bot account {name}: {e}"))?;
    }
    Ok(())
}

/// Adds the site's own puzzles and those of the files given; one already kept keeps its
/// rating. A file that cannot be read stops the start; a line that is no puzzle is said.
async fn add_puzzles(store: &Store, files: &[std::path::PathBuf]) -> anyhow::Result<()> {
    use anyhow::Context;
    let mut sources = vec![(
        "the site's own puzzles".to_string(),
        OWN_PUZZLES.to_string(),
    )];
    for file in files {
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("cannot read the puzzles {}", file.display()))?;
        sources.push((file.display().to_string(), text));
    }
    for (name, text) in sources {
        let read = crate::puzzles::read_file(&text);
        for refused in read.refused.iter().take(5) {
            tracing::warn!("{name}: {refused}");
        }
        if read.refused.len() > 5 {
            tracing::warn!("{name}: {} more lines refused", read.refused.len() - 5);
        }
        let added = store
            .add_puzzles(&read.puzzles, crate::clock::now_ms())
            .await
            .map_err(|e| anyhow::anyhow!("cannot add the puzzles of {name}: {e}"))?;
        if added > 0 {
            let added = loa_core::counted(added as usize, "puzzle");
            tracing::info!("{added} added from {name}");
        }
    }
    Ok(())
}

/// Counts archives in the opening explorer: each file once (by its text), however often
/// it is given. A file that cannot be read stops the start.
async fn add_archives(store: &Store, files: &[std::path::PathBuf]) -> anyhow::Result<()> {
    use anyhow::Context;
    for file in files {
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("cannot read the archive {}", file.display()))?;
        let archive = crate::explorer::read_archive(&text, loa_core::Variant::Standard);
        let name = file.display().to_string();
        let counted = store
            .explore_archive(
                &archive.digest,
                &name,
                &archive.games,
                crate::clock::now_ms(),
            )
            .await
            .map_err(|e| anyhow::anyhow!("cannot count the archive {name}: {e}"))?;
        if counted {
            let games = loa_core::counted(archive.games.len(), "game");
            tracing::info!(
                "{games} of {name} counted in the opening explorer ({} without a result or unreadable)",
                archive.skipped
            );
        }
    }
    Ok(())
}

/// A server bound to its address, ready to serve.
pub struct Server {
    listener: tokio::net::TcpListener,
    hub: Arc<Hub>,
    public_url: Option<String>,
    report_nodes: u64,
    client_timeout: std::time::Duration,
    client_address_header: Option<HeaderName>,
    trusted_proxies: Vec<ipnet::IpNet>,
    /// A SQLite file, locked while this server runs: one file serves one server.
    _sole_user: Option<std::fs::File>,
}

impl Server {
    /// Binds the address (port 0: any free port), then opens the database.
    pub async fn bind(config: &Config) -> anyhow::Result<Server> {
        use anyhow::Context;
        // The port first: a port in use is said before any folder is made.
        let address = format!("{}:{}", config.host, config.port);
        let listener = tokio::net::TcpListener::bind(&address)
            .await
            .with_context(|| format!("cannot listen on {address}"))?;
        if let crate::store::Database::File(path) = &config.db {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot make the folder {}", dir.display()))?;
            }
        }
        let sole_user = match &config.db {
            crate::store::Database::File(path) => Some(lock_database_file(path)?),
            crate::store::Database::Postgres(_) => None,
        };
        let store = Store::open(&config.db)
            .await
            .map_err(|e| anyhow::anyhow!("cannot open the database {}: {e}", config.db))?;
        let engines = config.engines.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        });
        add_level_bots(&store).await?;
        add_puzzles(&store, &config.puzzles).await?;
        add_archives(&store, &config.archives).await?;
        let hub = Hub::new(store, EnginePool::new(engines));
        let _ = hub.director.championships.set(config.championships.clone());
        if let Some(smtp) = &config.smtp {
            let public_url = config.public_url.clone().unwrap_or_else(|| {
                format!(
                    "http://{}",
                    listener
                        .local_addr()
                        .map_or(address.clone(), |a| a.to_string())
                )
            });
            hub.mail.configure(crate::mail::MailConfig {
                smtp: smtp.clone(),
                from: config
                    .mail_from
                    .clone()
                    .unwrap_or_else(|| default_sender(&public_url)),
                public_url,
                replies: config.mail_in.is_some(),
            });
            crate::mail::spawn_worker(&hub)?;
            if let Some(mail_in) = config.mail_in {
                let bound = crate::mail::listen(&hub, mail_in).await?;
                tracing::info!("replies by e-mail taken at {bound}");
            }
        } else if config.mail_in.is_some() {
            anyhow::bail!("--mail-in needs --smtp: a reply is answered by e-mail");
        }
        Ok(Server {
            listener,
            hub,
            report_nodes: config.report_nodes,
            client_timeout: config.client_timeout,
            client_address_header: config.client_address_header.clone(),
            trusted_proxies: config.trusted_proxies.clone(),
            public_url: config.public_url.clone(),
            _sole_user: sole_user,
        })
    }

    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until `shutdown` completes; games whose clocks run are watched from the
    /// start.
    pub async fn serve(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let resumed = self
            .hub
            .resume_clocks()
            .await
            .map_err(|e| anyhow::anyhow!("cannot resume the games with clocks: {e}"))?;
        if resumed > 0 {
            let games = loa_core::counted(resumed, "game");
            tracing::info!("{games} with running clocks resumed");
        }
        let hub = Arc::clone(&self.hub);
        tokio::spawn(async move {
            if let Err(err) = hub.follow_other_servers().await {
                tracing::error!("cannot follow the other servers on the database: {err}");
            }
        });
        if self.hub.store.is_shared() {
            // A server that stopped leaves games with running clocks that no other holds:
            // they are taken up here, so that their flags still fall.
            let hub = Arc::clone(&self.hub);
            tokio::spawn(async move {
                let mut sweep = tokio::time::interval(std::time::Duration::from_secs(30));
                loop {
                    sweep.tick().await;
                    if let Err(err) = hub.resume_clocks().await {
                        tracing::warn!("taking up the games with running clocks: {err}");
                    }
                }
            });
        }
        let hub = Arc::clone(&self.hub);
        tokio::spawn(async move {
            let mut sweep = tokio::time::interval(std::time::Duration::from_secs(60));
            for minute in 0u64.. {
                sweep.tick().await;
                hub.forget_idle_games();
                if minute % 60 == 0 {
                    match hub.expire_invitations().await {
                        Ok(0) => {}
                        Ok(n) => tracing::info!(
                            "{} called off: their invited players did not come",
                            loa_core::counted(n, "game")
                        ),
                        Err(err) => tracing::warn!("calling off the games not joined: {err}"),
                    }
                    if let Err(err) = api::forget_client_networks(&hub).await {
                        tracing::warn!("forgetting old client addresses: {err}");
                    }
                }
            }
        });
        crate::director::spawn(&self.hub);
        crate::mail::spawn_ticker(&self.hub);
        crate::reports::start_workers(&self.hub, self.hub.pool.size(), self.report_nodes);
        crate::explorer::start_worker(&self.hub);
        self.hub.store.sessions().sweep_expired();
        let loopback = self.listener.local_addr()?.ip().is_loopback();
        let mut app = router(self.hub, self.public_url.as_deref());
        if loopback && self.public_url.is_none() {
            app = app.layer(axum::middleware::from_fn(refuse_foreign_host));
        }
        if let Some(header) = self.client_address_header {
            app = app.layer(axum::Extension(crate::client::AddressHeader {
                name: header,
                proxies: self.trusted_proxies.into(),
            }));
        }
        crate::listen::serve(self.listener, app, self.client_timeout, shutdown).await;
        Ok(())
    }
}

/// Locks a SQLite database's file (made if missing) for this server alone: a second
/// server on it would never hear of the first's changes. The lock is the kernel's
/// (`flock`), gone with the process however it ends; SQLite's own locks, and a backup
/// taken meanwhile, are not touched by it.
fn lock_database_file(path: &std::path::Path) -> anyhow::Result<std::fs::File> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| anyhow::anyhow!("cannot open the database {}: {e}", path.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(anyhow::anyhow!(
            "the database {} is in use by another loa serve: a SQLite file serves one \
             server (several servers share a PostgreSQL database: docs/deploy.md)",
            path.display()
        )),
        Err(std::fs::TryLockError::Error(err)) => Err(anyhow::anyhow!(
            "cannot lock the database {}: {err}",
            path.display()
        )),
    }
}

/// Runs the server on a runtime of its own until Ctrl-C (SIGINT) or SIGTERM; `on_ready`
/// hears the address.
pub fn run(config: Config, on_ready: impl FnOnce(SocketAddr)) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        // Heard from before the address is told: a stop asked for at once is not missed.
        let stop = stop_asked()?;
        let server = Server::bind(&config).await?;
        on_ready(server.local_addr()?);
        server.serve(stop).await
    })
}

/// Ctrl-C (SIGINT), or SIGTERM (a service manager's stop, `kill`): either ends the server
/// the same way. Both are listened to from this call on.
fn stop_asked() -> std::io::Result<impl std::future::Future<Output = ()> + Send + 'static> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut terminate = signal(SignalKind::terminate())?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = terminate.recv() => {}
        }
    })
}

#[cfg(test)]
mod tests {
    use super::{names_loopback, trusted_proxy};

    #[test]
    fn a_trusted_proxy_is_a_network_or_one_address() {
        for (given, read) in [
            ("203.0.113.0/24", "203.0.113.0/24"),
            ("203.0.113.9/24", "203.0.113.0/24"),
            ("203.0.113.9", "203.0.113.9/32"),
            ("2001:db8::1", "2001:db8::1/128"),
            ("2001:db8:5::/48", "2001:db8:5::/48"),
        ] {
            assert_eq!(trusted_proxy(given).unwrap().to_string(), read, "{given}");
        }
        for wrong in [
            "",
            "proxy",
            "10.0.0.0/33",
            "2001:db8::/129",
            "10.0.0.0/-1",
            "1.2.3",
        ] {
            assert!(trusted_proxy(wrong).is_err(), "{wrong}");
        }
    }

    #[test]
    fn loopback_hosts_are_localhost_and_loopback_addresses() {
        for host in [
            "localhost",
            "LOCALHOST:8080",
            "app.localhost:80",
            "127.0.0.1:8080",
            "127.5.6.7",
            "[::1]:8080",
            "[::1]",
        ] {
            assert!(names_loopback(host), "{host}");
        }
        for host in [
            "evil.example",
            "evil.example:8080",
            "localhost.evil.example",
            "10.0.0.1:8080",
            "[::2]:80",
            "",
        ] {
            assert!(!names_loopback(host), "{host}");
        }
    }
}
