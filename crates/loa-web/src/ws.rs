//! WebSockets: one per open game, on which the server sends the game's view after every
//! change; the lobby's, a tournament's and a signed-in person's news; and one for
//! analysis, on which the page asks for a position to be searched and hears each
//! iteration as it finishes. Each is refused to another site's page.

use crate::account_news::News;
use crate::api::BlackScore;
use crate::client::ClientNetwork;
use crate::engine_pool::Cancel;
use crate::error::ApiResult;
use crate::hub::Hub;
use crate::line::{LineSpec, Unknown};
use crate::view::MoveView;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use loa_core::proof::Proof;
use loa_core::{Color, Game, GameState, VariantPosition};
use loa_engine::solver::{SolveLimits, Solver, Verdict};
use loa_engine::{Info, SearchLimits, SearchRequest, TimeLimit};
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// How long a person's socket stays open: then it closes, and the page opens it again
/// with whatever still signs the person in (a session that ran out, or news of a
/// sign-out that was lost, keeps a socket no longer).
const ACCOUNT_SOCKET_LIFETIME: Duration = Duration::from_secs(10 * 60);

/// The longest an analysis runs before it stops by itself.
pub const MAX_ANALYSIS: Duration = Duration::from_secs(60);
/// The largest message the page may send.
const MAX_MESSAGE: usize = 64 * 1024;

/// A socket whose messages, and each frame of them, are at most [`MAX_MESSAGE`].
fn limited(upgrade: WebSocketUpgrade) -> WebSocketUpgrade {
    upgrade
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
}

pub async fn game_socket(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    viewer: crate::auth::Viewer,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    let open = hub.open(&id).await?;
    let account = viewer.id();
    if let Some(account) = account {
        crate::mail::game_seen(&hub, &id, account);
    }
    Ok(limited(upgrade).on_upgrade(move |socket| async move {
        let mut updates = hub.watch(&open, account).await;
        let first = {
            let live = open.game.lock().await;
            serde_json::to_string(&live.view(crate::clock::now_ms())).expect("serializable")
        };
        let mut socket = socket;
        if socket.send(Message::Text(first.into())).await.is_ok() {
            loop {
                tokio::select! {
                    update = updates.recv() => match update {
                        Ok(json) => {
                            if socket.send(Message::Text(json.to_string().into())).await.is_err() {
                                break;
                            }
                        }
                        // A slow page missed updates: send the game as it is now.
                        Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                            let json = {
                                let live = open.game.lock().await;
                                serde_json::to_string(&live.view(crate::clock::now_ms()))
                                    .expect("serializable")
                            };
                            if socket.send(Message::Text(json.into())).await.is_err() {
                                break;
                            }
                        }
                        Err(_) => break,
                    },
                    incoming = socket.recv() => match incoming {
                        Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                        Some(Ok(_)) => {}
                    },
                }
            }
        }
        hub.unwatch(&open, &id, account);
        close(&mut socket).await;
    }))
}

/// Ends a socket with a close frame: the answer to the page's own (queued as it was read,
/// sent now; without it the page sees the connection drop), or the server's.
async fn close(socket: &mut WebSocket) {
    // The sink's close, not a close message: once the page has closed, a message is
    // refused, but the sink's close still sends the answer queued.
    let _ = futures_util::SinkExt::close(socket).await;
}

/// What the page asks of the analysis socket.
#[derive(Deserialize)]
struct AnalysisRequest {
    /// The line to the position to analyse: its moves count for repetitions.
    #[serde(flatten)]
    line: LineSpec,
    /// `false` stops the current analysis.
    #[serde(default = "yes")]
    run: bool,
    #[serde(flatten)]
    unknown: Unknown,
}

