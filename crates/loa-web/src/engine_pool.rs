//! The engine in the server: searches run through a bounded pool, no more at once than
//! the machine has cores; the rest wait their turn. Each search is bounded in time by its
//! limits and can be cancelled at any moment, waiting or running. Background work (game
//! reports) takes a place only when no search of live play waits, and gives it back at
//! once when one comes.

use loa_engine::{Engine, Info, SearchHandle, SearchRequest, SearchResult};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{oneshot, Notify, Semaphore, SemaphorePermit};

/// The hash table of each engine in the pool.
const HASH_MB: usize = 16;
/// How often background work waiting for a place looks again.
const BACKGROUND_POLL: Duration = Duration::from_millis(50);

pub struct EnginePool {
    size: usize,
    permits: Semaphore,
    /// Turns for study (the analysis board, evaluations): one place fewer than the pool
    /// has, so that a crowd of analyses never holds up the engine's moves in games.
    study_turns: Semaphore,
    /// Engines not in use, kept for their tables' memory.
    idle: Mutex<Vec<Engine>>,
    /// Who waits for a place and which background work holds one, under one lock: a
    /// search of live play and background work never both think a place theirs.
    places: Mutex<Places>,
}

#[derive(Default)]
struct Places {
    /// Searches of live play waiting for a place.
    waiting: usize,
    /// The stop flags of the background work holding places.
    background: Vec<Arc<AtomicBool>>,
}

/// A place in the pool held by background work, until dropped; live play may ask it to
/// stop at any moment (its stop flag), after which its work is to be done again.
pub struct BackgroundPlace<'a> {
    pool: &'a EnginePool,
    stop: Arc<AtomicBool>,
    _permit: SemaphorePermit<'a>,
}

impl BackgroundPlace<'_> {
    /// The flag the background search watches.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Whether live play took the place back while the work ran.
    pub fn was_stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }
}

impl Drop for BackgroundPlace<'_> {
    fn drop(&mut self) {
        self.pool
            .places()
            .background
            .retain(|stop| !Arc::ptr_eq(stop, &self.stop));
    }
}

/// Counts a search of live play as waiting while it lives; when no place is free, one
/// held by background work is asked back.
struct Waiting<'a>(&'a EnginePool);

impl<'a> Waiting<'a> {
    fn new(pool: &'a EnginePool) -> Waiting<'a> {
        let mut places = pool.places();
        places.waiting += 1;
        if pool.permits.available_permits() == 0 {
            let held = places
                .background
                .iter()
                .find(|stop| !stop.load(Ordering::Acquire));
            if let Some(stop) = held {
                stop.store(true, Ordering::Release);
            }
        }
        Waiting(pool)
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.places().waiting -= 1;
    }
}

/// Cancels a search, before it starts or while it runs.
#[derive(Default)]
pub struct Cancel {
    cancelled: AtomicBool,
    notify: Notify,
    stopper: Mutex<Option<loa_engine::Stopper>>,
}

impl Cancel {
    pub fn new() -> Arc<Cancel> {
        Arc::new(Cancel::default())
    }

    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Release);
        self.notify.notify_waiters();
        if let Some(stopper) = self
            .stopper
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            stopper.stop();
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Acquire)
    }

    pub async fn cancelled(&self) {
        let notified = self.notify.notified();
        if self.is_cancelled() {
            return;
        }
        notified.await;
    }
}

impl EnginePool {
    /// A pool running at most `size` searches at once.
    pub fn new(size: usize) -> EnginePool {
        EnginePool {
            size: size.max(1),
            permits: Semaphore::new(size.max(1)),
            study_turns: Semaphore::new(study_places(size)),
            idle: Mutex::new(Vec::new()),
            places: Mutex::new(Places::default()),
        }
    }

    fn places(&self) -> std::sync::MutexGuard<'_, Places> {
        self.places.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many searches run at once.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The places study may hold: all but one (a pool of one place shares it).
    pub fn study_places(&self) -> usize {
        study_places(self.size)
    }

