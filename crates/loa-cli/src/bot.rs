//! `loa bot`: an engine playing on a `loa serve` server as an account, through the bot
//! library (`loa_match::bot`); docs/bot-api.md describes it.

use crate::numbers::{seconds, whole};
use crate::output::say;
use anyhow::{bail, Result};
use loa_match::bot::{BotConfig, Log};
use std::sync::Arc;
use std::time::Duration;

/// The environment variable read for the token when `--token` is not given.
const TOKEN_VAR: &str = "LOA_TOKEN";

#[derive(clap::Args)]
#[command(after_long_help = "\
EXAMPLES
  loa bot --server http://127.0.0.1:8080 --token loa_... \\
          --engine cmd=target/release/loa arg=engine option.Hash=64
  LOA_TOKEN=loa_... loa bot --server http://loa.example:8080 --make-bot \\
          --engine cmd=./my-engine proto=uci movetime=5000

See docs/bot-api.md.")]
pub struct BotArgs {
    /// The server's address (http://host:port).
    #[arg(long, value_name = "URL", value_parser = server_url)]
    server: String,
    /// The account's API token (made on the account page, or POST /api/tokens); by
    /// default the LOA_TOKEN environment variable, which other users cannot read.
    #[arg(long, value_name = "TOKEN")]
    token: Option<String>,
    /// The engine, as KEY=VALUE words: cmd=PATH is required, arg= repeats; movetime=,
    /// depth= and nodes= go with every go beside the game's clock.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., required = true)]
    engine: Vec<String>,
    /// Mark the account BOT if it is not (possible only before its first game).
    #[arg(long)]
    make_bot: bool,
    /// The most games played at once (an engine process each); challenges beyond are
    /// declined.
    #[arg(long, value_name = "N", default_value_t = 4, allow_negative_numbers = true,
          value_parser = whole(1usize, 64))]
    max_games: usize,
    /// Seconds a move takes in a correspondence game (unless the engine's movetime=,
    /// depth= or nodes= say otherwise).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = seconds)]
    think: Duration,
    /// Show the protocol on standard error: requests, answers, socket views, engine
    /// commands.
    #[arg(long)]
    verbose: bool,
}

fn server_url(text: &str) -> Result<String, String> {
    let quoted = loa_core::excerpt(text);
    if text.starts_with("https://") {
        return Err(format!(
            "'{quoted}': https is not supported yet: give the server's plain http:// address"
        ));
    }
    match text.strip_prefix("http://") {
        Some(rest) if !rest.is_empty() => Ok(text.trim_end_matches('/').to_string()),
        _ => Err(format!(
            "'{quoted}' is not an address like http://127.0.0.1:8080"
        )),
    }
}

/// Events on standard output, a line each with the time; the protocol on standard error.
struct Lines {
    verbose: bool,
}

impl Log for Lines {
    fn event(&self, line: &str) {
        say!("{} {line}", chrono::Local::now().format("%H:%M:%S"));
    }

    fn protocol(&self, line: &str) {
        if self.verbose {
            eprintln!("{line}");
        }
    }
}

pub fn run(args: BotArgs) -> Result<()> {
    let token = match args.token {
        Some(token) => token,
        None => match std::env::var(TOKEN_VAR) {
            Ok(token) if !token.trim().is_empty() => token,
            _ => bail!("give the account's API token: --token TOKEN, or {TOKEN_VAR}"),
        },
    };
    let engine = loa_match::bot_spec(&args.engine).map_err(anyhow::Error::msg)?;
    let config = BotConfig {
        server: args.server,
        token: token.trim().to_string(),
        engine,
        make_bot: args.make_bot,
        max_games: args.max_games,
        think: args.think,
        timeout: Duration::from_secs(30),
    };
    loa_match::bot::run(
        config,
        Arc::new(Lines {
            verbose: args.verbose,
        }),
    )
}