fn yes() -> bool {
    true
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum AnalysisMessage {
    Info {
        depth: u32,
        score: BlackScore,
        /// The best line, from the position analysed.
        pv: Vec<String>,
        best: Option<MoveView>,
        nodes: u64,
        nps: u64,
        /// The position the line is for, so that the page drops stale lines.
        position: String,
    },
    Done {
        position: String,
    },
    /// The solver, beside the search, proved a side's win.
    Proved {
        position: String,
        winner: &'static str,
        /// The proof's line: the winner's moves and the loser's longest resistance.
        line: Vec<String>,
        /// The proof's longest line, in moves: the win comes within it.
        moves: usize,
    },
    Error {
        error: String,
    },
}

/// The lobby's open seeks, sent whole when the socket opens and after every change.
pub async fn lobby_socket(
    State(hub): State<Arc<Hub>>,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    Ok(limited(upgrade).on_upgrade(move |mut socket| async move {
        let mut changes = hub.lobby.subscribe();
        loop {
            let Ok(seeks) = crate::api::open_seeks(&hub).await else {
                break;
            };
            let json = serde_json::json!({ "seeks": seeks }).to_string();
            if socket.send(Message::Text(json.into())).await.is_err() {
                break;
            }
            tokio::select! {
                change = changes.recv() => match change {
                    // Missed changes are all in the next list.
                    Ok(()) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(_) => break,
                },
                incoming = socket.recv() => match incoming {
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => {}
                },
            }
        }
        close(&mut socket).await;
    }))
}

/// The signed-in person's news: `{"challenges": [...]}` (as `GET /api/challenges`) and
/// `{"waiting": [...]}` (as `GET /api/me/waiting`), each sent at once and again when it
/// changes; closed when the account's sessions are ended or one of its tokens revoked,
/// when news was missed, and after [`ACCOUNT_SOCKET_LIFETIME`].
pub async fn account_socket(
    State(hub): State<Arc<Hub>>,
    viewer: crate::auth::Viewer,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    let account = viewer.required()?.id;
    Ok(limited(upgrade).on_upgrade(move |mut socket| async move {
        let mut news = hub.account_news.follow(account);
        let lifetime = tokio::time::sleep(ACCOUNT_SOCKET_LIFETIME);
        tokio::pin!(lifetime);
        let mut owed = Owed {
            challenges: true,
            waiting: true,
        };
        // When the first open challenge runs out: its players hear of it then.
        let mut expiry = None;
        'news: loop {
            let mut messages = Vec::new();
            if std::mem::take(&mut owed.challenges) {
                let Ok((open, first_expiry)) = crate::api::open_challenges(&hub, account).await
                else {
                    break;
                };
                expiry = first_expiry;
                messages.push(serde_json::json!({ "challenges": open }));
            }
            if std::mem::take(&mut owed.waiting) {
                let Ok(games) = crate::waiting::games_waiting(&hub, account).await else {
                    break;
                };
                messages.push(serde_json::json!({ "waiting": games }));
            }
            for message in messages {
                let text = Message::Text(message.to_string().into());
                if socket.send(text).await.is_err() {
                    break 'news;
                }
            }
            let until_expiry = async {
                match expiry {
                    Some(at) => {
                        let wait =
                            u64::try_from(at.saturating_sub(crate::clock::now_ms())).unwrap_or(0);
                        // A moment after: the challenge is expired when read again.
                        tokio::time::sleep(Duration::from_millis(wait + 1)).await;
                    }
                    None => std::future::pending().await,
                }
            };
            let heard = tokio::select! {
                // Missed news (a sign-out among it, maybe) closes the socket: the page
                // opens it again, signed in or not.
                heard = news.recv() => heard.ok(),
                () = until_expiry => Some(News::Challenges),
                () = &mut lifetime => None,
                incoming = socket.recv() => match incoming {
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => None,
                    Some(Ok(_)) => continue,
                },
            };
            if !heard.is_some_and(|what| owed.note(what)) {
                break;
            }
            // News that came meanwhile is answered with the same lists.
            loop {
                match news.try_recv() {
                    Ok(what) if owed.note(what) => {}
                    Err(tokio::sync::broadcast::error::TryRecvError::Empty) => break,
                    _ => break 'news,
                }
            }
        }
        hub.account_news.leave(account, news);
        close(&mut socket).await;
    }))
}

/// The lists a person's socket owes its page.
struct Owed {
    challenges: bool,
    waiting: bool,
}

impl Owed {
    /// Notes news: `false` when it closes the socket.
    fn note(&mut self, news: News) -> bool {
        match news {
            News::Challenges => self.challenges = true,
            News::Waiting => self.waiting = true,
            News::SignedOut => return false,
        }
        true
    }
}

/// A tournament's view, sent at once and again after each change.
pub async fn tournament_socket(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    // The socket of a tournament that does not exist is refused before the upgrade.
    let _ = crate::api::get_tournament(State(Arc::clone(&hub)), Path(id.clone())).await?;
    Ok(limited(upgrade).on_upgrade(move |mut socket| async move {
        let mut changes = hub.director.changes.subscribe();
        'views: loop {
            let Ok(axum::Json(view)) =
                crate::api::get_tournament(State(Arc::clone(&hub)), Path(id.clone())).await
            else {
                break;
            };
            let json = serde_json::to_string(&view).unwrap_or_default();
            if socket.send(Message::Text(json.into())).await.is_err() {
                break;
            }
            // Until this tournament changes (a missed change is in the next view).
            loop {
                tokio::select! {
                    change = changes.recv() => match change {
                        Ok(changed) if changed != id => continue,
                        Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => break,
                        Err(_) => break 'views,
                    },
                    incoming = socket.recv() => match incoming {
                        Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break 'views,
                        Some(Ok(_)) => continue,
                    },
                }
            }
        }
        close(&mut socket).await;
    }))
}

pub async fn analysis_socket(
    State(hub): State<Arc<Hub>>,
    network: ClientNetwork,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    Ok(limited(upgrade).on_upgrade(move |socket| analysis_session(hub, network, socket)))
}

