//! The server's games in memory, over the store: each open game behind its own lock with
//! a channel to the pages watching it. Every change goes through [`Hub::change`]: made on
//! the game, written to the database, then told to the watchers; and after it the hub
//! starts what the game needs next (the engine's move, the watch on a flag).

use crate::account_news::News;
use crate::clock::now_ms;
use crate::engine_pool::{Cancel, EnginePool};
use crate::game::{Caller, Changed, Ending, GameError, GameView, LiveGame};
use crate::ids;
use crate::ratings::{self, Category, Rating, Speed};
use crate::store::{BoardOf, Event, Heard, RatingRow, RatingUpdate, Store, StoreError};
use loa_core::{Color, GameState};
use loa_engine::{SearchLimits, SearchRequest};
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::broadcast;

/// How long a server holds the engine's search of a move before another may take it
/// over: longer than the longest search the API allows.
const ENGINE_LEASE_MS: i64 = crate::levels::MAX_MOVETIME_MS as i64 + 15_000;

/// How many times a change is tried on a game that other servers keep changing.
const WRITE_ATTEMPTS: usize = 5;
/// How many games changed on other servers are read again at once: half the database
/// connections (PostgreSQL's pool holds 16), the other half left to the requests.
const REFRESHES_AT_ONCE: usize = 8;

/// An open game: the game, its watchers, the engine search and the flag watch it has.
pub struct OpenGame {
    pub game: tokio::sync::Mutex<LiveGame>,
    /// The game's view as JSON after each change.
    pub updates: broadcast::Sender<Arc<str>>,
    watchers: AtomicUsize,
    /// The accounts watching, with how many pages each has open: a player watching is
    /// not e-mailed their move.
    viewers: Mutex<HashMap<i64, usize>>,
    /// The engine's search for the move after this many plies.
    engine: Mutex<Option<(usize, Arc<Cancel>)>>,
    flag_watch: Mutex<Option<tokio::task::AbortHandle>>,
}

/// Why the hub could not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum HubError {
    #[error("no such game")]
    NotFound,
    /// A stored game that cannot be read back: this game's fault alone.
    #[error(
        "game {id} is damaged in the database and cannot be opened; other games are not affected"
    )]
    Damaged { id: String, detail: String },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Game(#[from] GameError),
    /// Other servers changed the game each time this one tried to.
    #[error("the game is changing too fast to write; try again")]
    Contended,
}

pub type HubResult<T> = Result<T, HubError>;

pub struct Hub {
    pub store: Store,
    pub pool: EnginePool,
    /// Told whenever the lobby's seeks change.
    pub lobby: broadcast::Sender<()>,
    /// What changes for each signed-in person whose page follows it.
    pub account_news: crate::account_news::AccountNews,
    /// Runs the tournaments; told the id of each tournament that changes.
    pub director: crate::director::Director,
    /// The site's outgoing mail, if it sends any.
    pub mail: crate::mail::Mail,
    /// Told when a game's report is queued here, to wake the report workers.
    pub reports_queued: tokio::sync::Notify,
    /// Moves off puzzles' lines, judged by the solver.
    pub puzzle_proofs: crate::puzzles::AlternativeProofs,
    /// The explorer's engine and solver verdicts.
    pub explorer_verdicts: crate::explorer::ExplorerVerdicts,
    /// Solver work people ask for, in turn: a puzzle's other move, the explorer.
    pub solver_jobs: crate::solver_jobs::SolverJobs,
    /// The study places each client's network holds (analysis boards, evaluations).
    pub client_studies: crate::client::ClientTurns,
    /// First tries at puzzles rated one at a time on this server.
    pub puzzle_ratings_lock: tokio::sync::Mutex<()>,
    ratings_lock: tokio::sync::Mutex<()>,
    games: Mutex<HashMap<String, Arc<OpenGame>>>,
    /// How many times idle games were let go of: a game read from the database while
    /// one of them ran may be older than the copy it let go of.
    sweeps: AtomicU64,
}

