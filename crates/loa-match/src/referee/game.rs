//! One game between two engines, refereed move by move.

use super::adjudication::{Adjudication, ResignTracker};
use super::{GameResult, Seat, Termination};
use crate::engine_process::{EngineError, EngineProcess};
use crate::engine_spec::MoveLimits;
use crate::openings::Opening;
use crate::time_control::{GameClock, Spent};
use loa_core::{Color, Game, GameState, RuleSet, TurnText, Variant, VariantPosition};
use loa_ugi::{Command, Go, Start};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// What every game of a match shares.
pub struct GameSettings<'a> {
    pub rules: RuleSet,
    pub variant: Variant,
    /// Time an engine may go over its clock (or its movetime) without losing.
    pub margin: Duration,
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
    settings: &GameSettings<'_>,
) -> Option<GameResult> {
    let mut game = opening.game(settings.rules);
    let lose = |game: Game<VariantPosition>, loser: Color, termination: Termination| {
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
    let mut clocks = limits.map(|l| l.tc.map(GameClock::new));
    let mut resign = settings.adjudication.resign.map(ResignTracker::new);
    // `startpos` is the variant's start, which the engines were told (`UCI_Variant`).
    let named = Variant::of_start(game.start()) == Some(settings.variant);
    let start = if named && game.start().size() == loa_core::BoardSize::Eight {
        Start::StartPos
    } else {
        Start::Fen(game.start().to_string())
    };
    let mut moves: Vec<String> = game.moves().map(|mv| mv.coordinate()).collect();
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
        let engine = match seat.engine(settings.rules, settings.variant, settings.timeout) {
            Ok(engine) => engine,
            Err(error) => {
                seat.discard();
                return lose(game, side, failure(error));
            }
        };
        let go = go_command(own, &clocks, side);
        let position = Command::Position {
            start: start.clone(),
            moves: moves.clone(),
        };
        let sent = match engine.go(&position, &go) {
            Ok(at) => at,
            Err(error) => {
                seat.discard();
                return lose(game, side, failure(error));
            }
        };
        // The latest the reply may come.
        let clock = clocks[side.index()];
        let mut wait = match clock {
            Some(clock) => clock.deadline(settings.margin),
            None => settings.timeout,
        };
        if let Some(time) = own.move_time {
            wait = wait.min(time + settings.margin);
        }
        let timed = clock.is_some() || own.move_time.is_some();
        let best = match engine.wait_bestmove(sent + wait) {
            Ok(best) => best,
            Err(EngineError::Timeout(_)) => {
                let grace = settings.timeout.min(Duration::from_secs(1));
                if !engine.stop_search(grace) {
                    seat.discard();
                }
                let termination = if timed {
                    Termination::TimeForfeit {
                        used: None,
                        allowed: wait,
                    }
                } else {
                    Termination::Hang { waited: wait }
                };
                return lose(game, side, termination);
            }
            Err(error) => {
                seat.discard();
                return lose(game, side, failure(error));
            }
        };
        let elapsed = best.at.saturating_duration_since(sent);
        let forfeit = Termination::TimeForfeit {
            used: Some(elapsed),
            allowed: wait,
        };
        if let Some(clock) = clocks[side.index()].as_mut() {
            if clock.spend(elapsed, settings.margin) == Spent::Forfeit {
                return lose(game, side, forfeit);
            }
        }
        if own
            .move_time
            .is_some_and(|time| elapsed > time + settings.margin)
        {
            return lose(game, side, forfeit);
        }
        let Some(text) = best.text.as_deref().filter(|t| *t != "(none)") else {
            return lose(game, side, Termination::Malformed { line: best.line });
        };
        if TurnText::parse(text).is_err() {
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
        moves.push(mv.coordinate());
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
fn ready(seat: &mut Seat, settings: &GameSettings<'_>) -> Result<(), EngineError> {
    let engine: &mut EngineProcess =
        seat.engine(settings.rules, settings.variant, settings.timeout)?;
    engine.new_game(settings.timeout)
}

/// A process that exited is a crash, a line too long a malformed reply; anything else a
/// failure to start or get ready.
fn failure(error: EngineError) -> Termination {
    match error {
        EngineError::Exited(how) => Termination::Crash { how },
        EngineError::LineTooLong => Termination::LineTooLong,
        other => Termination::StartFailure {
            error: other.to_string(),
        },
    }
}

/// `go` with the mover's limits: both clocks (the engine's dialect decides how they are
/// written), then the move time, depth and nodes. A mover without a clock of its own
/// (its opponent may have one) gets no clock at all.
pub fn go_command(limits: MoveLimits, clocks: &[Option<GameClock>; 2], mover: Color) -> Go {
    let mut go = Go {
        move_time: limits.move_time,
        depth: limits.depth,
        nodes: limits.nodes,
        ..Go::default()
    };
    if clocks[mover.index()].is_some() {
        for (i, clock) in clocks.iter().enumerate() {
            if let Some(clock) = clock {
                go.time[i] = Some(clock.remaining);
                go.increment[i] = Some(clock.increment);
            }
        }
    }
    go
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time_control::TimeControl;
    use loa_ugi::Dialect;

    #[test]
    fn go_commands_carry_every_limit() {
        let tc = TimeControl {
            base: Duration::from_millis(10_000),
            increment: Duration::from_millis(100),
        };
        let clocks = [Some(GameClock::new(tc)), Some(GameClock::new(tc))];
        let limits = MoveLimits {
            tc: Some(tc),
            depth: Some(6),
            ..MoveLimits::default()
        };
        assert_eq!(
            go_command(limits, &clocks, Color::Black).line(Dialect::Ugi),
            "go p1time 10000 p1inc 100 p2time 10000 p2inc 100 btime 10000 binc 100 wtime 10000 winc 100 depth 6"
        );
        assert_eq!(
            go_command(limits, &clocks, Color::White).line(Dialect::Uci),
            "go btime 10000 binc 100 wtime 10000 winc 100 depth 6"
        );
        let fixed = MoveLimits {
            move_time: Some(Duration::from_millis(50)),
            nodes: Some(1000),
            ..MoveLimits::default()
        };
        assert_eq!(
            go_command(fixed, &[None, Some(GameClock::new(tc))], Color::Black).to_string(),
            "go movetime 50 nodes 1000",
            "Black has no clock of its own"
        );
    }
}
