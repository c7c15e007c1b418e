//! One game, played on a thread of its own with an engine process of its own: the game
//! followed on its socket (reconnected after a drop), the engine asked for a move
//! whenever it is the bot's turn, the move posted with the ply it answers.

use super::client::{ApiError, ClockView, Control, GameSocket, GameView, Liveness};
use super::{Backoff, Shared};
use crate::engine_process::{EngineError, EngineProcess};
use crate::engine_spec::MoveLimits;
use loa_core::{Color, Game, GameState, RuleSet, Variant, VariantPosition};
use loa_ugi::{Command, Go, Start};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Taken off the bot's clock for each move: the trip of the view to the bot and of the
/// move back.
const LATENCY: Duration = Duration::from_millis(100);
/// How far past its time the engine may answer before it is asked to stop.
const GRACE: Duration = Duration::from_secs(2);
/// The wait for a move searched to a depth or node count with no clock to bound it.
const UNTIMED_WAIT: Duration = Duration::from_secs(600);
/// Refusals of a move at one ply (stale, not its turn) before the bot gives the game up.
const MAX_CONFLICTS: usize = 3;

/// What a game's setting is, read once.
struct Setting {
    id: String,
    /// The bot's place: `black`, `white` (or `black2`, `white2`).
    you: String,
    side: Color,
    variant: Variant,
    rules: RuleSet,
    start: VariantPosition,
}

/// What became of a view.
enum Next {
    /// The game goes on.
    Wait,
    /// The game is over (said), or the bot stops playing it.
    Leave,
}

/// How reading a game's socket ended.
enum Listened {
    /// The game is over, or the bot stops.
    Over,
    /// The connection was lost, after a view was read or before any.
    Lost { heard: bool },
}

/// Why the engine gave no move.
enum NoMove {
    /// Ctrl-C: leave the game as it is.
    Stopped,
    /// The engine failed: why, in words; the game is resigned.
    Failed(String),
}

/// Plays the game `id` to its end (or until the bot stops); `fresh` for a game just
/// accepted, else one taken up in progress.
pub(super) fn play(shared: &Shared, id: &str, fresh: bool) {
    let log = &shared.log;
    let Some(view) = read_game(shared, id) else {
        return;
    };
    if view.result.is_some() {
        return;
    }
    if !view.started {
        // A seat joins with its token, which the bot's account does not have for a
        // game it did not accept (a rematch the other player asked for).
        log.event(&format!(
            "game {id}: not taken up: it has not started (a seat to be joined)"
        ));
        return;
    }
    let setting = match Setting::of(&view) {
        Ok(setting) => setting,
        Err(why) => {
            log.event(&format!("game {id}: not played: {why}"));
            return;
        }
    };
    let opponent = view.names[(!setting.side).index()]
        .clone()
        .unwrap_or_else(|| "Anonymous".to_string());
    let clock = view
        .clock
        .as_ref()
        .map_or_else(|| "no clock".to_string(), |c| c.control.to_string());
    let how = if fresh {
        "started".to_string()
    } else {
        format!("taken up at ply {}", view.ply)
    };
    log.event(&format!(
        "game {id}: {how}, {} against {opponent} ({}, {clock}{})",
        setting.you,
        setting.variant.name(),
        if view.rated { ", rated" } else { "" }
    ));
    let mut player = Player {
        shared,
        setting,
        engine: None,
        answered: None,
        conflicts: 0,
    };
    if let Err(why) = player.engine() {
        log.event(&format!(
            "game {id}: the engine did not start ({why}): resigning"
        ));
        player.resign();
        return;
    }
    player.follow();
}

/// The game's view as the account sees it (its place in `you`), waiting out an outage.
fn read_game(shared: &Shared, id: &str) -> Option<GameView> {
    let mut backoff = Backoff::new();
    loop {
        match shared.client.game(id) {
            Ok(view) => return Some(view),
            Err(ApiError::Unreachable(_)) => {
                if !backoff.wait(&shared.stop) {
                    return None;
                }
            }
            Err(e) => {
                shared.log.event(&format!("game {id}: cannot be read: {e}"));
                return None;
            }
        }
    }
}

