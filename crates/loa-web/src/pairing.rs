//! Pairing two people: the terms of a seek or a challenge (variant, rules, clock, rated,
//! the maker's colour), checked, and the game they agree on. Nothing here knows of HTTP
//! or SQL.

use crate::clock::TimeControl;
use crate::lineup::{Lineup, Player, SidePlayers};
use crate::setup::GameSetup;
use loa_core::{Color, Game, RuleSet, Variant};
use serde::Deserialize;

/// The colour a seek's or challenge's maker asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    Black,
    White,
    Random,
}

impl ColorChoice {
    pub fn name(self) -> &'static str {
        match self {
            ColorChoice::Black => "black",
            ColorChoice::White => "white",
            ColorChoice::Random => "random",
        }
    }

    pub fn parse(text: &str) -> Option<ColorChoice> {
        match text {
            "black" => Some(ColorChoice::Black),
            "white" => Some(ColorChoice::White),
            "random" => Some(ColorChoice::Random),
            _ => None,
        }
    }

    /// The maker's colour, a random one drawn now if they left it open.
    pub fn resolve(self) -> Color {
        match self {
            ColorChoice::Black => Color::Black,
            ColorChoice::White => Color::White,
            ColorChoice::Random => {
                let mut byte = [0u8];
                getrandom::fill(&mut byte).expect("the operating system's random generator works");
                if byte[0] & 1 == 0 {
                    Color::Black
                } else {
                    Color::White
                }
            }
        }
    }
}

/// What a seek or challenge offers, as the API takes it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TermsRequest {
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub rules: Option<String>,
    pub clock: TimeControl,
    #[serde(default)]
    pub rated: bool,
    #[serde(default)]
    pub color: Option<ColorChoice>,
}

/// The terms, checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    pub variant: Variant,
    pub rules: RuleSet,
    pub clock: TimeControl,
    pub rated: bool,
    pub color: ColorChoice,
}

impl TermsRequest {
    pub fn check(&self) -> Result<Terms, String> {
        let variant = match &self.variant {
            Some(name) => name.parse().map_err(|e| format!("{e}"))?,
            None => Variant::Standard,
        };
        let rules = match &self.rules {
            Some(name) => name.parse().map_err(|e| format!("{e}"))?,
            None => RuleSet::default(),
        };
        Ok(Terms {
            variant,
            rules,
            clock: self.clock.validate()?,
            rated: self.rated,
            color: self.color.unwrap_or(ColorChoice::Random),
        })
    }
}

/// The rating gap quick pairing accepts at first, and how it widens while a seek waits:
/// 300 points, and 100 more for each 20 seconds.
pub const PAIRING_GAP: f64 = 300.0;
const PAIRING_WIDENING: f64 = 100.0;
const PAIRING_STEP_MS: i64 = 20_000;

/// Whether quick pairing may pair a seek's maker (rated `maker`, waiting `waited_ms`)
/// with someone rated `taker`; people not signed in pair with each other.
pub fn ratings_fit(maker: Option<f64>, taker: Option<f64>, waited_ms: i64) -> bool {
    match (maker, taker) {
        (Some(maker), Some(taker)) => {
            let steps = (waited_ms.max(0) / PAIRING_STEP_MS) as f64;
            (maker - taker).abs() <= PAIRING_GAP + PAIRING_WIDENING * steps
        }
        (None, None) => true,
        _ => false,
    }
}

/// One of the two people paired: their account and name, if signed in.
#[derive(Clone, Debug, Default)]
pub struct Party {
    pub account: Option<i64>,
    pub name: Option<String>,
}

impl Terms {
    /// The game the maker (playing `maker_color`) and the taker agree on: online, both
    /// seats taken, started at once.
    pub fn game(&self, maker_color: Color, maker: Party, taker: Party) -> GameSetup {
        let (black, white) = match maker_color {
            Color::Black => (maker, taker),
            Color::White => (taker, maker),
        };
        let human = SidePlayers::One(Player::Human);
        GameSetup {
            variant: self.variant,
            game: Game::new(
                (self.variant.start(loa_core::BoardSize::Eight)).expect("every variant has 8x8"),
                self.rules,
            ),
            lineup: Lineup::new(self.variant, human, human).expect("two people fit every variant"),
            clock: Some(self.clock),
            online: true,
            rated: self.rated && black.account.is_some() && white.account.is_some(),
            names: [black.name, white.name],
            accounts: [black.account, white.account],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quick_pairing_takes_ratings_within_300_widening_as_a_seek_waits() {
        assert!(ratings_fit(Some(1500.0), Some(1800.0), 0));
        assert!(!ratings_fit(Some(1500.0), Some(1801.0), 0));
        assert!(!ratings_fit(Some(1500.0), Some(1850.0), 19_999));
        assert!(ratings_fit(Some(1500.0), Some(1850.0), 20_000));
        assert!(ratings_fit(Some(2000.0), Some(1100.0), 120_000));
        assert!(ratings_fit(None, None, 0));
        assert!(!ratings_fit(Some(1500.0), None, 1 << 40));
        assert!(ratings_fit(Some(1500.0), Some(1500.0), -5));
    }

    #[test]
    fn terms_are_checked() {
        let clock = TimeControl::Live {
            initial_s: 180,
            increment_s: 2,
        };
        let request = |variant: &str| TermsRequest {
            variant: Some(variant.into()),
            rules: None,
            clock,
            rated: true,
            color: None,
        };
        let terms = request("parachute").check().unwrap();
        assert_eq!(terms.variant, Variant::Parachute);
        assert_eq!(terms.color, ColorChoice::Random);
        assert!(request("chess").check().is_err());
        let mut no_time = request("standard");
        no_time.clock = TimeControl::Live {
            initial_s: 0,
            increment_s: 0,
        };
        assert!(no_time.check().is_err());
    }

    #[test]
    fn the_maker_plays_the_colour_asked_and_a_game_is_rated_only_between_accounts() {
        let terms = TermsRequest {
            variant: None,
            rules: None,
            clock: TimeControl::Correspondence {
                days: 3,
                bank_days: None,
            },
            rated: true,
            color: Some(ColorChoice::White),
        }
        .check()
        .unwrap();
        let ann = Party {
            account: Some(1),
            name: Some("Ann".into()),
        };
        let game = terms.game(Color::White, ann.clone(), Party::default());
        assert_eq!(game.names, [None, Some("Ann".into())]);
        assert_eq!(game.accounts, [None, Some(1)]);
        assert!(!game.rated, "an anonymous taker makes it casual");
        let bob = Party {
            account: Some(2),
            name: Some("Bob".into()),
        };
        assert!(terms.game(Color::Black, ann, bob).rated);
    }
}
