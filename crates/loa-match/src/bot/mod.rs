//! A bot: an engine process playing on a `loa serve` server as an account, through the
//! account's API token (docs/bot-api.md). It accepts the challenges sent to the account
//! that its engine can play and declines the others, picks up the account's games in
//! progress, and plays each game with an engine process of its own. `loa bot` is its
//! front end.
//!
//! By concern: `client.rs` speaks to the server (HTTP and the game sockets), `game.rs`
//! plays one game, and this file checks the account and the engine, then watches for
//! challenges (on the account's socket) and games until Ctrl-C.

mod client;
mod game;

pub use client::{ApiError, Control};

use crate::engine_process::EngineProcess;
use crate::engine_spec::EngineSpec;
use crate::process_group;
use anyhow::{bail, Context, Result};
use client::{AccountSocket, Challenge, Client, Liveness};
use loa_core::{RuleSet, Variant};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Hears what the bot does.
pub trait Log: Send + Sync {
    /// An event, one line: a challenge accepted or declined, a game started, a move
    /// played, a game over, the server gone or back.
    fn event(&self, line: &str);
    /// What goes over the wire: requests and answers, socket views, engine commands
    /// (shown with `--verbose`).
    fn protocol(&self, line: &str);
}

/// What a bot is told.
pub struct BotConfig {
    /// The server's address, `http://host:port`.
    pub server: String,
    /// The account's API token.
    pub token: String,
    /// The engine; its limits (movetime, depth, nodes), if any, go with every `go`.
    pub engine: EngineSpec,
    /// Mark the account BOT if it is not (only an account with no games can be).
    pub make_bot: bool,
    /// The most games played at once; challenges beyond are declined.
    pub max_games: usize,
    /// The time a move takes without a live clock (correspondence) when the engine's
    /// limits give none.
    pub think: Duration,
    /// The wait for the engine's handshake and `readyok`.
    pub timeout: Duration,
}

/// How often the open challenges are read while the account's socket is not open.
const CHALLENGE_POLL: Duration = Duration::from_secs(1);
/// A socket that lived this long is opened again at once when lost; one lost sooner
/// (or refused) is tried again after this long, the challenges read meanwhile.
const SOCKET_RETRY: Duration = Duration::from_secs(10);
/// How often the account's games are read (games begun elsewhere: a rematch).
const GAMES_POLL: Duration = Duration::from_secs(10);

/// What the engine can be asked to play.
#[derive(Clone, Debug)]
pub struct Capabilities {
    /// The name it gives itself.
    pub name: Option<String>,
    /// Standard, and whatever its `UCI_Variant` option lists.
    pub variants: Vec<Variant>,
    /// The draw rule always; mover-wins if it declares `SimultaneousConnection`.
    pub rules: Vec<RuleSet>,
}

impl Capabilities {
    /// Starts the engine once to read what it declares, and ends it.
    pub fn probe(spec: &EngineSpec, timeout: Duration) -> Result<Capabilities> {
        let engine = EngineProcess::start(spec, RuleSet::Draw, Variant::Standard, timeout)
            .map_err(|e| anyhow::anyhow!("engine ({}): {e}", spec.cmd.display()))?;
        let mut variants = vec![Variant::Standard];
        for name in &engine.variants {
            if let Ok(variant) = name.parse::<Variant>() {
                if !variants.contains(&variant) {
                    variants.push(variant);
                }
            }
        }
        let mut rules = vec![RuleSet::Draw];
        if engine.declares("SimultaneousConnection") {
            rules.push(RuleSet::MoverWins);
        }
        let name = engine.id_name.clone();
        engine.quit(Duration::from_millis(500));
        Ok(Capabilities {
            name,
            variants,
            rules,
        })
    }

