//! Who plays each seat of a game, and the names of the places people take in an online
//! game: `black` and `white`, and `black2` and `white2` for the second kinds of AmbiLOA's
//! partnership game.

use crate::levels::Strength;
use loa_core::{Color, Seat, Variant};
use serde::{Deserialize, Serialize};

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    Human,
    Engine(Strength),
}

/// Who plays a side: one player, or one for each of its seats (AmbiLOA's partnership
/// game: `[kind B or W, kind b or w]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    untagged,
    expecting = "a player (\"human\", or {\"engine\": {\"level\": 1-8}} or {\"engine\": {\"movetime_ms\": N}}), or a list of two for AmbiLOA's partnership game"
)]
pub enum SidePlayers {
    One(Player),
    Two([Player; 2]),
}

/// The players of both sides, checked against the variant's seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lineup {
    pub black: SidePlayers,
    pub white: SidePlayers,
}

impl Lineup {
    pub fn new(variant: Variant, black: SidePlayers, white: SidePlayers) -> Result<Lineup, String> {
        let lineup = Lineup { black, white };
        for side in Color::ALL {
            let players = match lineup.side(side) {
                SidePlayers::One(player) => vec![player],
                SidePlayers::Two(pair) if variant == Variant::AmbiLoa => pair.to_vec(),
                SidePlayers::Two(_) => {
                    return Err(format!(
                        "{} has one seat a side: give one player for {side}",
                        variant.title()
                    ))
                }
            };
            for player in players {
                if let Player::Engine(strength) = player {
                    strength.validate()?;
                }
            }
        }
        Ok(lineup)
    }

    fn side(&self, color: Color) -> SidePlayers {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    pub fn player(&self, seat: Seat) -> Player {
        match self.side(seat.side) {
            SidePlayers::One(player) => player,
            SidePlayers::Two(pair) => pair[usize::from(seat.index.min(1))],
        }
    }

    /// The place of the person at `seat`.
    pub fn slot(&self, seat: Seat) -> String {
        let name = seat.side.id();
        match self.side(seat.side) {
            SidePlayers::Two(_) if seat.index == 1 => format!("{name}2"),
            _ => name.to_string(),
        }
    }

    /// The places people take, each with its side.
    pub fn human_slots(&self) -> Vec<(String, Color)> {
        let mut slots = Vec::new();
        for side in Color::ALL {
            for index in 0..2 {
                let seat = Seat { side, index };
                if matches!(self.side(side), SidePlayers::One(_)) && index == 1 {
                    continue;
                }
                if self.player(seat) == Player::Human {
                    slots.push((self.slot(seat), side));
                }
            }
        }
        slots
    }

    /// The players of each side given to the other.
    pub fn swapped(self) -> Lineup {
        Lineup {
            black: self.white,
            white: self.black,
        }
    }

    /// Whether an engine plays anywhere.
    pub fn has_engine(&self) -> bool {
        [self.black, self.white].iter().any(|side| match side {
            SidePlayers::One(p) => matches!(p, Player::Engine(_)),
            SidePlayers::Two(pair) => pair.iter().any(|p| matches!(p, Player::Engine(_))),
        })
    }

    /// Whether a person plays anywhere.
    pub fn has_human(&self) -> bool {
        !self.human_slots().is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partnership_seats_have_places_of_their_own() {
        let engine = Player::Engine(Strength::level(2));
        let lineup = Lineup::new(
            Variant::AmbiLoa,
            SidePlayers::Two([Player::Human, engine]),
            SidePlayers::One(Player::Human),
        )
        .unwrap();
        let b = Seat {
            side: Color::Black,
            index: 1,
        };
        let w = Seat {
            side: Color::White,
            index: 1,
        };
        assert_eq!(lineup.player(b), engine);
        assert_eq!(lineup.slot(b), "black2");
        assert_eq!(lineup.slot(w), "white");
        let slots: Vec<String> = lineup.human_slots().into_iter().map(|s| s.0).collect();
        assert_eq!(slots, ["black", "white"]);
        assert!(lineup.has_engine() && lineup.has_human());
    }

    #[test]
    fn a_side_no_player_fits_is_told_what_fits() {
        let err = serde_json::from_str::<SidePlayers>(r#"{"engine": 3}"#).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("a player (\"human\", or {\"engine\""),
            "{err}"
        );
        // The levels named are the levels there are.
        let levels = format!("1-{}", crate::levels::MAX_LEVEL);
        assert!(err.to_string().contains(&levels), "{err}");
        assert_eq!(
            serde_json::from_str::<SidePlayers>(r#"["human", "human"]"#).unwrap(),
            SidePlayers::Two([Player::Human; 2])
        );
    }

    #[test]
    fn two_players_a_side_only_in_ambiloa() {
        let two = SidePlayers::Two([Player::Human; 2]);
        let one = SidePlayers::One(Player::Human);
        assert!(Lineup::new(Variant::Standard, two, one).is_err());
        assert!(Lineup::new(Variant::AmbiLoa, two, two).is_ok());
        let bad = SidePlayers::One(Player::Engine(Strength::level(9)));
        assert!(Lineup::new(Variant::Standard, bad, one).is_err());
    }
}
