//! `loa serve`: the web server with its page.

use crate::numbers::{whole, whole_as, MAX_THREADS};
use crate::output::say;
use anyhow::{Context, Result};
use clap::Args;

#[derive(Args)]
pub struct ServeArgs {
    /// The address to listen on; 127.0.0.1 keeps the server to this machine.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The port, 1 to 65535; 0 picks a free one.
    #[arg(long, default_value_t = 8080, allow_negative_numbers = true,
          value_parser = whole_as(0, u16::MAX, "a port from 1 to 65535, or 0 for any free port".into()))]
    port: u16,
    /// Where the games are kept: a SQLite file (made if missing; by default games.db in the
    /// user's data folder), or postgres://user:password@host:port/name, a PostgreSQL
    /// database that any number of servers share.
    #[arg(long, value_name = "FILE|URL", value_parser = loa_web::Database::parse)]
    db: Option<loa_web::Database>,
    /// How many engine searches may run at once, 1 to 256 (by default the machine's cores).
    #[arg(long, allow_negative_numbers = true, value_parser = whole(1, MAX_THREADS))]
    engines: Option<usize>,
    /// Nodes searched in each position of a finished game's report (fewer: quicker,
    /// rougher reports).
    #[arg(long, value_name = "N", default_value_t = loa_engine::report::DEFAULT_NODES,
          allow_negative_numbers = true, value_parser = whole(1_000u64, 100_000_000))]
    report_nodes: u64,
    /// The address people reach the site at when it is behind a proxy
    /// (https://loa.example): only pages from it act with a sign-in, and https makes the
    /// sign-in cookie Secure.
    #[arg(long, value_name = "URL", value_parser = loa_web::public_url)]
    public_url: Option<String>,
    /// A championship the site holds, its editions made and started by themselves:
    /// monthly-blitz (a 7-round Swiss at 3+2 on the 1st of each month, 18:00 UTC) or
    /// yearly-classical (the MSO's format: 6 rounds at 25+5, 1 August, 12:00 UTC). Its
    /// medals make the players' titles. Repeat for both.
    #[arg(long, value_name = "NAME", value_parser = loa_web::Championship::parse)]
    championship: Vec<loa_web::Championship>,
    /// The SMTP server e-mails go out through: smtp://host:port (plain),
    /// smtps://user:password@host or smtp://host?tls=required. Without it the site sends
    /// no e-mail (no verification links, no your-move notices).
    #[arg(long, value_name = "URL", value_parser = loa_web::smtp_url)]
    smtp: Option<String>,
    /// The address e-mails come from (loa@ the --public-url's host by default); replies
    /// go to it with a '+' and a secret, so the mail exchanger must send those on.
    #[arg(long, value_name = "ADDRESS", value_parser = loa_web::mail_address, requires = "smtp")]
    mail_from: Option<String>,
    /// Take replies to your-move e-mails by SMTP at this address (127.0.0.1:2525): the
    /// site's mail exchanger forwards the reply addresses to it. Needs --smtp.
    #[arg(long, value_name = "ADDR:PORT", requires = "smtp")]
    mail_in: Option<std::net::SocketAddr>,
    /// A file of puzzles (one a line, as `loa puzzles make` writes them) added at start,
    /// beside the site's own; a puzzle already kept keeps its rating. Repeat for more.
    #[arg(long, value_name = "FILE")]
    puzzles: Vec<std::path::PathBuf>,
    /// Game records (SGF or PGN, any number of games) counted in the opening explorer
    /// with their results (and their players' Elo, when given); a file is counted once,
    /// however often it is given. Repeat for more.
    #[arg(long, value_name = "FILE")]
    archive: Vec<std::path::PathBuf>,
    /// Seconds a client may take to send a request's head, and again its body, and may
    /// leave what it is sent unread, 1 to 3600: a slow client cannot hold a connection
    /// longer.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true,
          default_value_t = loa_web::DEFAULT_CLIENT_TIMEOUT.as_secs(),
          value_parser = whole(1u64, 3600))]
    client_timeout: u64,
    /// Behind a proxy: the header it gives the client's address in (X-Real-IP, or
    /// X-Forwarded-For, whose last address is read), for the limits counted by client
    /// (accounts made, reset links asked for, seeks without an account, study places).
    /// Give it only when the proxy always writes it: a client can send any header
    /// itself. Without it the connection's peer is the client; addresses that are not
    /// public are not counted.
    /// The header is read only from a peer whose address is not public (a proxy on this
    /// machine or its network) or within --trusted-proxy.
    #[arg(long, value_name = "HEADER", value_parser = loa_web::client_address_header)]
    client_address_header: Option<loa_web::HeaderName>,
    /// A public network (203.0.113.0/24) or address a proxy in front connects from,
    /// whose --client-address-header is believed. Repeat for more.
    #[arg(long, value_name = "NETWORK", value_parser = loa_web::trusted_proxy,
          requires = "client_address_header")]
    trusted_proxy: Vec<loa_web::IpNet>,
}

pub fn run(args: ServeArgs) -> Result<()> {
    let db = match args.db {
        Some(path) => path,
        None => loa_web::Database::File(
            dirs::data_dir()
                .context("no data folder for the database: give one with --db FILE")?
                .join("loa")
                .join("games.db"),
        ),
    };
    let config = loa_web::Config {
        host: args.host,
        port: args.port,
        db: db.clone(),
        engines: args.engines,
        report_nodes: args.report_nodes,
        public_url: args.public_url,
        championships: args.championship,
        smtp: args.smtp,
        mail_from: args.mail_from,
        mail_in: args.mail_in,
        puzzles: args.puzzles,
        archives: args.archive,
        client_timeout: std::time::Duration::from_secs(args.client_timeout),
        client_address_header: args.client_address_header,
        trusted_proxies: args.trusted_proxy,
    };
    let public_url = config.public_url.clone();
    let mails_links_here = config.smtp.is_some() && public_url.is_none();
    log_to_stderr();
    loa_web::run(config, |address| {
        say!("loa serve {}: games kept in {db}", env!("LOA_VERSION"));
        match &public_url {
            Some(public) => say!(
                "Open http://{address}/ to reach this server itself; players reach the \
                 site at {public} (Ctrl-C stops the server)"
            ),
            None => say!("Open http://{address}/ in your browser (Ctrl-C stops the server)"),
        }
        if mails_links_here {
            eprintln!(
                "warning: --smtp without --public-url: e-mails link to http://{address}/, \
                 which only this machine can open; give --public-url with the site's address"
            );
        }
    })?;
    say!("loa serve: stopped");
    Ok(())
}

/// The server's log on standard error: warnings and errors (a damaged game row, a failed
/// write), or what `RUST_LOG` asks for (`RUST_LOG=info` adds each tournament round's
/// pairing time and the games resumed at the start).
fn log_to_stderr() {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        // A cookie of a session that ended (signed out elsewhere, expired) is no attack:
        // the session layer's warning of it is noise.
        .unwrap_or_else(|_| {
            tracing_subscriber::EnvFilter::new("warn,tower_sessions_core::session=error")
        });
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
}