impl Setting {
    fn of(view: &GameView) -> Result<Setting, String> {
        let you = view
            .you
            .clone()
            .ok_or_else(|| "the account has no seat in it".to_string())?;
        if !view.online {
            return Err("it is not an online game".to_string());
        }
        let side = if you.starts_with("black") {
            Color::Black
        } else {
            Color::White
        };
        let variant: Variant = view.variant.parse().map_err(|e| format!("{e}"))?;
        let rules: RuleSet = view.rules.parse().map_err(|e| format!("{e}"))?;
        let start = VariantPosition::parse(variant, &view.start)
            .map_err(|e| format!("its start '{}': {e}", view.start))?;
        Ok(Setting {
            id: view.id.clone(),
            you,
            side,
            variant,
            rules,
            start,
        })
    }
}

/// The bot's side of one game.
struct Player<'a> {
    shared: &'a Shared,
    setting: Setting,
    engine: Option<EngineProcess>,
    /// The ply the bot has moved at: views of it or before ask nothing more.
    answered: Option<usize>,
    /// Moves refused (stale, not its turn) at the ply now to play.
    conflicts: usize,
}

impl Player<'_> {
    fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
    }

    /// The engine, started for this game's variant and rules if it is not running.
    fn engine(&mut self) -> Result<&mut EngineProcess, EngineError> {
        if self.engine.is_none() {
            let timeout = self.shared.timeout;
            let mut engine = EngineProcess::start(
                &self.shared.spec,
                self.setting.rules,
                self.setting.variant,
                timeout,
            )?;
            engine.new_game(timeout)?;
            self.engine = Some(engine);
        }
        Ok(self.engine.as_mut().expect("started above"))
    }

    /// Follows the game on its socket, reconnecting after a drop, until it ends or the
    /// bot stops.
    fn follow(&mut self) {
        let mut backoff = Backoff::new();
        while !self.stopped() {
            let mut socket = match self.shared.client.socket(&self.setting.id) {
                Ok(socket) => socket,
                Err(ApiError::Status { status: 404, .. }) => {
                    self.say("is gone from the server");
                    return;
                }
                Err(e) => {
                    self.shared
                        .log
                        .protocol(&format!("game {}: socket: {e}", self.setting.id));
                    if !backoff.wait(&self.shared.stop) {
                        break;
                    }
                    continue;
                }
            };
            let listened = self.listen(&mut socket, &mut backoff);
            socket.close();
            match listened {
                Listened::Over => break,
                Listened::Lost { heard: true } => {}
                // A socket that sent no view it could read is not opened again at once.
                Listened::Lost { heard: false } => {
                    if !backoff.wait(&self.shared.stop) {
                        break;
                    }
                }
            }
        }
        if let Some(engine) = self.engine.take() {
            engine.quit(Duration::from_millis(200));
        }
    }

    /// Reads the socket until the game ends (or the bot stops) or the connection is lost;
    /// the backoff starts again once a view is read.
    fn listen(&mut self, socket: &mut GameSocket, backoff: &mut Backoff) -> Listened {
        let mut liveness = Liveness::new();
        let mut heard = false;
        while !self.stopped() {
            match socket.next_alive(&mut liveness) {
                Ok(Some(view)) => {
                    heard = true;
                    backoff.reset();
                    if let Next::Leave = self.on_view(view, Instant::now()) {
                        return Listened::Over;
                    }
                }
                Ok(None) => {}
                Err(why) => {
                    self.shared.log.protocol(&format!(
                        "game {}: socket lost: {why}: reconnecting",
                        self.setting.id
                    ));
                    return Listened::Lost { heard };
                }
            }
        }
        Listened::Over
    }

    fn say(&self, what: &str) {
        self.shared
            .log
            .event(&format!("game {}: {what}", self.setting.id));
    }

    /// Answers a view: the game's end, or the bot's move when it is its turn.
    fn on_view(&mut self, view: GameView, received: Instant) -> Next {
        if let Some(outcome) = &view.result {
            let verdict = match outcome.winner.as_deref() {
                // Called off before both sides had moved: no result at all.
                None if outcome.result == "*" => "no result",
                None => "a draw",
                Some(winner) if winner == self.setting.side.id() => "won",
                Some(_) => "lost",
            };
            self.say(&format!(
                "over, {} by {}: {verdict} after {} moves",
                outcome.result,
                outcome.reason,
                view.moves.len()
            ));
            return Next::Leave;
        }
        let to_move = view.to_move_slot.as_deref() == Some(self.setting.you.as_str());
        if !view.started || !to_move || self.answered.is_some_and(|ply| view.ply <= ply) {
            return Next::Wait;
        }
        let mut game = Game::new(self.setting.start, self.setting.rules);
        for text in &view.moves {
            if let Err(e) = game.play_text(text) {
                self.say(&format!(
                    "cannot follow the server's move '{text}' ({e}): resigning"
                ));
                return self.resign();
            }
        }
        let chosen = self.think(&game, view.clock.as_ref(), received);
        let (mv, took, score) = match chosen {
            Ok(chosen) => chosen,
            Err(NoMove::Stopped) => return Next::Leave,
            Err(NoMove::Failed(why)) => {
                self.engine = None;
                self.say(&format!("{why}: resigning"));
                return self.resign();
            }
        };
        self.post(&mv.to_string(), view.ply, took, score)
    }

    /// The engine's move in `game`: the move, the time it took, its score.
    fn think(
        &mut self,
        game: &Game<VariantPosition>,
        clock: Option<&ClockView>,
        received: Instant,
    ) -> Result<(loa_core::Move, Duration, Option<String>), NoMove> {
        let start = if Variant::of_start(game.start()) == Some(self.setting.variant)
            && game.start().size() == loa_core::BoardSize::Eight
        {
            Start::StartPos
        } else {
            Start::Fen(game.start().to_string())
        };
        let position = Command::Position {
            start,
            moves: game.moves().map(|mv| mv.coordinate()).collect(),
        };
        let side = game.position().side_to_move();
        let limits = self.shared.spec.limits;
        let (go, wait) = go_for(clock, side, limits, received.elapsed(), self.shared.think);
        let stop = self.shared.stop.clone();
        let log = self.shared.log.clone();
        let id = self.setting.id.clone();
        let engine = self
            .engine()
            .map_err(|e| NoMove::Failed(format!("the engine did not start again ({e})")))?;
        log.protocol(&format!("game {id}: engine < {position}"));
        log.protocol(&format!("game {id}: engine < {go}"));
        let failed = |e: EngineError| NoMove::Failed(format!("the engine failed ({e})"));
        let sent = engine.go(&position, &go).map_err(failed)?;
        let deadline = sent + wait;
        let best = loop {
            if stop.load(Ordering::Relaxed) {
                return Err(NoMove::Stopped);
            }
            let slice = (Instant::now() + Duration::from_millis(100)).min(deadline);
            match engine.wait_bestmove(slice) {
                Ok(best) => break best,
                Err(EngineError::Timeout(_)) if Instant::now() < deadline => {}
                Err(EngineError::Timeout(_)) => {
                    // Over its time: ask for the move it has.
                    engine.send(&[Command::Stop]).map_err(failed)?;
                    match engine.wait_bestmove(Instant::now() + GRACE) {
                        Ok(best) => break best,
                        Err(e) => {
                            return Err(NoMove::Failed(format!(
                                "the engine gave no move in {} s ({e})",
                                wait.as_secs()
                            )))
                        }
                    }
                }
                Err(e) => return Err(failed(e)),
            }
        };
        self.accept(game, best, sent)
    }

    /// Checks the engine's `bestmove` against the rules.
    fn accept(
        &self,
        game: &Game<VariantPosition>,
        best: crate::engine_process::BestMove,
        sent: Instant,
    ) -> Result<(loa_core::Move, Duration, Option<String>), NoMove> {
        self.shared
            .log
            .protocol(&format!("game {}: engine > {}", self.setting.id, best.line));
        let took = best.at.saturating_duration_since(sent);
        let Some(text) = best.text.as_deref().filter(|t| *t != "(none)") else {
            return Err(NoMove::Failed(format!(
                "the engine answered '{}' with no move",
                best.line
            )));
        };
        match game.position().parse_move(text) {
            Ok(mv) => Ok((mv, took, best.score.map(|s| s.to_string()))),
            Err(e) => Err(NoMove::Failed(format!(
                "the engine played an illegal move '{}' ({e})",
                loa_core::excerpt(text)
            ))),
        }
    }

    /// Posts the move chosen at `ply`, waiting out an outage.
    fn post(&mut self, mv: &str, ply: usize, took: Duration, score: Option<String>) -> Next {
        let mut backoff = Backoff::new();
        loop {
            match self.shared.client.play(&self.setting.id, mv, ply) {
                Ok(view) => {
                    self.answered = Some(ply);
                    self.conflicts = 0;
                    self.say(&format!(
                        "ply {} {mv} in {:.2} s{}",
                        ply + 1,
                        took.as_secs_f64(),
                        score.map(|s| format!(" ({s})")).unwrap_or_default()
                    ));
                    return self.on_view(view, Instant::now());
                }
                // No answer, or the server failed (and changed nothing): the same move
                // again, after a wait.
                Err(ApiError::Unreachable(_)) | Err(ApiError::Status { status: 500.., .. }) => {
                    if !backoff.wait(&self.shared.stop) {
                        return Next::Leave;
                    }
                }
                Err(ApiError::Status {
                    status: 400,
                    message,
                }) => {
                    self.say(&format!(
                        "the server refused {mv} as illegal ({message}): resigning"
                    ));
                    return self.resign();
                }
                Err(ApiError::Status {
                    status: 401 | 404,
                    message,
                }) => {
                    self.say(&format!("cannot play {mv}: {message}"));
                    return Next::Leave;
                }
                Err(e) => {
                    // The game moved on (an answer lost in an outage, a resignation, a
                    // flag): the game as it is now says what to do.
                    self.shared
                        .log
                        .protocol(&format!("game {}: {mv} refused: {e}", self.setting.id));
                    self.conflicts += 1;
                    if self.conflicts >= MAX_CONFLICTS {
                        self.say(&format!(
                            "{mv} refused {MAX_CONFLICTS} times ({e}): resigning"
                        ));
                        return self.resign();
                    }
                    return match self.shared.client.game(&self.setting.id) {
                        Ok(view) => self.on_view(view, Instant::now()),
                        Err(_) => Next::Wait,
                    };
                }
            }
        }
    }

    /// Resigns the game and says how it ended.
    fn resign(&mut self) -> Next {
        self.engine = None;
        let mut backoff = Backoff::new();
        loop {
            match self.shared.client.resign(&self.setting.id) {
                Ok(view) => {
                    self.answered = Some(usize::MAX);
                    return self.on_view(view, Instant::now());
                }
                Err(ApiError::Unreachable(_)) => {
                    if !backoff.wait(&self.shared.stop) {
                        return Next::Leave;
                    }
                }
                Err(e) => {
                    self.say(&format!("cannot resign: {e}"));
                    return Next::Leave;
                }
            }
        }
    }
}