    /// Why the bot declines `challenge`, if it does.
    pub fn refusal(&self, variant: &str, rules: &str, clock: Option<Control>) -> Option<String> {
        let Ok(variant) = variant.parse::<Variant>() else {
            return Some(format!("the variant '{variant}' is unknown to this bot"));
        };
        if !self.variants.contains(&variant) {
            return Some(format!("the engine does not play {}", variant.name()));
        }
        match rules.parse::<RuleSet>() {
            Ok(rules) if self.rules.contains(&rules) => {}
            _ => return Some(format!("the engine cannot be told the rules '{rules}'")),
        }
        if clock == Some(Control::Other) {
            return Some("its clock is of a kind this bot does not know".to_string());
        }
        None
    }
}

/// Waits that grow from a second to a minute while the server does not answer.
pub(crate) struct Backoff {
    next: Duration,
}

impl Backoff {
    const FIRST: Duration = Duration::from_secs(1);
    const MOST: Duration = Duration::from_secs(60);

    pub fn new() -> Backoff {
        Backoff { next: Self::FIRST }
    }

    pub fn reset(&mut self) {
        self.next = Self::FIRST;
    }

    /// The wait about to be made.
    pub fn next(&self) -> Duration {
        self.next
    }

    /// Waits the next step (doubling the one after); `false` if stopped meanwhile.
    pub fn wait(&mut self, stop: &AtomicBool) -> bool {
        let waited = sleep(self.next, stop);
        self.next = (self.next * 2).min(Self::MOST);
        waited
    }
}

/// Sleeps in short steps; `false` as soon as `stop` is set.
pub(crate) fn sleep(time: Duration, stop: &AtomicBool) -> bool {
    let end = Instant::now() + time;
    while !stop.load(Ordering::Relaxed) {
        let left = end.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return true;
        }
        std::thread::sleep(left.min(Duration::from_millis(50)));
    }
    false
}

/// What the game threads share.
pub(crate) struct Shared {
    pub client: Client,
    pub spec: EngineSpec,
    pub log: Arc<dyn Log>,
    pub stop: Arc<AtomicBool>,
    pub think: Duration,
    pub timeout: Duration,
}

/// Runs the bot until Ctrl-C (or SIGTERM), or until the server refuses its token.
pub fn run(config: BotConfig, log: Arc<dyn Log>) -> Result<()> {
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // A second Ctrl-C does not wait for the games to be left.
        ctrlc::set_handler(move || {
            if stop.swap(true, Ordering::Relaxed) {
                process_group::kill_all();
                std::process::exit(130);
            }
        })
        .context("cannot catch Ctrl-C")?;
    }
    let client = Client::new(&config.server, &config.token, log.clone());
    let Some(me) = check_account(&client, &config, &*log, &stop)? else {
        return Ok(());
    };
    let caps = Capabilities::probe(&config.engine, config.timeout)?;
    let names: Vec<&str> = caps.variants.iter().map(|v| v.name()).collect();
    log.event(&format!(
        "engine {} plays {}{}",
        caps.name.as_deref().unwrap_or(&config.engine.name),
        names.join(", "),
        if caps.rules.contains(&RuleSet::MoverWins) {
            " (either rule set)"
        } else {
            " (the draw rule only)"
        }
    ));
    let shared = Arc::new(Shared {
        client,
        spec: config.engine,
        log: log.clone(),
        stop: stop.clone(),
        think: config.think,
        timeout: config.timeout,
    });
    let mut watcher = Watcher {
        shared,
        me: me.name,
        caps,
        max_games: config.max_games,
        games: HashMap::new(),
        done: HashSet::new(),
        answered: HashSet::new(),
    };
    let result = watcher.watch();
    stop.store(true, Ordering::Relaxed);
    let left = watcher.games.len();
    for (_, handle) in watcher.games.drain() {
        let _ = handle.join();
    }
    result?;
    log.event(&match left {
        0 => "stopped".to_string(),
        n => format!(
            "stopped: {n} game{} left in progress (the bot picks {} up when it starts again)",
            if n == 1 { "" } else { "s" },
            if n == 1 { "it" } else { "them" }
        ),
    });
    Ok(())
}