impl Hub {
    pub fn new(store: Store, pool: EnginePool) -> Arc<Hub> {
        let client_studies =
            crate::client::ClientTurns::new(crate::client::studies_per_client(pool.study_places()));
        Arc::new(Hub {
            store,
            pool,
            lobby: broadcast::channel(16).0,
            account_news: crate::account_news::AccountNews::default(),
            director: crate::director::Director::default(),
            mail: crate::mail::Mail::default(),
            reports_queued: tokio::sync::Notify::new(),
            puzzle_proofs: crate::puzzles::AlternativeProofs::default(),
            explorer_verdicts: crate::explorer::ExplorerVerdicts::default(),
            solver_jobs: crate::solver_jobs::SolverJobs::default(),
            client_studies,
            puzzle_ratings_lock: tokio::sync::Mutex::new(()),
            ratings_lock: tokio::sync::Mutex::new(()),
            games: Mutex::new(HashMap::new()),
            sweeps: AtomicU64::new(0),
        })
    }

    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<OpenGame>>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds a new game: written first, then opened.
    pub async fn create(self: &Arc<Self>, live: LiveGame) -> HubResult<Arc<OpenGame>> {
        self.create_on(live, None).await
    }

    /// A new game, on a tournament's board if it is one.
    pub async fn create_on(
        self: &Arc<Self>,
        live: LiveGame,
        board: Option<BoardOf<'_>>,
    ) -> HubResult<Arc<OpenGame>> {
        self.store.insert(&live.stored(), board).await?;
        let id = live.id.clone();
        crate::mail::after_create(self, &live);
        let open = Arc::new(OpenGame::new(live));
        self.games().insert(id, Arc::clone(&open));
        Ok(open)
    }

    /// An open game, read from the database if it is not in memory.
    pub async fn open(self: &Arc<Self>, id: &str) -> HubResult<Arc<OpenGame>> {
        if !ids::is_well_formed(id) {
            return Err(HubError::NotFound);
        }
        loop {
            let sweeps = self.sweeps.load(Ordering::Acquire);
            if let Some(open) = self.games().get(id) {
                return Ok(Arc::clone(open));
            }
            let live = self.read(id).await?;
            let mut games = self.games();
            // Another request may have opened it meanwhile: keep the first. A sweep
            // meanwhile may have let go of a copy changed after this read: read again.
            if !games.contains_key(id) && self.sweeps.load(Ordering::Acquire) != sweeps {
                continue;
            }
            let open = games
                .entry(id.to_string())
                .or_insert_with(|| Arc::new(OpenGame::new(live)));
            return Ok(Arc::clone(open));
        }
    }

    /// A game as the database has it now.
    async fn read(&self, id: &str) -> HubResult<LiveGame> {
        // A row that cannot be read back is this game's fault alone: say which game, and
        // keep serving the others.
        let damaged = |detail: String| HubError::Damaged {
            id: id.to_string(),
            detail,
        };
        let stored = self
            .store
            .load(id)
            .await
            .map_err(|e| {
                if e.is_damaged_row() {
                    damaged(e.to_string())
                } else {
                    HubError::from(e)
                }
            })?
            .ok_or(HubError::NotFound)?;
        LiveGame::restore(stored).map_err(damaged)
    }

    /// Reads the game again when another server has changed it, and tells the watchers.
    async fn refresh(self: &Arc<Self>, open: &Arc<OpenGame>, live: &mut LiveGame) -> HubResult<()> {
        let fresh = self.read(&live.id).await?;
        if fresh.version > live.version {
            *live = fresh;
            let view = live.view(now_ms());
            self.after_change(open, live, &view);
        }
        Ok(())
    }

    /// Reads again the games among `ids` held here, changed in the store beside the hub
    /// (a deleted account's name), and tells their watchers.
    pub async fn changed_in_store(self: &Arc<Self>, ids: &[String]) -> HubResult<()> {
        for id in ids {
            let open = self.games().get(id).cloned();
            if let Some(open) = open {
                let mut live = open.game.lock().await;
                self.refresh(&open, &mut live).await?;
            }
        }
        Ok(())
    }

    /// Makes a change to a game and, if it succeeds, writes it and tells the watchers;
    /// answers the game's view after it. The change is made on a copy: a failed write
    /// leaves the game as it was.
    pub async fn change(
        self: &Arc<Self>,
        open: &Arc<OpenGame>,
        mut action: impl FnMut(&mut LiveGame, i64) -> Result<Changed, GameError>,
    ) -> HubResult<GameView> {
        let view = self
            .apply(open, |live, now| action(live, now).map(Some))
            .await?;
        Ok(view.expect("an action that is not refused changes the game"))
    }