/// `go` for the side to move, and how long to wait for its answer: a live clock's times
/// (the mover's less the time since the view came and [`LATENCY`]), else a fixed time
/// (`think`, within a correspondence move's time); the engine's own limits beside.
fn go_for(
    clock: Option<&ClockView>,
    mover: Color,
    limits: MoveLimits,
    waited: Duration,
    think: Duration,
) -> (Go, Duration) {
    let mut go = Go {
        move_time: limits.move_time,
        depth: limits.depth,
        nodes: limits.nodes,
        ..Go::default()
    };
    let ms = Duration::from_millis;
    let left = clock.map(|c| match mover {
        Color::Black => ms(c.black_ms),
        Color::White => ms(c.white_ms),
    });
    match clock.map(|c| c.control) {
        Some(Control::Live { increment_s, .. }) => {
            let clock = clock.expect("a live control has a clock");
            let mut times = [ms(clock.black_ms), ms(clock.white_ms)];
            let own = &mut times[mover.index()];
            *own = own.saturating_sub(waited + LATENCY).max(ms(1));
            let wait = times[mover.index()];
            go.time = times.map(Some);
            go.increment = [Some(Duration::from_secs(increment_s)); 2];
            let wait = limits.move_time.map_or(wait, |t| t.min(wait));
            (go, wait + GRACE)
        }
        _ => {
            // Correspondence, or no clock: a fixed time, unless the engine's own limits
            // bound the search.
            let mut time = limits.move_time;
            if time.is_none() && limits.depth.is_none() && limits.nodes.is_none() {
                time = Some(think);
            }
            if let (Some(t), Some(left)) = (time, left) {
                time = Some(t.min(left / 2).max(ms(1)));
            }
            go.move_time = time;
            let wait = match (time, left) {
                (Some(t), _) => t,
                (None, Some(left)) => (left / 2).min(UNTIMED_WAIT),
                (None, None) => UNTIMED_WAIT,
            };
            (go, wait + GRACE)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loa_ugi::Dialect;

    fn clock(control: Control, black_ms: u64, white_ms: u64) -> ClockView {
        ClockView {
            control,
            black_ms,
            white_ms,
        }
    }

    const NONE: MoveLimits = MoveLimits {
        tc: None,
        move_time: None,
        depth: None,
        nodes: None,
    };

    #[test]
    fn a_live_clock_goes_to_the_engine_less_the_time_since_the_view() {
        let live = clock(
            Control::Live {
                initial_s: 60,
                increment_s: 1,
            },
            59_000,
            60_000,
        );
        let (go, wait) = go_for(
            Some(&live),
            Color::White,
            NONE,
            Duration::from_millis(400),
            Duration::from_secs(10),
        );
        assert_eq!(
            go.line(Dialect::Uci),
            "go btime 59000 binc 1000 wtime 59500 winc 1000"
        );
        assert_eq!(wait, Duration::from_millis(59_500) + GRACE);
    }

    #[test]
    fn correspondence_thinks_a_fixed_time_within_the_move_time() {
        let days = clock(Control::Correspondence { days: 1 }, 86_400_000, 86_400_000);
        let think = Duration::from_secs(10);
        let (go, wait) = go_for(Some(&days), Color::Black, NONE, Duration::ZERO, think);
        assert_eq!(go.to_string(), "go movetime 10000");
        assert_eq!(wait, think + GRACE);
        let deep = MoveLimits {
            depth: Some(5),
            ..NONE
        };
        let (go, _) = go_for(Some(&days), Color::Black, deep, Duration::ZERO, think);
        assert_eq!(
            go.to_string(),
            "go depth 5",
            "the engine's limit replaces the time"
        );
        let late = clock(Control::Correspondence { days: 1 }, 4_000, 86_400_000);
        let (go, _) = go_for(Some(&late), Color::Black, NONE, Duration::ZERO, think);
        assert_eq!(go.to_string(), "go movetime 2000", "half of what is left");
        let (go, _) = go_for(None, Color::White, NONE, Duration::ZERO, think);
        assert_eq!(go.to_string(), "go movetime 10000");
    }
}
