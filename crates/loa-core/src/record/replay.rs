//! Playing a record's moves under its rules, and checking its result against the board.

use super::{moves, GameRecord, RecordResult};
use crate::{Color, Game, GameState, Move, MoveError, Outcome, VariantPosition};
use std::fmt;

/// Why a record's moves cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// A move that cannot be played where it stands.
    #[error("move {number} ({side}, ply {ply}) {mv}: {error}")]
    Illegal {
        /// 1-based index in the record's moves.
        ply: usize,
        /// The move number as PGN counts it (one per Black move).
        number: usize,
        side: Color,
        /// The move as the record has it.
        mv: Move,
        /// The position before the move.
        position: Box<VariantPosition>,
        error: MoveError,
    },
    /// The game was over before this move.
    #[error("move {number} ({side}, ply {ply}) {mv}: the game was already over {}: {outcome}",
        ended_when(*.ended_after, .position))]
    AfterEnd {
        ply: usize,
        number: usize,
        side: Color,
        mv: Move,
        /// The final position, where the game ended.
        position: Box<VariantPosition>,
        outcome: Outcome,
        /// How many moves had been played when it ended (0: the start was already over).
        ended_after: usize,
    },
}

fn ended_when(plies: usize, position: &VariantPosition) -> String {
    if plies == 0 {
        "at the start".to_string()
    } else {
        // The side that made the last move is the one not to move now.
        let mover = !position.side_to_move();
        let first = if plies % 2 == 1 { mover } else { !mover };
        format!("after {}", moves::label(first, plies - 1))
    }
}

impl ReplayError {
    /// 1-based index of the bad move in the record.
    pub fn ply(&self) -> usize {
        match self {
            ReplayError::Illegal { ply, .. } | ReplayError::AfterEnd { ply, .. } => *ply,
        }
    }

    /// The position where the replay stopped: before the illegal move, or where the game
    /// ended.
    pub fn position(&self) -> &VariantPosition {
        match self {
            ReplayError::Illegal { position, .. } | ReplayError::AfterEnd { position, .. } => {
                position
            }
        }
    }
}

/// How the recorded result compares with the board after the last move.
///
/// Only [`ResultCheck::Mismatch`] is a warning: a game may end before the board decides it
/// (resignation, time forfeit, adjudication), and a record may leave out a result the
/// board shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultCheck {
    /// The game ended on the board and the record gives the same result.
    Agrees(Outcome),
    /// The game is not over on the board and the record gives a result: it ended some
    /// other way (see the record's termination).
    OffTheBoard(RecordResult),
    /// The game is not over and the record gives no result.
    Unfinished,
    /// The game ended on the board but the record says `*`.
    Unrecorded(Outcome),
    /// The game ended on the board with another result than the record's.
    Mismatch {
        recorded: RecordResult,
        outcome: Outcome,
    },
}

impl ResultCheck {
    pub fn new(recorded: RecordResult, outcome: Option<Outcome>) -> ResultCheck {
        match (outcome, recorded) {
            (None, RecordResult::Unknown) => ResultCheck::Unfinished,
            (None, r) => ResultCheck::OffTheBoard(r),
            (Some(o), RecordResult::Unknown) => ResultCheck::Unrecorded(o),
            (Some(o), r) if r.matches(o) => ResultCheck::Agrees(o),
            (Some(o), r) => ResultCheck::Mismatch {
                recorded: r,
                outcome: o,
            },
        }
    }

    /// The result with its cause, given the record's `termination`: the board's outcome
    /// when the game ended on the board, otherwise the record's result and termination.
    pub fn summary(&self, termination: Option<&str>) -> String {
        let why = termination.map(|t| format!(" ({t})")).unwrap_or_default();
        match *self {
            ResultCheck::Agrees(o) => format!("{} {o}", o.score_text()),
            ResultCheck::OffTheBoard(r) => {
                format!("{r} {}{why}, not decided on the board", r.describe())
            }
            ResultCheck::Unfinished => format!("* unfinished{why}"),
            ResultCheck::Unrecorded(o) => format!("{} {o} (the record says *)", o.score_text()),
            ResultCheck::Mismatch { recorded, outcome } => format!(
                "{} {outcome} on the board, but the record says {recorded} ({})",
                outcome.score_text(),
                recorded.describe()
            ),
        }
    }