    /// A change the server makes when it applies (the engine's move, a flag): `None`,
    /// and nothing written, when it does not.
    pub async fn change_if(
        self: &Arc<Self>,
        open: &Arc<OpenGame>,
        mut action: impl FnMut(&mut LiveGame, i64) -> Option<Changed>,
    ) -> HubResult<Option<GameView>> {
        self.apply(open, |live, now| Ok(action(live, now))).await
    }

    /// Makes the change on a copy, writes it, then puts the copy in place and tells the
    /// watchers. When another server has changed the game since it was read, it is read
    /// again and the change made on what it is now (or refused by it).
    async fn apply(
        self: &Arc<Self>,
        open: &Arc<OpenGame>,
        mut action: impl FnMut(&mut LiveGame, i64) -> Result<Option<Changed>, GameError>,
    ) -> HubResult<Option<GameView>> {
        let mut live = open.game.lock().await;
        for _ in 0..WRITE_ATTEMPTS {
            let now = now_ms();
            let mut copy = live.clone();
            let mut changed = match action(&mut copy, now) {
                Ok(Some(changed)) => changed,
                Ok(None) => return Ok(None),
                // Refused by the game as this server holds it: another server may have
                // changed it a moment ago (a move this one has not yet been told of).
                Err(refusal) if self.store.is_shared() => {
                    let held = live.version;
                    self.refresh(open, &mut live).await?;
                    if live.version == held {
                        return Err(refusal.into());
                    }
                    continue;
                }
                Err(refusal) => return Err(refusal.into()),
            };
            if !changed.new_moves.is_empty() {
                self.keep_vacation(&mut copy, now).await?;
            }
            let ended = copy.is_over() && !live.is_over();
            changed.queue_report = ended && crate::reports::worth_reporting(&copy);
            // Ratings are read and written under one lock: two games of a player ending
            // at once must each start from the rating the other wrote.
            let aborted = copy.ending.as_ref().is_some_and(Ending::is_aborted);
            let rating = if copy.rated && ended && !aborted {
                let guard = self.ratings_lock.lock().await;
                self.rate(&mut copy, &mut changed).await?;
                Some(guard)
            } else {
                None
            };
            let written = self
                .store
                .update(&copy.row(now), &changed.as_change())
                .await?;
            drop(rating);
            if !written {
                self.refresh(open, &mut live).await?;
                continue;
            }
            let view = self.put_written(open, &mut live, copy, now);
            if changed.queue_report {
                self.reports_queued.notify_waiters();
            }
            crate::mail::after_change(self, open, &live, &changed);
            let end = ended.then(|| crate::director::GameEnd::of(&live));
            // The game's lock is let go first: the director opens other games.
            drop(live);
            if let Some(end) = end {
                crate::director::game_ended(self, end).await;
            }
            return Ok(Some(view));
        }
        Err(HubError::Contended)
    }

    /// Puts a copy of the game just written in its place, and tells the watchers.
    fn put_written(
        self: &Arc<Self>,
        open: &Arc<OpenGame>,
        live: &mut LiveGame,
        mut copy: LiveGame,
        now: i64,
    ) -> GameView {
        copy.updated_at = now;
        copy.version += 1;
        *live = copy;
        let view = live.view(now);
        self.after_change(open, live, &view);
        view
    }

    /// A move to a player on vacation: their clock starts when the vacation ends.
    async fn keep_vacation(&self, live: &mut LiveGame, now: i64) -> HubResult<()> {
        let to_move = live.account_to_move().filter(|_| live.is_correspondence());
        if let Some((_, account)) = to_move {
            if let Some(until) = self.store.vacation(account).await?.until {
                if until > now {
                    live.pause_for(account, until, now);
                }
            }
        }
        Ok(())
    }

    /// Tells the lobby's watchers, here and on the other servers, that the seeks changed.
    pub fn lobby_changed(self: &Arc<Self>) {
        let _ = self.lobby.send(());
        self.announce(Event::Lobby);
    }

    /// Tells the tournament's watchers, here and on the other servers, that it changed.
    pub fn tournament_changed(self: &Arc<Self>, id: &str) {
        let _ = self.director.changes.send(id.to_string());
        self.announce(Event::Tournament(id.to_string()));
    }

