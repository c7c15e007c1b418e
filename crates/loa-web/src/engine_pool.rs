//! The engine in the server: searches run through a bounded pool, no more at once than
//! the machine has cores; the rest wait their turn. Each search is bounded in time by its
//! limits and can be cancelled at any moment, waiting or running.

use loa_engine::{Engine, Info, SearchHandle, SearchRequest, SearchResult};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{oneshot, Notify, Semaphore};

/// The hash table of each engine in the pool.
const HASH_MB: usize = 16;

pub struct EnginePool {
    permits: Semaphore,
    /// Engines not in use, kept for their tables' memory.
    idle: Mutex<Vec<Engine>>,
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

    async fn cancelled(&self) {
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
            permits: Semaphore::new(size.max(1)),
            idle: Mutex::new(Vec::new()),
        }
    }

    /// Searches `request` when a place is free. `None` if cancelled first, or if the
    /// search could not run; a search cancelled while running still gives its result.
    pub async fn search(
        &self,
        request: SearchRequest,
        on_info: impl FnMut(&Info) + Send + 'static,
        cancel: &Arc<Cancel>,
    ) -> Option<SearchResult> {
        let _permit = tokio::select! {
            permit = self.permits.acquire() => permit.ok()?,
            () = cancel.cancelled() => return None,
        };
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