    /// The warning to show, for a mismatch.
    pub fn warning(&self) -> Option<String> {
        match self {
            ResultCheck::Mismatch { .. } => Some(self.to_string()),
            _ => None,
        }
    }
}

impl fmt::Display for ResultCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResultCheck::Agrees(o) => write!(f, "{}, {o}", o.score_text()),
            ResultCheck::OffTheBoard(r) => {
                write!(
                    f,
                    "{r} ({}), the game is not over on the board",
                    r.describe()
                )
            }
            ResultCheck::Unfinished => write!(f, "* (unfinished)"),
            ResultCheck::Unrecorded(o) => {
                write!(f, "{}, {o} (the record gives no result)", o.score_text())
            }
            ResultCheck::Mismatch { recorded, outcome } => write!(
                f,
                "the record says {recorded} ({}) but on the board {outcome} ({})",
                recorded.describe(),
                outcome.score_text()
            ),
        }
    }
}

/// A record played through: the game, and how its result compares with the board.
#[derive(Clone, Debug)]
pub struct Replay {
    pub game: Game<VariantPosition>,
    pub result: ResultCheck,
}

impl GameRecord {
    /// Plays the moves from the start under the record's rules. The error names the first
    /// move that cannot be played (number, side, text, and the reason from the rules), or
    /// the first move after the game ended. The recorded result is not checked here:
    /// see [`GameRecord::check`].
    pub fn replay(&self) -> Result<Game<VariantPosition>, ReplayError> {
        let mut game = Game::new(self.start, self.rules);
        let first = self.start.side_to_move();
        for (i, &mv) in self.moves.iter().enumerate() {
            let (number, side) = moves::number(first, i);
            let text = mv.to_string();
            if let Some(outcome) = game.outcome() {
                return Err(ReplayError::AfterEnd {
                    ply: i + 1,
                    number,
                    side,
                    mv,
                    position: Box::new(*game.position()),
                    outcome,
                    ended_after: i,
                });
            }
            let position = *game.position();
            if !position.is_legal(mv) {
                let error = match position.parse_move(&text) {
                    Err(error) => error,
                    // Only the capture flag is wrong (a move built by hand).
                    Ok(_) => MoveError::Illegal {
                        reason: format!(
                            "it captures on {} but is not marked as a capture",
                            mv.to()
                        ),
                        text: text.clone(),
                    },
                };
                return Err(ReplayError::Illegal {
                    ply: i + 1,
                    number,
                    side,
                    mv,
                    position: Box::new(position),
                    error,
                });
            }
            game.play(mv)
                .expect("a legal move in an unfinished game can be played");
        }
        Ok(game)
    }

    /// Replays the record ([`GameRecord::replay`]) and compares the recorded result with
    /// the board.
    pub fn check(&self) -> Result<Replay, ReplayError> {
        let game = self.replay()?;
        let result = ResultCheck::new(self.result, game.outcome());
        Ok(Replay { game, result })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Reason;

    #[test]
    fn a_summary_gives_the_result_with_its_cause() {
        let connected = Outcome {
            winner: Some(Color::Black),
            reason: Reason::Connection,
        };
        let agrees = ResultCheck::new(RecordResult::BlackWins, Some(connected));
        assert_eq!(agrees.summary(None), format!("1-0 {connected}"));
        let resigned = ResultCheck::new(RecordResult::WhiteWins, None);
        assert_eq!(
            resigned.summary(Some("resignation")),
            "0-1 White wins (resignation), not decided on the board"
        );
        assert_eq!(
            ResultCheck::new(RecordResult::Unknown, None).summary(None),
            "* unfinished"
        );
    }
}
