//! Work that runs on its own thread while commands are still read: a search (`go`) or a
//! count (`perft`). `stop` and `quit` end either at once.

use super::go::Request;
use super::{write_line, Out};
use loa_core::perft::divide_until;
use loa_core::Position;
use loa_engine::{Engine, Info};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// A thread doing a command's work. A search thread hands the engine back when it ends.
pub(super) struct Job {
    handle: JoinHandle<Option<Engine>>,
    stop: Arc<AtomicBool>,
    /// Set (under the output lock) just before the last line is written.
    done: Arc<AtomicBool>,
}

impl Job {
    /// Searches `root`; the thread prints `info` lines and then `bestmove`. On failure
    /// the engine is lost with the thread that could not start, and the caller makes a
    /// new one.
    pub fn search(
        mut engine: Engine,
        root: Position,
        history: Vec<u64>,
        request: Request,
        out: Out,
    ) -> Result<Job, String> {
        Job::spawn("search", move |stop, done| {
            let result = engine.search(&root, &history, &request.limits, stop, |info| {
                out.line(&info_line(info))
            });
            if request.infinite {
                while !stop.load(Ordering::Acquire) {
                    std::thread::park_timeout(Duration::from_millis(20));
                }
            }
            let best = match result.best {
                Some(mv) if root.is_legal(mv) => mv.coordinate(),
                Some(mv) => {
                    // Never send an illegal move: fall back on the first legal one.
                    out.line(&format!(
                        "info string the search returned {} which is not legal here",
                        mv.coordinate()
                    ));
                    root.legal_moves()[0].coordinate()
                }
                None => "(none)".to_string(),
            };
            let mut writer = out.lock();
            done.store(true, Ordering::Release);
            write_line(&mut **writer, &format!("bestmove {best}"));
            drop(writer);
            Some(engine)
        })
        .map_err(|e| format!("go: cannot start the search thread: {e}"))
    }

    /// Counts move sequences from `root`: the count under each move, then the total; or,
    /// when stopped, a line that says so.
    pub fn perft(root: Position, depth: u32, out: Out) -> Result<Job, String> {
        Job::spawn("perft", move |stop, done| {
            let lines = match divide_until(&root, depth, stop) {
                Some(split) => {
                    let total: u64 = split.iter().map(|(_, n)| n).sum();
                    let mut lines: Vec<String> = split
                        .iter()
                        .map(|(mv, count)| format!("{}: {count}", mv.coordinate()))
                        .collect();
                    lines.push(total.to_string());
                    lines
                }
                None => vec![format!("info string perft {depth} stopped")],
            };
            let mut writer = out.lock();
            done.store(true, Ordering::Release);
            for line in lines {
                write_line(&mut **writer, &line);
            }
            None
        })
        .map_err(|e| format!("perft: cannot start the counting thread: {e}"))
    }

    fn spawn(
        name: &str,
        work: impl FnOnce(&AtomicBool, &AtomicBool) -> Option<Engine> + Send + 'static,
    ) -> std::io::Result<Job> {
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let (thread_stop, thread_done) = (Arc::clone(&stop), Arc::clone(&done));
        let handle = std::thread::Builder::new()
            .name(name.to_string())
            .stack_size(64 << 20)
            .spawn(move || work(&thread_stop, &thread_done))?;
        Ok(Job { handle, stop, done })
    }

    /// Whether the last line has been written (or the thread is gone).
    pub fn is_finished(&self) -> bool {
        self.done.load(Ordering::Acquire) || self.handle.is_finished()
    }

    /// Asks the work to end now; a search still prints `bestmove`.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
        self.handle.thread().unpark();
    }

    /// Waits for the thread; a search gives its engine back (`None` if the thread died).
    pub fn join(self) -> Option<Engine> {
        self.handle.join().ok().flatten()
    }
}

/// `info depth .. seldepth .. score .. nodes .. nps .. time .. hashfull .. pv ..`
fn info_line(info: &Info) -> String {
    let micros = info.time.as_micros().max(1);
    let nps = u128::from(info.nodes) * 1_000_000 / micros;
    let mut line = format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth,
        info.score,
        info.nodes,
        nps,
        info.time.as_millis(),
        info.hashfull
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for mv in &info.pv {
            line.push(' ');
            line.push_str(&mv.coordinate());
        }
    }
    line
}
