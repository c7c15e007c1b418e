//! What the players of a game say to each other: only a seat speaks, in short lines, not
//! too fast and not without end.

use super::{Caller, Changed, GameError, LiveGame};
use crate::store::ChatRow;

/// The longest line, in characters.
pub const MAX_CHAT_LINE: usize = 140;
/// The most lines a game keeps.
pub const MAX_CHAT_LINES: usize = 300;
/// The least time between two lines of one seat.
const MIN_CHAT_GAP_MS: i64 = 1_000;

impl LiveGame {
    /// A line said by the caller's seat (under `name`, the account's, if any).
    pub fn say(
        &mut self,
        caller: &Caller,
        text: &str,
        name: Option<String>,
        now: i64,
    ) -> Result<Changed, GameError> {
        let slot = self.caller_slot(caller, None)?.slot.clone();
        // Control characters (new lines among them) become spaces: one line each.
        let text: String = text
            .trim()
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        if text.is_empty() || text.chars().count() > MAX_CHAT_LINE {
            return Err(GameError::BadChat);
        }
        if self.chat.len() >= MAX_CHAT_LINES {
            return Err(GameError::ChatFull);
        }
        let last = self.chat.iter().rev().find(|line| line.slot == slot);
        if last.is_some_and(|line| now - line.at < MIN_CHAT_GAP_MS) {
            return Err(GameError::ChatTooFast);
        }
        let line = ChatRow {
            at: now,
            slot,
            name,
            text,
        };
        self.chat.push(line.clone());
        Ok(Changed {
            chat: vec![line],
            ..Changed::nothing_at(self.game.ply())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lineup::{Lineup, Player, SidePlayers};
    use crate::setup::GameSetup;
    use loa_core::{Game, Position, RuleSet, Variant};

    fn game() -> LiveGame {
        let human = SidePlayers::One(Player::Human);
        LiveGame::create(
            GameSetup {
                variant: Variant::Standard,
                game: Game::new(Position::startpos().into(), RuleSet::Draw),
                lineup: Lineup::new(Variant::Standard, human, human).unwrap(),
                clock: None,
                online: true,
                names: [None, None],
                accounts: [None, None],
                rated: false,
            },
            0,
        )
    }

    #[test]
    fn only_a_seat_speaks_in_short_lines_not_too_fast() {
        let mut live = game();
        let black = Caller {
            token: Some(live.tokens()["black"].clone()),
            account: None,
        };
        let white = Caller {
            token: Some(live.tokens()["white"].clone()),
            account: None,
        };
        let stranger = Caller::default();
        assert_eq!(
            live.say(&stranger, "hi", None, 0).unwrap_err(),
            GameError::NoToken
        );
        let said = live.say(&black, "  good\nluck  ", None, 1_000).unwrap();
        assert_eq!(said.chat[0].text, "good luck");
        assert_eq!(said.chat[0].slot, "black");
        assert_eq!(
            live.say(&black, "again", None, 1_500).unwrap_err(),
            GameError::ChatTooFast
        );
        assert!(live.say(&white, "thanks", None, 1_500).is_ok());
        assert!(live.say(&black, "again", None, 2_000).is_ok());
        let long = "x".repeat(MAX_CHAT_LINE + 1);
        assert_eq!(
            live.say(&white, &long, None, 9_000).unwrap_err(),
            GameError::BadChat
        );
        assert_eq!(
            live.say(&white, " \t ", None, 9_000).unwrap_err(),
            GameError::BadChat
        );
        for i in 0..MAX_CHAT_LINES as i64 {
            let _ = live.say(&white, "x", None, 10_000 + i * 1_000);
        }
        assert_eq!(live.chat.len(), MAX_CHAT_LINES);
        assert_eq!(
            live.say(&black, "one more", None, 1 << 40).unwrap_err(),
            GameError::ChatFull
        );
    }
}
