use crate::Color;
use std::fmt;
use std::str::FromStr;

/// What a simultaneous connection means: the one point on which tournament rule sets differ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// Both sides connected at once is a draw (Computer Olympiad, MSO).
    #[default]
    Draw,
    /// Both sides connected at once is a win for the mover (A Gamut of Games, 2nd ed.).
    MoverWins,
}

impl RuleSet {
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Draw => "draw",
            RuleSet::MoverWins => "mover-wins",
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule set '{0}': expected draw or mover-wins")]
pub struct UnknownRuleSet(pub String);

impl FromStr for RuleSet {
    type Err = UnknownRuleSet;

    fn from_str(s: &str) -> Result<RuleSet, UnknownRuleSet> {
        match s.to_ascii_lowercase().as_str() {
            "draw" => Ok(RuleSet::Draw),
            "mover-wins" | "moverwins" | "mover_wins" => Ok(RuleSet::MoverWins),
            _ => Err(UnknownRuleSet(crate::excerpt(s).into_owned())),
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// One side's pieces form a single group (after its own move or, through a capture,
    /// after the opponent's).
    Connection,
    /// Both sides connected by the same move: a draw, or the mover's win under `mover-wins`.
    SimultaneousConnection,
    /// The same position with the same side to move occurred for the third time.
    Repetition,
    /// Five enemy pieces with consecutive numbers captured (Fields of Action).
    FiveCaptured,
    /// The side to move has no legal move and loses (Fields of Action, which has no
    /// pass).
    NoMove,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::Connection => "connection",
            Reason::SimultaneousConnection => "simultaneous connection",
            Reason::Repetition => "third repetition",
            Reason::FiveCaptured => "five consecutive captures",
            Reason::NoMove => "no legal move",
        })
    }
}

/// The end of a game: its result and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub reason: Reason,
}

impl Outcome {
    pub const fn win(winner: Color, reason: Reason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    pub const fn draw(reason: Reason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// The result as records write it: `1-0` Black wins, `0-1` White wins, `1/2-1/2` draw.
    pub const fn score_text(self) -> &'static str {
        match self.winner {
            Some(Color::Black) => "1-0",
            Some(Color::White) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(winner) => write!(f, "{winner} wins by {}", self.reason),
            None => write!(f, "draw by {}", self.reason),
        }
    }
}
