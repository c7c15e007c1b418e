//! `loa serve`: the web server and its page. People play the engine or each other (live
//! with clocks, or by correspondence), analyse and replay games in the browser; every
//! game is kept in SQLite. docs/web.md documents the JSON API.

mod account_news;
mod accounts;
mod api;
mod auth;
mod client;
mod clock;
mod director;
mod engine_pool;
mod error;
mod explorer;
mod game;
mod hub;
mod ids;
mod levels;
mod line;
mod lineup;
mod listen;
mod mail;
mod meta;
mod page;
mod pairing;
mod puzzles;
mod ratings;
mod reports;
mod server;
mod setup;
mod solver_jobs;
mod store;
mod tournament;
mod vacation;
mod view;
mod waiting;
mod ws;

#[cfg(test)]
mod tests;

pub use axum::http::HeaderName;
pub use ipnet::IpNet;
pub use listen::DEFAULT_CLIENT_TIMEOUT;
pub use mail::{mail_address, smtp_url};
pub use server::{client_address_header, public_url, run, trusted_proxy, Config, Server};
#[cfg(feature = "testing")]
pub use store::testing;
pub use store::Database;
pub use tournament::championship::Championship;