    /// Tells the accounts' sockets, here and on the other servers, of `news`.
    pub fn tell_accounts(self: &Arc<Self>, accounts: &[i64], news: News) {
        for &id in accounts {
            self.account_news.tell(id, news);
            self.announce(Event::Account { id, news });
        }
    }

    fn announce(self: &Arc<Self>, event: Event) {
        let hub = Arc::clone(self);
        tokio::spawn(async move {
            if let Err(err) = hub.store.announce(&event).await {
                tracing::warn!("telling the other servers of {event:?}: {err}");
            }
        });
    }

    /// Follows what the other servers on the database change (PostgreSQL; nothing to
    /// follow on SQLite): a game open here is read again and its watchers told, the
    /// lobby's and a tournament's watchers told.
    pub async fn follow_other_servers(self: Arc<Self>) -> HubResult<()> {
        let Some(mut listener) = self.store.listen().await? else {
            return Ok(());
        };
        // Games are read again side by side, a few at a time: one at a time, each waiting
        // for the game's lock and then the database, fell seconds behind under load.
        let reading = Arc::new(tokio::sync::Semaphore::new(REFRESHES_AT_ONCE));
        loop {
            match listener.next().await {
                Heard::Event(Event::Game { id, version }) => {
                    let open = self.games().get(&id).cloned();
                    if let Some(open) = open {
                        // Apart: a game whose lock is held (its own change being written)
                        // keeps no other game's watchers waiting.
                        let reading = Arc::clone(&reading);
                        let hub = Arc::clone(&self);
                        tokio::spawn(async move {
                            // Versions only go up: a later event's read, done first, leaves
                            // this one nothing to do.
                            let mut live = open.game.lock().await;
                            if live.version < version {
                                let _turn = reading
                                    .acquire()
                                    .await
                                    .expect("the semaphore is never closed");
                                if let Err(err) = hub.refresh(&open, &mut live).await {
                                    tracing::warn!("game {id} changed on another server: {err}");
                                }
                            }
                        });
                    }
                }
                Heard::Event(Event::Lobby) => {
                    let _ = self.lobby.send(());
                }
                Heard::Event(Event::Tournament(id)) => {
                    let _ = self.director.changes.send(id);
                }
                Heard::Event(Event::Account { id, news }) => {
                    self.account_news.tell(id, news);
                }
                Heard::Reconnected => {
                    // Whatever was said meanwhile is lost: read every open game again.
                    for open in self.open_games() {
                        let mut live = open.game.lock().await;
                        if let Err(err) = self.refresh(&open, &mut live).await {
                            tracing::warn!("game {} after reconnecting: {err}", live.id);
                        }
                    }
                    let _ = self.lobby.send(());
                    // A sign-out may have been missed: the people's sockets close, and
                    // their pages open them again with whatever still signs them in.
                    self.account_news.tell_all(News::SignedOut);
                }
            }
        }
    }

    /// The ratings a rated game's end moves, noted in the game and the change to write.
    async fn rate(&self, live: &mut LiveGame, changed: &mut Changed) -> HubResult<()> {
        let (Some(control), Some(ending)) = (live.clock.map(|c| c.control), &live.ending) else {
            return Ok(());
        };
        // A win over a player who never moved says nothing of either's strength (and
        // would hand out points for an opponent who stays away).
        if live.lost_without_moving() {
            return Ok(());
        }
        let (Some(black), Some(white)) =
            (live.account_of(Color::Black), live.account_of(Color::White))
        else {
            return Ok(());
        };
        let category = Category {
            variant: live.variant,
            speed: Speed::of(control),
        }
        .key();
        let mut before = [Rating::default(); 2];
        for (slot, account) in before.iter_mut().zip([black, white]) {
            if let Some(row) = self.store.rating(account, &category).await? {
                *slot = row.rating();
            }
        }
        let after = ratings::rate(before[0], before[1], ending.winner);
        live.rating_changes = Some([
            i64::from(ratings::change(before[0], after[0])),
            i64::from(ratings::change(before[1], after[1])),
        ]);
        changed.ratings = [black, white]
            .into_iter()
            .zip(after)
            .map(|(account, rating)| RatingUpdate {
                account,
                rating: RatingRow {
                    category: category.clone(),
                    rating: rating.rating,
                    deviation: rating.deviation,
                    volatility: rating.volatility,
                    games: i64::from(rating.games),
                },
            })
            .collect();
        Ok(())
    }

