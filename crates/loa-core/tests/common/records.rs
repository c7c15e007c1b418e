//! What the record tests share: the records of a text, read through `read_games`.

use loa_core::record::{read_games, GameError, GameRecord, RecordError};

/// The record of every game of `text`, whether or not its moves can be played (a game
/// whose moves cannot is kept as read, for the test to replay); the first error in the
/// text, if any.
pub fn read_records(text: &str) -> Result<Vec<GameRecord>, RecordError> {
    read_games(text)
        .map(|game| match game {
            Ok(game) => Ok(game.record),
            Err(GameError::Moves { record, .. }) => Ok(*record),
            Err(GameError::Text { error, .. } | GameError::Split(error)) => Err(error),
        })
        .collect()
}