/// Checks the token and says who the bot plays as; marks the account BOT if asked.
/// `None` if stopped before the server answered.
fn check_account(
    client: &Client,
    config: &BotConfig,
    log: &dyn Log,
    stop: &AtomicBool,
) -> Result<Option<client::Me>> {
    let mut backoff = Backoff::new();
    let me = loop {
        match client.me() {
            Ok(me) => break me,
            Err(ApiError::Unreachable(why)) => {
                log.event(&format!(
                    "server unreachable ({why}): trying again in {} s",
                    backoff.next().as_secs()
                ));
                if !backoff.wait(stop) {
                    return Ok(None);
                }
            }
            Err(ApiError::Status {
                status: 401,
                message,
            }) => bail!("the server refused the token: {message}"),
            Err(e) => bail!(
                "GET /api/me: {e} (is {} a loa server?)",
                loa_core::excerpt(&config.server)
            ),
        }
    };
    let mut me = me;
    if !me.bot && config.make_bot {
        match client.make_bot() {
            Ok(marked) => {
                me = marked;
                log.event(&format!("{} is now marked BOT", me.name));
            }
            Err(e) => log.event(&format!("warning: {} cannot be marked BOT: {e}", me.name)),
        }
    }
    if me.bot {
        log.event(&format!("playing as {} (BOT)", me.name));
    } else {
        log.event(&format!(
            "playing as {}; warning: the account is not marked BOT (run once with --make-bot, \
             before its first game)",
            me.name
        ));
    }
    Ok(Some(me))
}

/// Whether a refusal settles a challenge for good: not the account's to answer (403),
/// gone (404), no longer open (409).
fn settles(refusal: &ApiError) -> bool {
    matches!(refusal.status(), Some(403 | 404 | 409))
}

/// How the bot hears of challenges: the account's socket, with its liveness and when it
/// opened, or reading them every second while it is not open.
struct Feed {
    socket: Option<(AccountSocket, Liveness, Instant)>,
    /// When to try to open the socket; never on a server without one.
    retry_at: Option<Instant>,
}

/// The main thread's round: challenges, games, threads.
struct Watcher {
    shared: Arc<Shared>,
    me: String,
    caps: Capabilities,
    max_games: usize,
    /// The games being played, each on a thread of its own.
    games: HashMap<String, JoinHandle<()>>,
    /// Games whose thread has ended: not taken up again in this run.
    done: HashSet<String>,
    /// The open challenges answered (those still listed as open).
    answered: HashSet<String>,
}

impl Watcher {
    fn watch(&mut self) -> Result<()> {
        let stop = self.shared.stop.clone();
        let mut backoff = Backoff::new();
        let mut outage = false;
        let mut games_read: Option<Instant> = None;
        let mut feed = Feed {
            socket: None,
            retry_at: Some(Instant::now()),
        };
        while !stop.load(Ordering::Relaxed) {
            self.reap();
            let due = games_read.is_none_or(|at| at.elapsed() >= GAMES_POLL);
            let round = self.hear(&mut feed).and_then(|()| {
                if due {
                    self.pick_up_games()?;
                    games_read = Some(Instant::now());
                }
                Ok(())
            });
            match round {
                Ok(()) => {
                    if outage {
                        self.shared.log.event("server reachable again");
                        outage = false;
                    }
                    backoff.reset();
                }
                Err(ApiError::Unreachable(why)) => {
                    if !outage {
                        self.shared
                            .log
                            .event(&format!("server unreachable ({why}): trying again"));
                        outage = true;
                    }
                    backoff.wait(&stop);
                }
                Err(ApiError::Status {
                    status: 401,
                    message,
                }) => bail!("the server refused the token: {message}"),
                Err(e) => {
                    self.shared.log.event(&format!("the server answered {e}"));
                    backoff.wait(&stop);
                }
            }
        }
        if let Some((socket, ..)) = feed.socket {
            socket.close();
        }
        Ok(())
    }

