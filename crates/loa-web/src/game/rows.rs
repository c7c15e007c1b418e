//! A game as the store keeps it: its rows, and the game read back from them.

use super::{line_of, to_i64, Ending, LiveGame};
use crate::clock::{Clock, TimeControl};
use crate::lineup::Lineup;
use crate::store::{GameRow, StoredGame};
use loa_core::{Color, Game, RuleSet, Variant, VariantPosition};

impl LiveGame {
    /// The row to write.
    pub fn row(&self, now: i64) -> GameRow {
        GameRow {
            id: self.id.clone(),
            created_at: self.created_at,
            updated_at: now,
            variant: self.variant.name().into(),
            rules: self.rules().to_string(),
            start: self.game.start().to_string(),
            players: serde_json::to_string(&self.lineup).expect("serializable"),
            names: serde_json::to_string(&self.names).expect("serializable"),
            time_control: self
                .clock
                .map(|c| serde_json::to_string(&c.control).expect("serializable")),
            online: self.online,
            started_at: self.started_at,
            clock_ms: self.clock.map(|c| c.remaining_ms.map(to_i64)),
            running_since: self.clock.and_then(|c| c.running_since),
            result: self.ending.as_ref().map(|e| e.result().pgn().to_string()),
            winner: self
                .ending
                .as_ref()
                .and_then(|e| e.winner)
                .map(|c| c.id().into()),
            reason: self.ending.as_ref().map(|e| e.reason.clone()),
            draw_offer: self.draw_offer.map(|c| c.id().into()),
            takeback_offer: self.takeback_offer.map(|c| c.id().into()),
            rematch: self.rematch.clone(),
            rated: self.rated,
            accounts: self.accounts,
            rating_changes: self.rating_changes,
            version: self.version,
            tournament_game: self.tournament_game,
        }
    }

    /// The game whole, for its first write.
    pub fn stored(&self) -> StoredGame {
        StoredGame {
            row: self.row(self.updated_at),
            seats: self.seats.clone(),
            moves: self.log.clone(),
            chat: self.chat.clone(),
        }
    }

    /// A game read back from the database.
    pub fn restore(stored: StoredGame) -> Result<LiveGame, String> {
        let row = stored.row;
        let variant: Variant = row.variant.parse().map_err(|e| format!("{e}"))?;
        let rules: RuleSet = row.rules.parse().map_err(|e| format!("{e}"))?;
        let start = VariantPosition::parse(variant, &row.start).map_err(|e| e.to_string())?;
        let mut game = Game::new(start, rules);
        for mv in &stored.moves {
            game.play_text(&mv.text).map_err(|e| e.to_string())?;
        }
        let lineup: Lineup = serde_json::from_str(&row.players).map_err(|e| e.to_string())?;
        let names = serde_json::from_str(&row.names).map_err(|e| e.to_string())?;
        let clock = match &row.time_control {
            None => None,
            Some(json) => {
                let control: TimeControl = serde_json::from_str(json).map_err(|e| e.to_string())?;
                let mut clock = Clock::new(control);
                if let Some(ms) = row.clock_ms {
                    clock.remaining_ms = ms.map(|v| u64::try_from(v).unwrap_or(0));
                }
                clock.running_since = row.running_since;
                Some(clock)
            }
        };
        let parse_color =
            |name: &Option<String>| name.as_deref().and_then(|n| n.parse::<Color>().ok());
        let (texts, movers) = line_of(&game);
        Ok(LiveGame {
            texts,
            movers,
            id: row.id,
            created_at: row.created_at,
            updated_at: row.updated_at,
            variant,
            lineup,
            names,
            online: row.online,
            ending: row.reason.clone().map(|reason| Ending {
                winner: parse_color(&row.winner),
                reason,
            }),
            game,
            clock,
            log: stored.moves,
            seats: stored.seats,
            started_at: row.started_at,
            draw_offer: parse_color(&row.draw_offer),
            takeback_offer: parse_color(&row.takeback_offer),
            rematch: row.rematch,
            rated: row.rated,
            accounts: row.accounts,
            chat: stored.chat,
            rating_changes: row.rating_changes,
            version: row.version,
            tournament_game: row.tournament_game,
            resumed_at: None,
        })
    }
}
