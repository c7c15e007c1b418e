//! Tournaments as rules: who meets whom in a round (Swiss, round robin, arena), the
//! standings and their tie-breaks, and the divisions of a correspondence league. Players
//! are account ids; nothing here knows of games' storage or of HTTP. docs/tournaments.md
//! gives the rules with worked examples that the tests check.

pub mod arena;
pub mod championship;
pub mod league;
pub mod round_robin;
pub mod standings;
pub mod swiss;

use serde::{Deserialize, Serialize};

/// A player's account id.
pub type PlayerId = i64;

/// How a tournament is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    Swiss,
    RoundRobin,
    Arena,
    League,
}

impl Format {
    pub const ALL: [Format; 4] = [
        Format::Swiss,
        Format::RoundRobin,
        Format::Arena,
        Format::League,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Format::Swiss => "swiss",
            Format::RoundRobin => "round-robin",
            Format::Arena => "arena",
            Format::League => "league",
        }
    }

    pub fn parse(text: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == text)
    }
}

/// A player of a tournament, as pairing sees them.
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    pub id: PlayerId,
    /// The rating when the tournament started: it orders players of equal score.
    pub rating: f64,
    /// False once the player withdrew (or was withdrawn): never paired again, but their
    /// games count for the others' tie-breaks.
    pub active: bool,
}

/// A finished game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    BlackWins,
    WhiteWins,
    Draw,
}

/// One board of a round: a game, or a bye.
#[derive(Clone, Debug, PartialEq)]
pub enum Board {
    /// Black moves first. `result` is `None` while the game is played; `forfeit` says
    /// the loser lost on time without making a move.
    Game {
        black: PlayerId,
        white: PlayerId,
        result: Option<GameResult>,
        forfeit: bool,
    },
    /// A player left without an opponent. An unrequested bye (the odd player out) scores
    /// a point.
    Bye { player: PlayerId, points: f64 },
}

impl Board {
    /// A game not yet played.
    pub fn game(black: PlayerId, white: PlayerId) -> Board {
        Board::Game {
            black,
            white,
            result: None,
            forfeit: false,
        }
    }

    /// The bye the odd player out is given: a point.
    pub fn bye(player: PlayerId) -> Board {
        Board::Bye {
            player,
            points: 1.0,
        }
    }
}

/// A round: its number (from 1) and its boards.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    pub number: u32,
    pub boards: Vec<Board>,
}