    /// About a second of hearing of challenges and games: on the account's socket while
    /// it is open, else by reading the challenges (and trying the socket again when due).
    fn hear(&mut self, feed: &mut Feed) -> Result<(), ApiError> {
        let client = &self.shared.client;
        if feed.socket.is_none() && feed.retry_at.is_some_and(|at| Instant::now() >= at) {
            match client.account_socket() {
                Ok(socket) => feed.socket = Some((socket, Liveness::new(), Instant::now())),
                // A server older than the account's socket: read the challenges.
                Err(ApiError::Status { status: 404, .. }) => {
                    self.shared.log.event(
                        "the server has no account socket: reading the challenges every second",
                    );
                    feed.retry_at = None;
                }
                Err(e) => {
                    client.log_protocol(&format!("account socket: {e}"));
                    feed.retry_at = Some(Instant::now() + SOCKET_RETRY);
                }
            }
        }
        let Some((socket, liveness, opened)) = &mut feed.socket else {
            self.challenges()?;
            sleep(CHALLENGE_POLL, &self.shared.stop);
            return Ok(());
        };
        let until = Instant::now() + CHALLENGE_POLL;
        while Instant::now() < until && !self.shared.stop.load(Ordering::Relaxed) {
            // Why the socket is left; whether to open it again at once (it was closed
            // after living long: a sign-out, its lifetime); the server's failure.
            let (left, again, failed) = match socket.next_alive(liveness) {
                Ok(Some(news)) => {
                    for game in news.waiting.unwrap_or_default() {
                        self.start(game.id, false);
                    }
                    match news.challenges.map(|open| self.answer_all(open)) {
                        None | Some(Ok(true)) => continue,
                        // The socket tells again only of a change: the list is read
                        // every second until the socket is opened again.
                        Some(Ok(false)) => ("a challenge to answer again".to_string(), false, None),
                        Some(Err(e)) => ("the server did not answer".to_string(), false, Some(e)),
                    }
                }
                Ok(None) => continue,
                Err(why) => (why, opened.elapsed() >= SOCKET_RETRY, None),
            };
            self.shared
                .client
                .log_protocol(&format!("account socket left: {left}"));
            feed.retry_at = Some(if again {
                Instant::now()
            } else {
                Instant::now() + SOCKET_RETRY
            });
            if let Some((socket, ..)) = feed.socket.take() {
                socket.close();
            }
            return failed.map_or(Ok(()), Err);
        }
        Ok(())
    }

    /// Forgets the threads of games that have ended.
    fn reap(&mut self) {
        let ended: Vec<String> = (self.games.iter())
            .filter(|(_, handle)| handle.is_finished())
            .map(|(id, _)| id.clone())
            .collect();
        for id in ended {
            if let Some(handle) = self.games.remove(&id) {
                let _ = handle.join();
            }
            self.done.insert(id);
        }
    }

    /// Answers every open challenge sent to the account.
    fn challenges(&mut self) -> Result<(), ApiError> {
        let open = self.shared.client.challenges()?;
        self.answer_all(open).map(|_| ())
    }

    /// Answers the challenges of `open` (the account's open challenges, all of them)
    /// that are sent to the account and not answered yet: the socket may tell of one
    /// again in a list it sent before the answer arrived.
    /// Whether every challenge was settled (see [`Watcher::answer`]).
    fn answer_all(&mut self, open: Vec<Challenge>) -> Result<bool, ApiError> {
        self.answered
            .retain(|id| open.iter().any(|challenge| challenge.id == *id));
        let mut settled = true;
        for challenge in open {
            if !challenge.to.eq_ignore_ascii_case(&self.me)
                || challenge.status != "open"
                || self.answered.contains(&challenge.id)
            {
                continue;
            }
            if self.answer(&challenge)? {
                self.answered.insert(challenge.id);
            } else {
                settled = false;
            }
        }
        Ok(settled)
    }

