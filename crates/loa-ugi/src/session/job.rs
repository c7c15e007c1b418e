//! Work that runs on its own thread while commands are still read: a search (`go`) or a
//! count (`perft`). `stop` and `quit` end either at once.

use super::Out;
use crate::{InfoLine, ProtocolError, Response};
use loa_core::perft::divide_until;
use loa_core::{GameState, Move, VariantPosition};
use loa_engine::{Engine, SearchHandle, SearchRequest};
use rand::rngs::ChaCha8Rng;
use rand::seq::IndexedRandom;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

pub(super) enum Job {
    Search(SearchHandle),
    Perft {
        thread: JoinHandle<()>,
        stop: Arc<AtomicBool>,
        /// Set (under the output lock) just before the last line is written.
        done: Arc<AtomicBool>,
    },
}

impl Job {
    /// Searches; the thread prints `info` lines and then `bestmove`.
    pub fn search(engine: Engine, request: SearchRequest, out: Out) -> Result<Job, ProtocolError> {
        let root = request.root;
        let info_out = out.clone();
        SearchHandle::start(
            engine,
            request,
            move |info| info_out.send(&Response::Info(InfoLine::from(info))),
            move |result| {
                let best = match result.best {
                    Some(mv) if root.is_legal(mv) => Some(mv),
                    Some(mv) => {
                        // Never send an illegal move: fall back on the first legal one.
                        out.send(&Response::InfoString(format!(
                            "the search returned {} which is not legal here",
                            mv.coordinate()
                        )));
                        root.moves().first().copied()
                    }
                    None => None,
                };
                out.send(&Response::BestMove(best.map(|mv| mv.coordinate())));
            },
        )
        .map(Job::Search)
        .map_err(|e| ProtocolError::new(format!("go: cannot start the search thread: {e}")))
    }

    /// Counts move sequences from `root`: the count under each move, then the total; or,
    /// when stopped, a line that says so.
    pub fn perft(root: VariantPosition, depth: u32, out: Out) -> Result<Job, ProtocolError> {
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let (thread_stop, thread_done) = (Arc::clone(&stop), Arc::clone(&done));
        let thread = std::thread::Builder::new()
            .name("perft".to_string())
            .spawn(move || {
                let lines = match divide_until(&root, depth, &thread_stop) {
                    Some(split) => {
                        let total: u64 = split.iter().map(|(_, n)| n).sum();
                        let mut lines: Vec<String> = split
                            .iter()
                            .map(|(mv, count)| format!("{}: {count}", mv.coordinate()))
                            .collect();
                        lines.push(total.to_string());
                        lines
                    }
                    None => {
                        vec![Response::InfoString(format!("perft {depth} stopped")).to_string()]
                    }
                };
                let mut writer = out.lock();
                thread_done.store(true, Ordering::Release);
                for line in lines {
                    super::write_line(&mut **writer, &line);
                }
            })
            .map_err(|e| {
                ProtocolError::new(format!("perft: cannot start the counting thread: {e}"))
            })?;
        Ok(Job::Perft { thread, stop, done })
    }

    /// Whether the last line has been written (or the thread is gone).
    pub fn is_finished(&self) -> bool {
        match self {
            Job::Search(handle) => handle.is_finished(),
            Job::Perft { thread, done, .. } => done.load(Ordering::Acquire) || thread.is_finished(),
        }
    }

    /// Asks the work to end now; a search still prints `bestmove`.
    pub fn stop(&self) {
        match self {
            Job::Search(handle) => handle.stop(),
            Job::Perft { stop, .. } => stop.store(true, Ordering::Release),
        }
    }

    /// Waits for the thread; a search gives its engine back (`None` if the thread died).
    pub fn join(self) -> Option<Engine> {
        match self {
            Job::Search(handle) => handle.wait().map(|(engine, _)| engine),
            Job::Perft { thread, .. } => {
                let _ = thread.join();
                None
            }
        }
    }
}

/// A legal move drawn at random (the `RandomMoves` option).
pub(super) fn random_move(pos: &VariantPosition, rng: &mut ChaCha8Rng) -> Move {
    let moves = pos.moves();
    *moves.choose(rng).expect("a game that goes on has a move")
}
