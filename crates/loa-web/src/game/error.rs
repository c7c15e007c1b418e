//! Why a game refuses an action. The HTTP front maps each to its status (error.rs).

use loa_core::Color;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("acting in a game needs your seat's token")]
    NoToken,
    #[error("that token is not a seat of this game")]
    NotASeat,
    #[error("this seat was taken by another player's account: you can watch the game")]
    AnotherPlayersSeat,
    #[error("that token is {seat}'s seat, not {asked}'s")]
    WrongSide { seat: Color, asked: Color },
    #[error("it is not your turn: {to_move} is to move")]
    NotYourTurn { to_move: String },
    #[error("it is the engine's turn")]
    EngineTurn,
    #[error("{0}")]
    IllegalMove(String),
    #[error("the game is over: {0}")]
    Over(String),
    #[error("the game has not started: waiting for the other player to open their link")]
    NotStarted,
    #[error("the time is up")]
    TimeUp,
    #[error("the move was sent for move {sent}, but {}", played_words(*played))]
    StalePly { sent: usize, played: usize },
    #[error("the engine declines the draw")]
    EngineDeclines,
    #[error("there is no move to take back")]
    NothingToTakeBack,
    #[error("a rated game against the engine has no takebacks")]
    NoTakebackRated,
    #[error("a game is aborted only before both sides have moved: resign instead")]
    TooLateToAbort,
    #[error("a tournament's game is not aborted: resign instead, or withdraw from the tournament")]
    TournamentNotAborted,
    #[error("a rematch follows a finished game")]
    RematchBeforeEnd,
    #[error("a chat line has 1 to 140 characters")]
    BadChat,
    #[error("one line a second: wait a moment")]
    ChatTooFast,
    #[error("this game's chat is full")]
    ChatFull,
}

impl GameError {
    /// Whether the refusal is about who asks (their token or seat), not the game's state.
    pub fn is_about_the_caller(&self) -> bool {
        matches!(
            self,
            GameError::NoToken
                | GameError::NotASeat
                | GameError::AnotherPlayersSeat
                | GameError::WrongSide { .. }
                | GameError::NotYourTurn { .. }
        )
    }
}

fn played_words(played: usize) -> String {
    match played {
        1 => "1 move has been played".into(),
        n => format!("{n} moves have been played"),
    }
}
