//! One game between two engines, refereed move by move.

use super::adjudication::{Adjudication, ResignTracker};
use super::{GameResult, Seat, Termination};
use crate::matches::engine_process::{EngineError, EngineProcess};
use crate::matches::engine_spec::Limits;
use crate::matches::openings::Opening;
use crate::matches::time_control::{Clock, Spent};
use loa_core::{Color, Game, MoveText, Position, RuleSet};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// What every game of a match shares.
pub struct GameSettings<'a> {
    pub rules: RuleSet,
    /// Time an engine may go over its clock (or its movetime) without losing.
    pub margin_ms: u64,
    /// The wait for a reply with no clock (depth or node limits), and for handshakes.
    pub timeout: Duration,
    pub adjudication: Adjudication,
    /// Set to abandon the game at the next move.
    pub stop: &'a AtomicBool,
}

/// Plays `opening` with `black` and `white` (seats of two different engines). `None`
/// if the game was abandoned because the match is stopping.
pub fn play_game(
    opening: &Opening,
    black: &mut Seat,
    white: &mut Seat,
    settings: &GameSettings,
) -> Option<GameResult> {
    let mut game = opening.game(settings.rules);
    let lose = |game: Game, loser: Color, termination: Termination| {
        Some(GameResult {
            game,
            winner: Some(!loser),
            termination,
        })
    };
    // Both engines get ready first (started or restarted as needed).
    for (color, seat) in [(Color::Black, &mut *black), (Color::White, &mut *white)] {
        if let Err(error) = ready(seat, settings) {
            seat.discard();
            return lose(game, color, failure(error));
        }
    }
    let limits = [black.spec.limits, white.spec.limits];
    let mut clocks = limits.map(|l| l.tc.map(Clock::new));
    let mut resign = settings.adjudication.resign.map(ResignTracker::new);
    let mut position_command = if game.start() == &Position::startpos() {
        "position startpos moves".to_string()
    } else {
        format!("position fen {} moves", game.start())
    };
    for mv in game.moves() {
        let _ = write!(position_command, " {}", mv.coordinate());
    }
    loop {
        if let Some(outcome) = game.outcome() {
            return Some(GameResult {
                game,
                winner: outcome.winner,
                termination: Termination::Rules(outcome.reason),
            });
        }
        if let Some(moves) = settings.adjudication.draw_after {
            if game.ply() >= moves {
                return Some(GameResult {
                    game,
                    winner: None,
                    termination: Termination::DrawAdjudication { moves },
                });
            }
        }
        if settings.stop.load(Ordering::Relaxed) {
            return None;
        }
        let side = game.position().side_to_move();
        let seat = match side {
            Color::Black => &mut *black,
            Color::White => &mut *white,
        };
        let own = limits[side.index()];
        // `ready` started both engines; this only starts one again if it is gone.
        let engine = match seat.engine(settings.rules, settings.timeout) {
            Ok(engine) => engine,
            Err(error) => {
                seat.discard();
                return lose(game, side, failure(error));
            }
        };
        let go = go_command(own, &clocks, side, engine.is_uci());
        let sent = match engine.go(&position_command, &go) {
            Ok(at) => at,
            Err(error) => {
                seat.discard();
                return lose(game, side, failure(error));
            }
        };
        // The latest the reply may come.
        let clock = clocks[side.index()];
        let mut wait = match clock {
            Some(clock) => clock.deadline(settings.margin_ms),
            None => settings.timeout,
        };
        if let Some(ms) = own.movetime_ms {
            wait = wait.min(Duration::from_millis(ms + settings.margin_ms));
        }
        let timed = clock.is_some() || own.movetime_ms.is_some();
        let best = match engine.wait_bestmove(sent + wait) {
            Ok(best) => best,
            Err(EngineError::Timeout(_)) => {
                let grace = settings.timeout.min(Duration::from_secs(1));
                if !engine.stop_search(grace) {
                    seat.discard();
                }
                let termination = if timed {
                    Termination::TimeForfeit {
                        used_ms: None,
                        allowed_ms: wait.as_millis() as u64,
                    }
                } else {
                    Termination::Hang {
                        waited_ms: wait.as_millis() as u64,
                    }
                };
                return lose(game, side, termination);
            }
            Err(error) => {
                seat.discard();
                return lose(game, side, failure(error));
            }
        };
        let elapsed = best.at.saturating_duration_since(sent);
        let used_ms = elapsed.as_millis() as u64;
        let forfeit = Termination::TimeForfeit {
            used_ms: Some(used_ms),
            allowed_ms: wait.as_millis() as u64,
        };
        if let Some(clock) = clocks[side.index()].as_mut() {
            if clock.spend(elapsed, settings.margin_ms) == Spent::Forfeit {
                return lose(game, side, forfeit);
            }
        }
        if own
            .movetime_ms
            .is_some_and(|ms| used_ms > ms + settings.margin_ms)
        {
            return lose(game, side, forfeit);
        }
        let Some(text) = best.text.as_deref().filter(|t| *t != "(none)") else {
            return lose(game, side, Termination::Malformed { line: best.line });
        };
        if MoveText::parse(text).is_err() {
            return lose(game, side, Termination::Malformed { line: best.line });
        }
        let mv = match game.position().parse_move(text) {
            Ok(mv) => mv,
            Err(error) => {
                return lose(
                    game,
                    side,
                    Termination::IllegalMove {
                        text: text.to_string(),
                        why: error.to_string(),
                    },
                )
            }
        };
        game.play(mv).expect("parse_move checked the move");
        let _ = write!(position_command, " {}", mv.coordinate());
        if let Some(tracker) = resign.as_mut() {
            if let Some(loser) = tracker.update(side, best.score.map(|s| s.as_cp())) {
                if !game.is_over() {
                    let rule = settings.adjudication.resign.expect("tracker has a rule");
                    return lose(
                        game,
                        loser,
                        Termination::Resignation {
                            count: rule.count,
                            score: rule.score,
                        },
                    );
                }
            }
        }
    }
}

