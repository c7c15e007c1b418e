//! A search on its own thread, for front ends that must go on while it runs: the engine
//! protocol, the terminal game, a web server. It is started, stopped and waited for, and
//! it reports each finished iteration as a typed [`Info`] as it goes.

use crate::{Engine, Info, SearchLimits, SearchResult};
use loa_core::{Game, RuleSet, VariantPosition};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// What to search.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    /// The position to search, of any variant.
    pub root: VariantPosition,
    /// The hashes of the game's positions before the root, oldest first.
    pub history: Vec<u64>,
    /// Which simultaneous-connection rule the game is played under.
    pub rules: RuleSet,
    pub limits: SearchLimits,
    /// Hold the result until [`SearchHandle::stop`], even when the search ends sooner
    /// (the protocol's `go infinite`).
    pub until_stopped: bool,
}

impl SearchRequest {
    /// The game's position, with its history and rules, searched within `limits`.
    pub fn for_game(game: &Game<VariantPosition>, limits: SearchLimits) -> SearchRequest {
        SearchRequest {
            root: *game.position(),
            history: game.previous_hashes(),
            rules: game.rules(),
            limits,
            until_stopped: false,
        }
    }
}

/// A running search. The thread owns the engine and gives it back with the result.
pub struct SearchHandle {
    thread: JoinHandle<(Engine, SearchResult)>,
    stop: Arc<AtomicBool>,
    /// Set just before `on_done` is called.
    done: Arc<AtomicBool>,
}

impl SearchHandle {
    /// Starts searching. `on_info` hears of every finished iteration on the search
    /// thread; `on_done` gets the result there before the thread ends. If the thread
    /// cannot be started the engine is lost with it.
    pub fn start(
        mut engine: Engine,
        request: SearchRequest,
        mut on_info: impl FnMut(&Info) + Send + 'static,
        on_done: impl FnOnce(&SearchResult) + Send + 'static,
    ) -> std::io::Result<SearchHandle> {
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let (thread_stop, thread_done) = (Arc::clone(&stop), Arc::clone(&done));
        let thread = std::thread::Builder::new()
            .name("search".to_string())
            // Deep recursion: a ply of the search holds a move list on the stack.
            .stack_size(64 << 20)
            .spawn(move || {
                let result = engine.search_any(&request, &thread_stop, &mut on_info);
                if request.until_stopped {
                    while !thread_stop.load(Ordering::Acquire) {
                        std::thread::park_timeout(Duration::from_millis(20));
                    }
                }
                thread_done.store(true, Ordering::Release);
                on_done(&result);
                (engine, result)
            })?;
        Ok(SearchHandle { thread, stop, done })
    }

    /// Asks the search to end now; it still delivers its result.
    pub fn stop(&self) {
        self.stopper().stop();
    }

    /// Something that can stop the search from another thread.
    pub fn stopper(&self) -> Stopper {
        Stopper {
            flag: Arc::clone(&self.stop),
            thread: self.thread.thread().clone(),
        }
    }

    /// Whether the result has been delivered (or the thread is gone).
    pub fn is_finished(&self) -> bool {
        self.done.load(Ordering::Acquire) || self.thread.is_finished()
    }

    /// Waits for the end: the engine back and the result, or `None` if the thread died.
    pub fn wait(self) -> Option<(Engine, SearchResult)> {
        self.thread.join().ok()
    }
}

/// Stops a search from anywhere, and may outlive it.
#[derive(Clone)]
pub struct Stopper {
    flag: Arc<AtomicBool>,
    thread: std::thread::Thread,
}

impl Stopper {
    pub fn stop(&self) {
        self.flag.store(true, Ordering::Release);
        self.thread.unpark();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Instant;

    fn request(limits: SearchLimits, until_stopped: bool) -> SearchRequest {
        SearchRequest {
            root: loa_core::Position::startpos().into(),
            history: Vec::new(),
            rules: RuleSet::Draw,
            limits,
            until_stopped,
        }
    }

    #[test]
    fn reports_each_iteration_then_the_result() {
        let (tx, rx) = mpsc::channel();
        let (done_tx, done_rx) = mpsc::channel();
        let limits = SearchLimits {
            depth: Some(4),
            ..SearchLimits::default()
        };
        let handle = SearchHandle::start(
            Engine::new(1),
            request(limits, false),
            move |info| tx.send(info.clone()).unwrap(),
            move |result| done_tx.send(result.best).unwrap(),
        )
        .unwrap();
        let (_engine, result) = handle.wait().unwrap();
        let depths: Vec<u32> = rx.iter().map(|info| info.depth).collect();
        assert_eq!(depths, [1, 2, 3, 4]);
        assert_eq!(done_rx.recv().unwrap(), result.best);
        assert!(result.best.is_some());
    }

    #[test]
    fn an_unlimited_search_ends_on_stop() {
        let handle = SearchHandle::start(
            Engine::new(1),
            request(SearchLimits::default(), true),
            |_| {},
            |_| {},
        )
        .unwrap();
        std::thread::sleep(Duration::from_millis(50));
        assert!(!handle.is_finished());
        let asked = Instant::now();
        handle.stop();
        let (_, result) = handle.wait().unwrap();
        assert!(asked.elapsed() < Duration::from_secs(1));
        assert!(result.best.is_some());
    }
}