    /// The rematch of a finished game for the seat `caller` holds: made on the first
    /// request, the same game for every later one (the other player's included). Answers
    /// the rematch, whether it was made now, and the tokens of the caller's seats in it.
    pub async fn rematch(
        self: &Arc<Self>,
        open: &Arc<OpenGame>,
        caller: &Caller,
    ) -> HubResult<(Arc<OpenGame>, bool, BTreeMap<String, String>)> {
        let mut live = open.game.lock().await;
        let slots = live.rematch_slots(caller)?;
        let mut attempts = 0;
        let (rematch, made) = loop {
            if let Some(id) = live.rematch.clone() {
                break (self.open(&id).await?, false);
            }
            attempts += 1;
            if attempts > WRITE_ATTEMPTS {
                return Err(HubError::Contended);
            }
            let now = now_ms();
            let setup = live.rematch_setup(caller)?;
            let mut bots = [false; 2];
            for side in Color::ALL {
                if let Some(id) = setup.accounts[side.index()] {
                    bots[side.index()] = self.store.account(id).await?.is_some_and(|a| a.bot);
                }
            }
            let next = LiveGame::create_rematch(setup, &slots, bots, now);
            let mut copy = live.clone();
            copy.rematch = Some(next.id.clone());
            let rematch = self.create(next).await?;
            let written = self
                .store
                .update(
                    &copy.row(now),
                    &Changed::nothing_at(copy.game.ply()).as_change(),
                )
                .await?;
            if !written {
                // Another server wrote the game first, perhaps with its own rematch: the
                // one made here is left unplayed.
                self.refresh(open, &mut live).await?;
                continue;
            }
            self.put_written(open, &mut live, copy, now);
            let next = rematch.game.lock().await;
            self.after_change(&rematch, &next, &next.view(now));
            drop(next);
            break (rematch, true);
        };
        let tokens: BTreeMap<String, String> = {
            let next = rematch.game.lock().await;
            let all = next.tokens();
            slots
                .into_iter()
                .filter_map(|slot| all.get(&slot).map(|t| (slot, t.clone())))
                .collect()
        };
        if !made {
            // The other person asks too: their seats of the rematch are taken now.
            for token in tokens.values() {
                let caller = Caller {
                    token: Some(token.clone()),
                    account: caller.account,
                };
                self.change_if(&rematch, |next, now| {
                    let seat = next.seats.iter().find(|s| s.token == *token);
                    match seat {
                        Some(seat) if !seat.joined => next.join(&caller, None, now).ok(),
                        _ => None,
                    }
                })
                .await?;
            }
        }
        Ok((rematch, made, tokens))
    }

    /// Tells the watchers and starts what the game needs next.
    pub fn after_change(self: &Arc<Self>, open: &Arc<OpenGame>, live: &LiveGame, view: &GameView) {
        let json: Arc<str> = serde_json::to_string(view).expect("serializable").into();
        let _ = open.updates.send(json);
        // Here only: a game's change reaches another server's players as the game's own
        // event, which that server follows where the game is open.
        for color in [Color::Black, Color::White] {
            if let Some(account) = live.account_of(color) {
                self.account_news.tell(account, News::Waiting);
            }
        }
        self.watch_flag(open, live);
        self.start_engine(open, live);
    }

    /// Watches the running clock and the wait for a first move: the flag falls, or the
    /// game is called off, on the server at its time.
    fn watch_flag(self: &Arc<Self>, open: &Arc<OpenGame>, live: &LiveGame) {
        let mut watch = open.flag_watch.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(previous) = watch.take() {
            previous.abort();
        }
        let due = [live.flag_at(), live.unplayed_until()];
        let Some(flag_at) = due.into_iter().flatten().min() else {
            return;
        };
        let (hub, game) = (Arc::clone(self), Arc::clone(open));
        let task = tokio::spawn(async move {
            let wait = u64::try_from(flag_at.saturating_sub(now_ms())).unwrap_or(0);
            tokio::time::sleep(Duration::from_millis(wait)).await;
            // The flag watch must not abort itself through after_change.
            game.flag_watch
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take();
            let flagged = hub
                .change_if(&game, |live, now| {
                    (live.end_unplayed(now) || live.check_flag(now))
                        .then(|| Changed::nothing_at(live.game.ply()))
                })
                .await;
            if !matches!(flagged, Ok(Some(_))) {
                // A move came first, or the write failed: look again.
                let live = game.game.lock().await;
                hub.watch_flag(&game, &live);
            }
        });
        *watch = Some(task.abort_handle());
    }

