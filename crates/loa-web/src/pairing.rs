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