/// Starts the engine if needed and tells it a new game starts.
fn ready(seat: &mut Seat, settings: &GameSettings) -> Result<(), EngineError> {
    let engine: &mut EngineProcess = seat.engine(settings.rules, settings.timeout)?;
    engine.new_game(settings.timeout)
}

/// A process that exited is a crash; anything else a failure to start or get ready.
fn failure(error: EngineError) -> Termination {
    match error {
        EngineError::Exited(how) => Termination::Crash { how },
        other => Termination::StartFailure {
            error: other.to_string(),
        },
    }
}

/// `go` with the mover's limits: the clocks (in UGI's `p1time`/`p2time` form, Black
/// being p1, and in the `btime`/`wtime` form; UCI engines get only the latter), then
/// `movetime`, `depth`, `nodes`. A mover without a clock of its own (its opponent may
/// have one) gets no clock at all.
pub fn go_command(limits: Limits, clocks: &[Option<Clock>; 2], mover: Color, uci: bool) -> String {
    let mut go = String::from("go");
    let [black, white] = if clocks[mover.index()].is_some() {
        clocks
    } else {
        &[None, None]
    };
    if !uci {
        if let Some(c) = black {
            let _ = write!(go, " p1time {} p1inc {}", c.remaining_ms, c.increment_ms);
        }
        if let Some(c) = white {
            let _ = write!(go, " p2time {} p2inc {}", c.remaining_ms, c.increment_ms);
        }
    }
    if let Some(c) = black {
        let _ = write!(go, " btime {} binc {}", c.remaining_ms, c.increment_ms);
    }
    if let Some(c) = white {
        let _ = write!(go, " wtime {} winc {}", c.remaining_ms, c.increment_ms);
    }
    if let Some(ms) = limits.movetime_ms {
        let _ = write!(go, " movetime {ms}");
    }
    if let Some(depth) = limits.depth {
        let _ = write!(go, " depth {depth}");
    }
    if let Some(nodes) = limits.nodes {
        let _ = write!(go, " nodes {nodes}");
    }
    go
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::time_control::TimeControl;

    #[test]
    fn go_commands_carry_every_limit() {
        let tc = TimeControl {
            base_ms: 10_000,
            increment_ms: 100,
        };
        let clocks = [Some(Clock::new(tc)), Some(Clock::new(tc))];
        let limits = Limits {
            tc: Some(tc),
            depth: Some(6),
            ..Limits::default()
        };
        assert_eq!(
            go_command(limits, &clocks, Color::Black, false),
            "go p1time 10000 p1inc 100 p2time 10000 p2inc 100 btime 10000 binc 100 wtime 10000 winc 100 depth 6"
        );
        assert_eq!(
            go_command(limits, &clocks, Color::White, true),
            "go btime 10000 binc 100 wtime 10000 winc 100 depth 6"
        );
        let fixed = Limits {
            movetime_ms: Some(50),
            nodes: Some(1000),
            ..Limits::default()
        };
        assert_eq!(
            go_command(fixed, &[None, Some(Clock::new(tc))], Color::Black, false),
            "go movetime 50 nodes 1000",
            "Black has no clock of its own"
        );
    }
}