    /// Starts the engine's search when the seat to move is the engine's and nobody who
    /// was watching has left. A game of engines alone is played only while watched:
    /// no person's move paces it, and unwatched it would hold the engine pool for nobody.
    fn start_engine(self: &Arc<Self>, open: &Arc<OpenGame>, live: &LiveGame) {
        let mut engine = open.engine.lock().unwrap_or_else(|e| e.into_inner());
        let ply = live.game.ply();
        let unwatched = open.watchers.load(Ordering::Acquire) == 0;
        let strength = live
            .engine_to_move()
            .filter(|_| live.lineup.has_human() || !unwatched);
        let Some(strength) = strength else {
            if let Some((_, cancel)) = engine.take() {
                cancel.cancel();
            }
            return;
        };
        match engine.as_ref() {
            Some((searching, _)) if *searching == ply => return,
            Some((_, cancel)) => cancel.cancel(),
            None => {}
        }
        let cancel = Cancel::new();
        *engine = Some((ply, Arc::clone(&cancel)));
        let request = SearchRequest::for_game(&live.game, cap_by_clock(strength.limits(), live));
        let (hub, game, id) = (Arc::clone(self), Arc::clone(open), live.id.clone());
        tokio::spawn(async move {
            if !hub.claim_engine_move(&id, ply, &cancel).await {
                return;
            }
            let result = hub.pool.search(request, |_| {}, &cancel).await;
            {
                let mut engine = game.engine.lock().unwrap_or_else(|e| e.into_inner());
                if engine
                    .as_ref()
                    .is_some_and(|(_, c)| Arc::ptr_eq(c, &cancel))
                {
                    *engine = None;
                }
            }
            let Some(best) = result.and_then(|r| r.best) else {
                return;
            };
            if cancel.is_cancelled() {
                return;
            }
            match hub
                .change_if(&game, |live, now| live.play_engine(best, ply, now))
                .await
            {
                Ok(Some(_)) => {}
                Ok(None) => tracing::debug!("engine move {best} not played: the game moved on"),
                Err(err) => tracing::error!("engine move {best} not written: {err}"),
            }
        });
    }

    /// Waits until this server is the one to search the engine's move at `ply` (at once
    /// on SQLite): `false` when that wait is cancelled (the move came from the server
    /// that searched it, nobody watches any more) or the claim cannot be asked.
    async fn claim_engine_move(&self, id: &str, ply: usize, cancel: &Cancel) -> bool {
        const POLL_MS: i64 = 500;
        loop {
            let now = now_ms();
            match self
                .store
                .claim_engine_move(id, ply, now + ENGINE_LEASE_MS, now)
                .await
            {
                Ok(None) => return true,
                // Another server searches it: wait for its move, or for its lease to run
                // out (it stopped) and take the search over.
                Ok(Some(until)) => {
                    let mut wait = until.saturating_sub(now).clamp(0, ENGINE_LEASE_MS) + POLL_MS;
                    while wait > 0 {
                        if cancel.is_cancelled() {
                            return false;
                        }
                        tokio::time::sleep(Duration::from_millis(POLL_MS as u64)).await;
                        wait -= POLL_MS;
                    }
                }
                Err(err) => {
                    tracing::error!("claiming the engine's move in game {id}: {err}");
                    return false;
                }
            }
        }
    }

    /// A page begins watching a game (as `account`, if signed in); the engine resumes if
    /// it was waiting for one.
    pub async fn watch(
        self: &Arc<Self>,
        open: &Arc<OpenGame>,
        account: Option<i64>,
    ) -> broadcast::Receiver<Arc<str>> {
        open.watchers.fetch_add(1, Ordering::AcqRel);
        if let Some(account) = account {
            *open.viewers().entry(account).or_default() += 1;
        }
        let receiver = open.updates.subscribe();
        let live = open.game.lock().await;
        self.start_engine(open, &live);
        receiver
    }