    /// A place for background work, when one is free and no search of live play waits.
    pub async fn background(&self) -> BackgroundPlace<'_> {
        loop {
            {
                let mut places = self.places();
                if places.waiting == 0 {
                    if let Ok(permit) = self.permits.try_acquire() {
                        let stop = Arc::new(AtomicBool::new(false));
                        places.background.push(Arc::clone(&stop));
                        return BackgroundPlace {
                            pool: self,
                            stop,
                            _permit: permit,
                        };
                    }
                }
            }
            tokio::time::sleep(BACKGROUND_POLL).await;
        }
    }

    /// A search for study, as `search`, in one of the places study may hold.
    pub async fn study(
        &self,
        request: SearchRequest,
        on_info: impl FnMut(&Info) + Send + 'static,
        cancel: &Arc<Cancel>,
    ) -> Option<SearchResult> {
        let _turn = tokio::select! {
            turn = self.study_turns.acquire() => turn.ok()?,
            () = cancel.cancelled() => return None,
        };
        self.search(request, on_info, cancel).await
    }

    /// Searches `request` when a place is free. `None` if cancelled first, or if the
    /// search could not run; a search cancelled while running still gives its result.
    pub async fn search(
        &self,
        request: SearchRequest,
        on_info: impl FnMut(&Info) + Send + 'static,
        cancel: &Arc<Cancel>,
    ) -> Option<SearchResult> {
        let waiting = Waiting::new(self);
        let _permit = tokio::select! {
            permit = self.permits.acquire() => permit.ok()?,
            () = cancel.cancelled() => return None,
        };
        drop(waiting);
        if cancel.is_cancelled() {
            return None;
        }
        let mut engine = self
            .idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_else(|| Engine::new(HASH_MB));
        engine.clear();
        let (done_tx, done_rx) = oneshot::channel();
        let handle = SearchHandle::start(engine, request, on_info, move |_| {
            let _ = done_tx.send(());
        })
        .ok()?;
        *cancel.stopper.lock().unwrap_or_else(|e| e.into_inner()) = Some(handle.stopper());
        if cancel.is_cancelled() {
            handle.stop();
        }
        let _ = done_rx.await;
        let (engine, result) = tokio::task::spawn_blocking(move || handle.wait())
            .await
            .ok()
            .flatten()?;
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(engine);
        Some(result)
    }
}

fn study_places(size: usize) -> usize {
    size.max(2) - 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use loa_engine::SearchLimits;
    use std::time::{Duration, Instant};

    fn request(limits: SearchLimits) -> SearchRequest {
        SearchRequest {
            root: loa_core::Position::startpos().into(),
            history: Vec::new(),
            rules: loa_core::RuleSet::Draw,
            limits,
            until_stopped: false,
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn live_play_takes_a_background_place_back() {
        let pool = Arc::new(EnginePool::new(1));
        let place = pool.background().await;
        assert!(!place.was_stopped());
        let live = {
            let pool = Arc::clone(&pool);
            tokio::spawn(async move {
                let limits = SearchLimits {
                    depth: Some(1),
                    ..SearchLimits::default()
                };
                pool.search(request(limits), |_| {}, &Cancel::new()).await
            })
        };
        tokio::time::sleep(Duration::from_millis(100)).await;
        // Asked back; the live search runs once it is given back.
        assert!(place.was_stopped());
        assert!(!live.is_finished());
        drop(place);
        assert!(live.await.unwrap().is_some());
        // Free again: background work takes it, unstopped.
        let again = tokio::time::timeout(Duration::from_secs(2), pool.background())
            .await
            .expect("a free place is taken");
        assert!(!again.was_stopped());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn study_leaves_a_place_to_the_games() {
        let pool = Arc::new(EnginePool::new(2));
        let studies: Vec<_> = (0..3)
            .map(|_| {
                let (pool, cancel) = (Arc::clone(&pool), Cancel::new());
                let task = {
                    let cancel = Arc::clone(&cancel);
                    tokio::spawn(async move {
                        pool.study(request(SearchLimits::default()), |_| {}, &cancel)
                            .await
                    })
                };
                (cancel, task)
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(100)).await;
        // One study runs (the others wait their turn); a game's search runs at once.
        let quick = SearchLimits {
            depth: Some(1),
            ..SearchLimits::default()
        };
        let cancel = Cancel::new();
        let game = pool.search(request(quick), |_| {}, &cancel);
        let answered = tokio::time::timeout(Duration::from_secs(2), game).await;
        assert!(answered.expect("a place is left to games").is_some());
        for (cancel, task) in studies {
            cancel.cancel();
            task.await.unwrap();
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_waiting_search_is_cancelled_and_a_running_one_stopped() {
        let pool = Arc::new(EnginePool::new(1));
        let running = Cancel::new();
        let long = SearchLimits::default();
        let task = {
            let (pool, running) = (Arc::clone(&pool), Arc::clone(&running));
            tokio::spawn(async move { pool.search(request(long), |_| {}, &running).await })
        };
        tokio::time::sleep(Duration::from_millis(100)).await;
        // The only place is taken: this one waits, and is cancelled while waiting.
        let waiting = Cancel::new();
        let waiter = {
            let (pool, waiting) = (Arc::clone(&pool), Arc::clone(&waiting));
            tokio::spawn(async move {
                pool.search(request(SearchLimits::default()), |_| {}, &waiting)
                    .await
            })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        waiting.cancel();
        assert!(waiter.await.unwrap().is_none());
        let asked = Instant::now();
        running.cancel();
        let result = task
            .await
            .unwrap()
            .expect("a stopped search gives its result");
        assert!(result.best.is_some());
        assert!(asked.elapsed() < Duration::from_secs(2));
    }
}