async fn analysis_session(hub: Arc<Hub>, network: ClientNetwork, mut socket: WebSocket) {
    let (tx, mut rx) = mpsc::unbounded_channel::<AnalysisMessage>();
    let mut current: Option<Arc<Cancel>> = None;
    loop {
        tokio::select! {
            outgoing = rx.recv() => {
                let Some(message) = outgoing else { break };
                let json = serde_json::to_string(&message).expect("serializable");
                if socket.send(Message::Text(json.into())).await.is_err() {
                    break;
                }
            }
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                };
                if let Some(cancel) = current.take() {
                    cancel.cancel();
                }
                match serde_json::from_str::<AnalysisRequest>(&text) {
                    Err(e) => {
                        let _ = tx.send(AnalysisMessage::Error { error: format!("bad request: {e}") });
                    }
                    Ok(request) if !request.run => {}
                    Ok(request) => match start_analysis(&hub, &network, request, tx.clone()) {
                        Ok(cancel) => current = Some(cancel),
                        Err(error) => {
                            let _ = tx.send(AnalysisMessage::Error { error });
                        }
                    },
                }
            }
        }
    }
    // The page went away: its search stops.
    if let Some(cancel) = current {
        cancel.cancel();
    }
    close(&mut socket).await;
}

fn start_analysis(
    hub: &Arc<Hub>,
    network: &ClientNetwork,
    request: AnalysisRequest,
    tx: mpsc::UnboundedSender<AnalysisMessage>,
) -> Result<Arc<Cancel>, String> {
    request.unknown.refuse()?;
    let line = request.line.check()?;
    let game = &line.game;
    if let Some(outcome) = game.outcome() {
        return Err(format!("the game is over here: {outcome}"));
    }
    let root = *game.position();
    let position = root.to_string();
    let to_move = root.side_to_move();
    let limits = SearchLimits {
        time: Some(TimeLimit::Fixed(MAX_ANALYSIS)),
        ..SearchLimits::default()
    };
    let search = SearchRequest::for_game(game, limits);
    let cancel = Cancel::new();
    prove_beside(hub, game.clone(), tx.clone(), Arc::clone(&cancel));
    let (hub, task_cancel) = (Arc::clone(hub), Arc::clone(&cancel));
    let info_tx = tx.clone();
    let info_position = position.clone();
    let network = network.clone();
    tokio::spawn(async move {
        // The client's own turn first: many boards of one client wait for each other.
        let _client_turn = tokio::select! {
            turn = hub.client_studies.take(&network) => turn,
            () = task_cancel.cancelled() => return,
        };
        let on_info = move |info: &Info| {
            let nps = (info.nodes as f64 / info.time.as_secs_f64().max(1e-3)) as u64;
            let pv = info.pv.iter().map(|mv| mv.to_string()).collect();
            let _ = info_tx.send(AnalysisMessage::Info {
                depth: info.depth,
                score: BlackScore::new(info.score, to_move),
                best: info.pv.first().map(|&mv| MoveView::of(mv)),
                pv,
                nodes: info.nodes,
                nps,
                position: info_position.clone(),
            });
        };
        let _ = hub.pool.study(search, on_info, &task_cancel).await;
        if !task_cancel.is_cancelled() {
            let _ = tx.send(AnalysisMessage::Done { position });
        }
    });
    Ok(cancel)
}

/// The solver's budget beside an analysis: a forced win near enough to show, without
/// holding the server's turn for solver work (the explorer's verdicts wait for it) long.
const SOLVER_BESIDE_ANALYSIS: SolveLimits = SolveLimits {
    time: Some(Duration::from_secs(3)),
    nodes: Some(1_500_000),
};

/// Runs the solver on the analysed position, in the server's turn for solver work, and
/// sends what it proves; a new request (the analysis cancelled) stops it.
fn prove_beside(
    hub: &Arc<Hub>,
    game: Game<VariantPosition>,
    tx: mpsc::UnboundedSender<AnalysisMessage>,
    cancel: Arc<Cancel>,
) {
    let hub = Arc::clone(hub);
    tokio::spawn(async move {
        let position = game.position().to_string();
        let side = game.position().side_to_move();
        let job = move |stop: &AtomicBool| -> Option<(Color, Proof)> {
            let mut solver = Solver::new(16, game.rules(), SOLVER_BESIDE_ANALYSIS, stop).ok()?;
            let solution = solver.solve(game.position(), &game.previous_hashes());
            let winner = match solution.verdict {
                Verdict::Win => side,
                Verdict::Loss => !side,
                Verdict::Draw | Verdict::Unknown => return None,
            };
            Some((winner, solution.proof?))
        };
        let proved = tokio::select! {
            proved = hub.solver_jobs.run(job) => proved,
            () = cancel.cancelled() => return,
        };
        let Ok(Some((winner, proof))) = proved else {
            return;
        };
        let (Some(line), Some(moves)) = (proof.main_line(), proof.longest_line()) else {
            return;
        };
        let winner = if winner == Color::Black {
            "black"
        } else {
            "white"
        };
        let _ = tx.send(AnalysisMessage::Proved {
            position,
            winner,
            line,
            moves,
        });
    });
}