    /// A page stops watching; when the last one goes, the engine's search is cancelled
    /// and a finished game leaves memory.
    pub fn unwatch(self: &Arc<Self>, open: &Arc<OpenGame>, id: &str, account: Option<i64>) {
        if let Some(account) = account {
            let mut viewers = open.viewers();
            if let Some(pages) = viewers.get_mut(&account) {
                *pages -= 1;
                if *pages == 0 {
                    viewers.remove(&account);
                }
            }
        }
        if open.watchers.fetch_sub(1, Ordering::AcqRel) != 1 {
            return;
        }
        if let Some((_, cancel)) = open.engine.lock().unwrap_or_else(|e| e.into_inner()).take() {
            cancel.cancel();
        }
        if let Ok(live) = open.game.try_lock() {
            if live.is_over() {
                self.games().remove(id);
            }
        }
    }

    /// Lets go of the games in memory that nothing holds (no page watching, no engine
    /// search, no clock to watch, no request under way): the database has all of them,
    /// and games merely read would otherwise stay in memory for good. Answers how many
    /// are left. The map's own reference is the only one when the count is one, and no
    /// other can be taken but through the map, under the same lock.
    pub fn forget_idle_games(&self) -> usize {
        let mut games = self.games();
        self.sweeps.fetch_add(1, Ordering::AcqRel);
        games.retain(|_, open| Arc::strong_count(open) > 1);
        games.len()
    }

    /// The games in memory: every game in progress with a running clock among them.
    pub fn open_games(&self) -> Vec<Arc<OpenGame>> {
        self.games().values().cloned().collect()
    }

    /// Calls off the games whose invited players did not come in time (see
    /// `LiveGame::invitation_expires_at`); answers how many.
    pub async fn expire_invitations(self: &Arc<Self>) -> HubResult<usize> {
        let made_before =
            now_ms() - crate::game::INVITATION_LIVE_MS.min(crate::game::INVITATION_MS);
        let mut expired = 0;
        for id in self.store.unstarted_games_made_before(made_before).await? {
            let Ok(open) = self.open(&id).await else {
                continue;
            };
            let changed = self
                .change_if(&open, |live, now| {
                    live.expire_invitation(now)
                        .then(|| Changed::nothing_at(live.game.ply()))
                })
                .await;
            if matches!(changed, Ok(Some(_))) {
                expired += 1;
            }
        }
        Ok(expired)
    }

    /// Opens every game whose clock runs and that is not held already, so that its flag
    /// falls on time even if nobody looks at it (after a restart, or another server's
    /// stop); answers how many it opened.
    pub async fn resume_clocks(self: &Arc<Self>) -> HubResult<usize> {
        let mut ids = self.store.clocked_games_in_progress().await?;
        // A game held already has its flag watched.
        ids.retain(|id| !self.games().contains_key(id));
        let now = now_ms();
        for id in &ids {
            let open = self.open(id).await?;
            let mut live = open.game.lock().await;
            live.resumed_at = Some(now);
            self.watch_flag(&open, &live);
        }
        Ok(ids.len())
    }
}

impl OpenGame {
    fn viewers(&self) -> std::sync::MutexGuard<'_, HashMap<i64, usize>> {
        self.viewers.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether `account` has the game open in a page.
    pub fn is_watched_by(&self, account: i64) -> bool {
        self.viewers().contains_key(&account)
    }

    fn new(live: LiveGame) -> OpenGame {
        OpenGame {
            game: tokio::sync::Mutex::new(live),
            updates: broadcast::channel(64).0,
            watchers: AtomicUsize::new(0),
            viewers: Mutex::new(HashMap::new()),
            engine: Mutex::new(None),
            flag_watch: Mutex::new(None),
        }
    }
}

/// Under a clock, the engine's time for a move stays inside the clock's share of it,
/// as in the engine protocol.
fn cap_by_clock(limits: SearchLimits, live: &LiveGame) -> SearchLimits {
    // The move is written and sent before the opponent's clock starts.
    const OVERHEAD: Duration = Duration::from_millis(50);
    match live.clock {
        Some(clock) => {
            let side = live.position().side_to_move();
            limits.on_clock(&clock.engine_clock(side, now_ms()), OVERHEAD)
        }
        None => limits,
    }
}