    /// Accepts or declines `c`: whether that settled it (done, or refused for good: not
    /// the account's, gone, no longer open); `false` for a refusal worth trying again
    /// (too many requests, a server error).
    fn answer(&mut self, c: &Challenge) -> Result<bool, ApiError> {
        let terms = format!(
            "{}, {}{}{}",
            c.variant,
            c.clock
                .map_or_else(|| "no clock".to_string(), |clock| clock.to_string()),
            if c.rules == "draw" {
                String::new()
            } else {
                format!(", {}", c.rules)
            },
            if c.rated { ", rated" } else { "" }
        );
        let busy = (self.games.len() >= self.max_games).then(|| {
            format!(
                "already playing {} game{}",
                self.games.len(),
                if self.games.len() == 1 { "" } else { "s" }
            )
        });
        let refusal = self.caps.refusal(&c.variant, &c.rules, c.clock).or(busy);
        let log = &self.shared.log;
        if let Some(why) = refusal {
            match self.shared.client.decline(&c.id) {
                Ok(_) => log.event(&format!(
                    "challenge {} from {} ({terms}): declined: {why}",
                    c.id, c.from
                )),
                Err(e @ ApiError::Unreachable(_)) => return Err(e),
                Err(e) => {
                    log.event(&format!("challenge {}: cannot decline: {e}", c.id));
                    return Ok(settles(&e));
                }
            }
            return Ok(true);
        }
        match self.shared.client.accept(&c.id) {
            Ok(accepted) => {
                log.event(&format!(
                    "challenge {} from {} ({terms}): accepted",
                    c.id, c.from
                ));
                if let Some(game) = accepted.game {
                    self.start(game, true);
                }
            }
            Err(e @ ApiError::Unreachable(_)) => return Err(e),
            // Withdrawn meanwhile, or refused: say so and go on.
            Err(e) => {
                log.event(&format!("challenge {}: cannot accept: {e}", c.id));
                return Ok(settles(&e));
            }
        }
        Ok(true)
    }

    /// Takes up the account's games in progress that no thread plays.
    fn pick_up_games(&mut self) -> Result<(), ApiError> {
        for game in self.shared.client.my_games()? {
            if game.result.is_none() && game.online {
                self.start(game.id, false);
            }
        }
        Ok(())
    }

    /// Plays a game on a thread of its own, unless one plays it or played it; `fresh`
    /// for a game just made by accepting a challenge.
    fn start(&mut self, id: String, fresh: bool) {
        if self.games.contains_key(&id) || self.done.contains(&id) {
            return;
        }
        let shared = self.shared.clone();
        let game_id = id.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("game {id}"))
            .spawn(move || game::play(&shared, &game_id, fresh));
        match spawned {
            Ok(handle) => {
                self.games.insert(id, handle);
            }
            Err(e) => self
                .shared
                .log
                .event(&format!("game {id}: no thread for it: {e}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caps(variants: &[Variant], rules: &[RuleSet]) -> Capabilities {
        Capabilities {
            name: None,
            variants: variants.to_vec(),
            rules: rules.to_vec(),
        }
    }

    #[test]
    fn challenges_the_engine_cannot_play_are_refused_with_the_reason() {
        let standard = caps(&[Variant::Standard], &[RuleSet::Draw]);
        let live = Some(Control::Live {
            initial_s: 60,
            increment_s: 1,
        });
        assert_eq!(standard.refusal("standard", "draw", live), None);
        assert_eq!(
            standard.refusal("parachute", "draw", live).as_deref(),
            Some("the engine does not play parachute")
        );
        assert_eq!(
            standard.refusal("standard", "mover-wins", live).as_deref(),
            Some("the engine cannot be told the rules 'mover-wins'")
        );
        assert!(standard.refusal("chess", "draw", live).is_some());
        assert!(standard
            .refusal("standard", "draw", Some(Control::Other))
            .is_some());
        let every = caps(&Variant::ALL, &[RuleSet::Draw, RuleSet::MoverWins]);
        assert_eq!(
            every.refusal(
                "parachute",
                "mover-wins",
                Some(Control::Correspondence { days: 3 })
            ),
            None
        );
    }

    #[test]
    fn backoff_doubles_up_to_a_minute_and_starts_again() {
        let stop = AtomicBool::new(true);
        let mut backoff = Backoff::new();
        let mut waits = Vec::new();
        for _ in 0..8 {
            waits.push(backoff.next().as_secs());
            assert!(!backoff.wait(&stop), "a stopped wait says so");
        }
        assert_eq!(waits, [1, 2, 4, 8, 16, 32, 60, 60]);
        backoff.reset();
        assert_eq!(backoff.next(), Duration::from_secs(1));
    }
}
