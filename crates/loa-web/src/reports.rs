//! Game reports on the site: which games get one, what the API gives, and the workers
//! that make them. A report searches every position of a finished game at a fixed
//! budget through the engine pool's background places, which live play takes back at
//! once (see `EnginePool::background`), so reports never slow a game being played.

use crate::clock::now_ms;
use crate::game::LiveGame;
use crate::hub::Hub;
use loa_core::{Color, Game, Move, VariantPosition};
use loa_engine::report::{search_position, GameReport, Searched, Slip};
use loa_engine::Engine;
use serde::Serialize;
use std::sync::Arc;
use std::time::Duration;

/// The fewest moves a game needs to be reported on when it ends: a game abandoned at
/// its first moves says nothing.
const MIN_PLIES: usize = 4;
/// A report whose worker has said nothing for this long is taken over by another (its
/// server stopped).
const LEASE_MS: i64 = 120_000;
/// How often a worker renews its claim on the report it makes.
const RENEW_EVERY: Duration = Duration::from_secs(30);
/// How often an idle worker looks for reports queued by another server.
const IDLE_POLL: Duration = Duration::from_secs(5);
/// The table of each worker's engine.
const HASH_MB: usize = 16;

/// Whether a game that has just ended gets a report.
pub fn worth_reporting(live: &LiveGame) -> bool {
    live.is_over() && live.game.ply() >= MIN_PLIES
}

/// A finished report, as `GET /api/games/{id}/report` gives it.
#[derive(Debug, Serialize)]
pub struct ReportBody {
    /// The nodes searched in each position.
    pub nodes: u64,
    pub accuracy: Sides<Option<f64>>,
    pub inaccuracies: Sides<usize>,
    pub mistakes: Sides<usize>,
    pub blunders: Sides<usize>,
    /// Every position, the start first: Black's expected score (0 to 1), the
    /// evaluation for Black as records write it, the engine's move.
    pub positions: Vec<PositionBody>,
    pub moves: Vec<MoveBody>,
}

#[derive(Debug, Serialize)]
pub struct Sides<T> {
    pub black: T,
    pub white: T,
}

