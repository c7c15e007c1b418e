//! Running the games: `concurrency` worker threads take games from the schedule, each
//! with its own engine processes; the calling thread counts results, writes records,
//! shows progress and stops the match when the SPRT decides.

use super::engine_spec::EngineSpec;
use super::openings::{Opening, OpeningSource};
use super::records::{make_record, RecordWriter};
use super::referee::adjudication::Adjudication;
use super::referee::game::{play_game, GameSettings};
use super::referee::{GameResult, Seat};
use super::report::{game_line, status_line, SprtState};
use super::schedule::{Fixture, Schedule};
use super::sprt::{Decision, Sprt};
use super::standings::Standings;
use crate::Progress;
use anyhow::Result;
use loa_core::{RuleSet, Variant};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Everything a match needs to run.
pub struct Plan {
    pub specs: Vec<Arc<EngineSpec>>,
    pub schedule: Schedule,
    pub openings: OpeningSource,
    pub concurrency: usize,
    pub rules: RuleSet,
    pub variant: Variant,
    pub margin: Duration,
    pub timeout: Duration,
    pub adjudication: Adjudication,
    pub sprt: Option<Sprt>,
    pub event: String,
    pub date: String,
}

/// How a match went.
pub struct Finished {
    pub standings: Standings,
    pub sprt: Option<SprtState>,
    pub elapsed: Duration,
    /// Games under way when the match stopped, not counted.
    pub abandoned: u64,
}

/// What a worker reports.
struct Done {
    fixture: Fixture,
    /// The opening and the game (`None` when abandoned), or why there is no opening.
    game: Result<(Opening, Option<GameResult>), String>,
}

pub fn run(plan: Plan, records: &mut RecordWriter, progress: &dyn Progress) -> Result<Finished> {
    let names: Vec<String> = plan.specs.iter().map(|s| s.name.clone()).collect();
    let mut standings = Standings::new(names.clone(), plan.schedule.pairings());
    let mut sprt_state = plan.sprt.map(|sprt| SprtState {
        sprt,
        llr: 0.0,
        decision: Decision::Continue,
    });
    let workers = match plan.schedule.total() {
        Some(total) => plan.concurrency.min(total.max(1) as usize),
        None => plan.concurrency,
    }
    .max(1);
    let schedule = Mutex::new(plan.schedule);
    let stop = AtomicBool::new(false);
    let settings = GameSettings {
        rules: plan.rules,
        variant: plan.variant,
        margin: plan.margin,
        timeout: plan.timeout,
        adjudication: plan.adjudication,
        stop: &stop,
    };
    let started = Instant::now();
    let mut abandoned = 0;
    let mut failure: Option<anyhow::Error> = None;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Done>();
        for w in 0..workers {
            let tx = tx.clone();
            let (schedule, stop, settings, specs, openings) =
                (&schedule, &stop, &settings, &plan.specs, &plan.openings);
            std::thread::Builder::new()
                .name(format!("match worker {w}"))
                .spawn_scoped(scope, move || {
                    worker(schedule, stop, settings, specs, openings, tx);
                })
                .expect("a worker thread");
        }
        drop(tx);
        for done in rx {
            let counted =
                failure.is_none() && sprt_state.is_none_or(|s| s.decision == Decision::Continue);
            let (opening, result) = match &done.game {
                Ok((opening, result)) => (opening, result.as_ref()),
                Err(message) => {
                    stop.store(true, Ordering::Relaxed);
                    failure.get_or_insert(anyhow::anyhow!("{message}"));
                    abandoned += 1;
                    continue;
                }
            };
            let record = match (result, counted) {
                (Some(result), true) => {
                    let pair_done = standings.record(&done.fixture, result);
                    if let Some(state) = sprt_state.as_mut() {
                        if pair_done && done.fixture.pairing == 0 {
                            state.llr = state.sprt.llr(&standings.pairings[0].penta);
                            state.decision = state.sprt.decide(state.llr);
                            if state.decision != Decision::Continue {
                                stop.store(true, Ordering::Relaxed);
                            }
                        }
                    }
                    progress.game_finished(
                        &game_line(&done.fixture, &names, result),
                        &status_line(&standings, sprt_state.as_ref()),
                    );
                    Some(make_record(
                        &plan.event,
                        &plan.date,
                        &done.fixture,
                        opening,
                        result,
                        &plan.specs[done.fixture.black],
                        &plan.specs[done.fixture.white],
                    ))
                }
                _ => {
                    abandoned += 1;
                    None
                }
            };
            if let Err(e) = records.add(done.fixture.number, record) {
                stop.store(true, Ordering::Relaxed);
                failure.get_or_insert(e);
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    records.finish()?;
    Ok(Finished {
        standings,
        sprt: sprt_state,
        elapsed: started.elapsed(),
        abandoned,
    })
}

fn worker(
    schedule: &Mutex<Schedule>,
    stop: &AtomicBool,
    settings: &GameSettings<'_>,
    specs: &[Arc<EngineSpec>],
    openings: &OpeningSource,
    tx: mpsc::Sender<Done>,
) {
    let mut seats: Vec<Seat> = specs.iter().map(|s| Seat::new(Arc::clone(s))).collect();
    loop {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let fixture = schedule
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .next_fixture();
        let Some(fixture) = fixture else { break };
        let game = openings.get(fixture.round).map(|opening| {
            let (black, white) = two_seats(&mut seats, fixture.black, fixture.white);
            let result = play_game(&opening, black, white, settings);
            (opening, result)
        });
        let failed = game.is_err();
        if tx.send(Done { fixture, game }).is_err() || failed {
            break;
        }
    }
    for seat in &mut seats {
        seat.quit();
    }
}

/// Two different seats at once.
fn two_seats(seats: &mut [Seat], i: usize, j: usize) -> (&mut Seat, &mut Seat) {
    assert_ne!(i, j, "an engine does not play itself");
    if i < j {
        let (left, right) = seats.split_at_mut(j);
        (&mut left[i], &mut right[0])
    } else {
        let (left, right) = seats.split_at_mut(i);
        (&mut right[0], &mut left[j])
    }
}
