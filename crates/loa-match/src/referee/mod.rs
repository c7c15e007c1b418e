//! The referee: it keeps its own game, checks every move, keeps the clocks, and decides
//! every game — by the rules, or against an engine that fails (an illegal move, a crash,
//! a hang, time, a malformed reply), or by adjudication.

pub mod adjudication;
pub mod game;

use super::engine_process::{EngineError, EngineProcess};
use super::engine_spec::EngineSpec;
use loa_core::{excerpt, Color, Game, Reason, RuleSet, Variant, VariantPosition};
use loa_ugi::MAX_LINE;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules: connection, simultaneous connection, repetition.
    Rules(Reason),
    /// The loser played a move that is not legal.
    IllegalMove { text: String, why: String },
    /// The loser's process exited.
    Crash { how: String },
    /// The loser did not answer within the timeout of a depth or node limited game.
    Hang { waited: Duration },
    /// The loser ran out of time (beyond the margin): it used `used` (`None`: no reply
    /// came) where `allowed` was allowed (time left or movetime, plus margin).
    TimeForfeit {
        used: Option<Duration>,
        allowed: Duration,
    },
    /// The loser's reply could not be read as a move.
    Malformed { line: String },
    /// The loser wrote a line too long to be read.
    LineTooLong,
    /// The loser could not be (re)started or did not get ready for the game.
    StartFailure { error: String },
    /// Drawn by length.
    DrawAdjudication { moves: usize },
    /// Both engines' scores agreed on the winner for long enough.
    Resignation { count: u32, score: i32 },
}

impl Termination {
    /// A short name for counting: `connection`, `illegal move`, `crash`, ...
    pub fn category(&self) -> &'static str {
        match self {
            Termination::Rules(Reason::Connection) => "connection",
            Termination::Rules(Reason::SimultaneousConnection) => "simultaneous connection",
            Termination::Rules(Reason::Repetition) => "repetition",
            Termination::Rules(Reason::FiveCaptured) => "five consecutive captures",
            Termination::Rules(Reason::NoMove) => "no legal move",
            Termination::IllegalMove { .. } => "illegal move",
            Termination::Crash { .. } => "crash",
            Termination::Hang { .. } => "hang",
            Termination::TimeForfeit { .. } => "time forfeit",
            Termination::Malformed { .. } | Termination::LineTooLong => "malformed reply",
            Termination::StartFailure { .. } => "start failure",
            Termination::DrawAdjudication { .. } => "draw adjudication",
            Termination::Resignation { .. } => "resignation",
        }
    }

    /// Whether the loser's engine failed (rather than losing on the board).
    pub fn is_failure(&self) -> bool {
        !matches!(
            self,
            Termination::Rules(_)
                | Termination::DrawAdjudication { .. }
                | Termination::Resignation { .. }
        )
    }
}

/// In words, as the records write it: what an engine wrote is quoted by its start when
/// long, so that a record's tag stays one short line.
impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Rules(reason) => write!(f, "{reason}"),
            Termination::IllegalMove { text, why } => {
                // Most reasons quote the move already.
                if why.contains(text.as_str()) {
                    write!(f, "illegal move: {why}")
                } else {
                    write!(f, "illegal move '{}': {why}", excerpt(text))
                }
            }
            Termination::Crash { how } => write!(f, "crash: the engine process {how}"),
            Termination::Hang { waited } => {
                write!(f, "hang: no bestmove within {} ms", waited.as_millis())
            }
            Termination::TimeForfeit {
                used: Some(used),
                allowed,
            } => write!(
                f,
                "time forfeit: {} ms used, {} ms allowed (with the margin)",
                used.as_millis(),
                allowed.as_millis()
            ),
            Termination::TimeForfeit {
                used: None,
                allowed,
            } => write!(
                f,
                "time forfeit: no bestmove within {} ms (with the margin)",
                allowed.as_millis()
            ),
            Termination::Malformed { line } => write!(f, "malformed reply '{}'", excerpt(line)),
            Termination::LineTooLong => write!(
                f,
                "malformed reply: a line longer than {MAX_LINE} bytes (1 MB)"
            ),
            Termination::StartFailure { error } => write!(f, "engine failure: {error}"),
            Termination::DrawAdjudication { moves } => {
                write!(f, "adjudication: draw after {moves} moves")
            }
            Termination::Resignation { count, score } => write!(
                f,
                "adjudication: resignation, both scores beyond {score} cp for {count} moves"
            ),
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Every move, the opening's included.
    pub game: Game<VariantPosition>,
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub termination: Termination,
}

/// One engine's place at a worker: its settings and, once started, its process. A
/// process that fails is dropped (killed) and a new one started for the next game.
pub struct Seat {
    pub spec: Arc<EngineSpec>,
    process: Option<EngineProcess>,
    /// How many times a process was started here.
    pub starts: u64,
}

impl Seat {
    pub fn new(spec: Arc<EngineSpec>) -> Seat {
        Seat {
            spec,
            process: None,
            starts: 0,
        }
    }

    /// The process, started (and set up) if there is none.
    pub fn engine(
        &mut self,
        rules: RuleSet,
        variant: Variant,
        timeout: Duration,
    ) -> Result<&mut EngineProcess, EngineError> {
        if self.process.is_none() {
            self.starts += 1;
            self.process = Some(EngineProcess::start(&self.spec, rules, variant, timeout)?);
        }
        Ok(self.process.as_mut().expect("just started"))
    }

    /// Ends the process; the next game starts a new one.
    pub fn discard(&mut self) {
        self.process = None;
    }

    /// Ends the process politely.
    pub fn quit(&mut self) {
        if let Some(process) = self.process.take() {
            process.quit(Duration::from_millis(500));
        }
    }
}
