//! The solver's work that people ask for (a puzzle's other winning move, the explorer's
//! verdicts): one job at a time on each server, so that together they never take more
//! than a core from live games, stopped when the request that asked is dropped; and the
//! answers kept, so that a position is judged once.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

pub struct SolverJobs {
    turn: Arc<tokio::sync::Semaphore>,
}

impl Default for SolverJobs {
    fn default() -> SolverJobs {
        SolverJobs {
            turn: Arc::new(tokio::sync::Semaphore::new(1)),
        }
    }
}

/// Sets the job's stop flag when the request that waits for it is dropped.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl SolverJobs {
    /// Runs `job` on a blocking thread in turn; it is told to stop (its flag set) if the
    /// caller stops waiting. The turn is held until the job ends, stopped or not.
    pub async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce(&AtomicBool) -> T + Send + 'static,
    ) -> anyhow::Result<T> {
        let permit = Arc::clone(&self.turn).acquire_owned().await?;
        let stop = Arc::new(AtomicBool::new(false));
        let _stop_on_drop = StopOnDrop(Arc::clone(&stop));
        let done = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            job(&stop)
        });
        Ok(done.await?)
    }
}

/// Answers kept by key, at most `capacity`: when full, emptied and begun again.
pub struct Kept<V> {
    answers: Mutex<HashMap<String, V>>,
    capacity: usize,
}

impl<V: Clone> Kept<V> {
    pub fn new(capacity: usize) -> Kept<V> {
        Kept {
            answers: Mutex::new(HashMap::new()),
            capacity,
        }
    }

    fn answers(&self) -> std::sync::MutexGuard<'_, HashMap<String, V>> {
        self.answers.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn get(&self, key: &str) -> Option<V> {
        self.answers().get(key).cloned()
    }

    pub fn put(&self, key: String, value: V) {
        let mut answers = self.answers();
        if answers.len() >= self.capacity {
            answers.clear();
        }
        answers.insert(key, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn a_job_runs_in_turn_and_is_stopped_when_its_caller_goes() {
        let jobs = Arc::new(SolverJobs::default());
        assert_eq!(jobs.run(|_| 7).await.unwrap(), 7);
        let (tx, rx) = std::sync::mpsc::channel();
        let waiting = {
            let jobs = Arc::clone(&jobs);
            tokio::spawn(async move {
                jobs.run(move |stop| {
                    while !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    tx.send("stopped").unwrap();
                })
                .await
            })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        waiting.abort();
        let said = tokio::task::spawn_blocking(move || rx.recv_timeout(Duration::from_secs(5)))
            .await
            .unwrap();
        assert_eq!(said, Ok("stopped"));
        // The turn is free again.
        assert_eq!(jobs.run(|_| 8).await.unwrap(), 8);
    }

    #[test]
    fn kept_answers_are_bounded() {
        let kept = Kept::new(2);
        kept.put("a".into(), 1);
        kept.put("b".into(), 2);
        assert_eq!(kept.get("a"), Some(1));
        kept.put("c".into(), 3);
        assert_eq!((kept.get("a"), kept.get("c")), (None, Some(3)));
    }
}