#[derive(Debug, Serialize)]
pub struct PositionBody {
    pub black: f64,
    pub eval: String,
    pub best: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct MoveBody {
    pub ply: usize,
    /// `black` or `white`.
    pub side: &'static str,
    pub played: String,
    /// `inaccuracy`, `mistake`, `blunder` or none.
    pub judgement: Option<&'static str>,
    pub better: Option<String>,
    /// A forced win before the move, none after.
    pub lost_win: bool,
    /// The mover's expected score given away, 0 to 1.
    pub loss: f64,
    pub accuracy: f64,
    /// The move's comment in the game's record.
    pub comment: String,
}

impl ReportBody {
    pub fn of(report: &GameReport, nodes: u64) -> ReportBody {
        let sides = |f: &dyn Fn(Color) -> usize| Sides {
            black: f(Color::Black),
            white: f(Color::White),
        };
        ReportBody {
            nodes,
            accuracy: Sides {
                black: report.accuracy(Color::Black).map(tenths),
                white: report.accuracy(Color::White).map(tenths),
            },
            inaccuracies: sides(&|side| report.count(side, Slip::Inaccuracy)),
            mistakes: sides(&|side| report.count(side, Slip::Mistake)),
            blunders: sides(&|side| report.count(side, Slip::Blunder)),
            positions: report
                .positions
                .iter()
                .map(|p| PositionBody {
                    black: thousandths(p.expected(Color::Black)),
                    eval: p.for_black(),
                    best: p.line.first().map(Move::to_string),
                })
                .collect(),
            moves: report
                .moves
                .iter()
                .map(|m| MoveBody {
                    ply: m.ply,
                    side: match m.side {
                        Color::Black => "black",
                        Color::White => "white",
                    },
                    played: m.played.to_string(),
                    judgement: m.slip.map(Slip::name),
                    better: m.better.map(|b| b.to_string()),
                    lost_win: m.lost_win,
                    loss: thousandths(m.loss()),
                    accuracy: tenths(m.accuracy),
                    comment: report.comment(m.ply),
                })
                .collect(),
        }
    }
}

fn tenths(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn thousandths(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Starts `count` workers (one per place in the engine pool), searching `nodes` nodes in
/// each position.
pub fn start_workers(hub: &Arc<Hub>, count: usize, nodes: u64) {
    let hub = Arc::clone(hub);
    tokio::spawn(async move {
        if let Err(err) = hub.store.release_reports().await {
            tracing::warn!("reports left from before: {err}");
        }
        for _ in 0..count.max(1) {
            tokio::spawn(work(Arc::clone(&hub), nodes));
        }
    });
}

async fn work(hub: Arc<Hub>, nodes: u64) {
    // This worker's name on the reports it claims: its word counts only while the
    // report is still its own.
    let claimant = crate::ids::random_name();
    loop {
        let now = now_ms();
        match hub.store.claim_report(&claimant, now, now - LEASE_MS).await {
            Ok(Some(id)) => {
                // Renewed while the report is made, searches and waits for places alike.
                let renewer = {
                    let (hub, id, claimant) = (Arc::clone(&hub), id.clone(), claimant.clone());
                    tokio::spawn(async move {
                        loop {
                            tokio::time::sleep(RENEW_EVERY).await;
                            let renewed = hub.store.report_progress(&id, &claimant, None, now_ms());
                            if !matches!(renewed.await, Ok(true)) {
                                break;
                            }
                        }
                    })
                };
                let made = make(&hub, &id, &claimant, nodes).await;
                renewer.abort();
                match made {
                    Ok(()) => {}
                    Err(Failed::Game(err)) => {
                        // The game itself is at fault: trying again would fail again.
                        tracing::warn!("the report of game {id} cannot be made: {err}");
                        let failed = hub.store.fail_report(&id, &claimant, &err, now_ms());
                        if let Err(err) = failed.await {
                            tracing::warn!("the report of game {id}: {err}");
                        }
                    }
                    // The database or the machine: another try after the lease.
                    Err(Failed::Server(err)) => {
                        tracing::warn!("the report of game {id}: {err}");
                        tokio::time::sleep(IDLE_POLL).await;
                    }
                }
            }
            Ok(None) => {
                let _ = tokio::time::timeout(IDLE_POLL, hub.reports_queued.notified()).await;
            }
            Err(err) => {
                tracing::warn!("looking for reports to make: {err}");
                tokio::time::sleep(IDLE_POLL).await;
            }
        }
    }
}

/// Why a report was not made.
enum Failed {
    /// The game cannot be read or replayed.
    Game(String),
    /// The database or the machine failed.
    Server(anyhow::Error),
}

impl<E: Into<anyhow::Error>> From<E> for Failed {
    fn from(err: E) -> Failed {
        Failed::Server(err.into())
    }
}

/// Makes one game's report and keeps it, unless another worker took it over.
async fn make(hub: &Arc<Hub>, id: &str, claimant: &str, nodes: u64) -> Result<(), Failed> {
    let stored = hub.store.load(id).await.map_err(|e| {
        if e.is_damaged_row() {
            Failed::Game(e.to_string())
        } else {
            Failed::Server(e.into())
        }
    })?;
    let stored = stored.ok_or_else(|| Failed::Game("no such game".to_string()))?;
    let live = LiveGame::restore(stored).map_err(Failed::Game)?;
    let game = live.game;
    let moves: Vec<Move> = game.moves().collect();
    let total = moves.len() + 1;
    // The engine lives as long as the report: idle workers hold no table.
    let mut engine = Engine::new(HASH_MB);
    let mut replay = Game::new(*game.start(), game.rules());
    let mut positions = Vec::with_capacity(total);
    for i in 0..total {
        let progress = Some((i, total));
        if !hub
            .store
            .report_progress(id, claimant, progress, now_ms())
            .await?
        {
            return Ok(());
        }
        let (back, searched) = search_in_background(hub, engine, &replay, nodes).await?;
        engine = back;
        positions.push(searched);
        if let Some(&mv) = moves.get(i) {
            replay.play(mv).map_err(|e| Failed::Game(e.to_string()))?;
        }
    }
    let report = GameReport::judge(positions, &moves);
    let body = serde_json::to_string(&ReportBody::of(&report, nodes))?;
    hub.store
        .finish_report(id, claimant, &body, now_ms())
        .await?;
    Ok(())
}

/// Searches one position in a background place of the pool, again from the start when
/// live play took the place back.
async fn search_in_background(
    hub: &Arc<Hub>,
    mut engine: Engine,
    position: &Game<VariantPosition>,
    nodes: u64,
) -> Result<(Engine, Searched), Failed> {
    loop {
        let place = hub.pool.background().await;
        let stop = place.stop_flag();
        let game = position.clone();
        let (tx, rx) = tokio::sync::oneshot::channel();
        std::thread::Builder::new()
            .name("report".to_string())
            // Deep recursion: a ply of the search holds a move list on the stack.
            .stack_size(64 << 20)
            .spawn(move || {
                let searched = search_position(&mut engine, &game, nodes, &stop);
                let _ = tx.send((engine, searched));
            })?;
        // A search that panicked: this game's positions are at fault.
        let (back, searched) = rx
            .await
            .map_err(|_| Failed::Game("the search of a position failed".to_string()))?;
        engine = back;
        if !place.was_stopped() {
            return Ok((engine, searched));
        }
    }
}
