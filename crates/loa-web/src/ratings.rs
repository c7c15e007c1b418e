//! Ratings: Glicko-2 with lichess's parameters, one rating a category (the variant and
//! the speed), and the titles the championships' medals give. Nothing here knows of HTTP
//! or SQL.

use crate::clock::TimeControl;
use loa_core::Variant;
use serde::Serialize;
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;
use std::fmt;

/// A rating is provisional (shown with `?`) while its deviation is above this.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// How fast a game is played, from its clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Speed {
    Bullet,
    Blitz,
    Rapid,
    Classical,
    Correspondence,
}

impl Speed {
    pub const ALL: [Speed; 5] = [
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// By the game's estimated duration, the initial time plus 40 increments: under 3
    /// minutes bullet, under 8 blitz, under 25 rapid, classical beyond.
    pub fn of(control: TimeControl) -> Speed {
        match control {
            TimeControl::Live {
                initial_s,
                increment_s,
            } => match initial_s.saturating_add(increment_s.saturating_mul(40)) {
                0..180 => Speed::Bullet,
                180..480 => Speed::Blitz,
                480..1500 => Speed::Rapid,
                _ => Speed::Classical,
            },
            TimeControl::Correspondence { .. } => Speed::Correspondence,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }

    pub fn parse(text: &str) -> Option<Speed> {
        Speed::ALL.into_iter().find(|s| s.name() == text)
    }
}

/// What a rating is for: a variant at a speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Category {
    pub variant: Variant,
    pub speed: Speed,
}

impl Category {
    /// As the store keeps it: `standard/blitz`.
    pub fn key(self) -> String {
        self.to_string()
    }

    pub fn parse(key: &str) -> Option<Category> {
        let (variant, speed) = key.split_once('/')?;
        Some(Category {
            variant: variant.parse().ok()?,
            speed: Speed::parse(speed)?,
        })
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.variant.name(), self.speed.name())
    }
}

/// A player's rating in one category.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games played in the category.
    pub games: u32,
}

impl Default for Rating {
    /// A newcomer's: 1500, deviation 350, volatility 0.06.
    fn default() -> Rating {
        Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
            games: 0,
        }
    }
}

impl Rating {
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn after(self, rated: Glicko2Rating) -> Rating {
        Rating {
            rating: rated.rating,
            deviation: rated.deviation,
            volatility: rated.volatility,
            games: self.games.saturating_add(1),
        }
    }
}

/// Black's and White's ratings after a game between them (`winner` `None`: a draw),
/// each game a rating period of its own, as lichess rates.
pub fn rate(black: Rating, white: Rating, winner: Option<loa_core::Color>) -> [Rating; 2] {
    let outcome = match winner {
        Some(loa_core::Color::Black) => Outcomes::WIN,
        Some(loa_core::Color::White) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    // lichess's system constant.
    let config = Glicko2Config {
        tau: 0.75,
        ..Glicko2Config::default()
    };
    let (b, w) = glicko2(&black.glicko(), &white.glicko(), &outcome, &config);
    [black.after(b), white.after(w)]
}

/// The change a game made to a rating, as shown when it ends: `+12`, `-12`.
pub fn change(before: Rating, after: Rating) -> i32 {
    (after.rating.round() - before.rating.round()) as i32
}

/// A player's medals from the site's championships.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Medals {
    pub gold: u32,
    pub silver: u32,
    pub bronze: u32,
}

/// The titles the Mind Sports Olympiad awards from medals, highest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Title {
    GM,
    IM,
    CM,
}

impl Medals {
    /// GM: two golds, or a gold and two silvers. IM: a gold and a silver or bronze, two
    /// silvers, or a silver and two bronzes. CM: a silver and a bronze, or two bronzes.
    pub fn title(self) -> Option<Title> {
        let Medals {
            gold,
            silver,
            bronze,
        } = self;
        if gold >= 2 || (gold >= 1 && silver >= 2) {
            Some(Title::GM)
        } else if (gold >= 1 && silver + bronze >= 1) || silver >= 2 || (silver >= 1 && bronze >= 2)
        {
            Some(Title::IM)
        } else if (silver >= 1 && bronze >= 1) || bronze >= 2 {
            Some(Title::CM)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loa_core::Color;

    #[test]
    fn speed_by_the_estimated_duration() {
        let live = |initial_s, increment_s| {
            Speed::of(TimeControl::Live {
                initial_s,
                increment_s,
            })
        };
        assert_eq!(live(60, 0), Speed::Bullet);
        assert_eq!(live(120, 1), Speed::Bullet); // 160 s
        assert_eq!(live(180, 0), Speed::Blitz);
        assert_eq!(live(180, 2), Speed::Blitz); // 260 s
        assert_eq!(live(300, 5), Speed::Rapid); // 500 s
        assert_eq!(live(479, 0), Speed::Blitz);
        assert_eq!(live(600, 5), Speed::Rapid); // 800 s
        assert_eq!(live(900, 15), Speed::Classical); // 1500 s
        assert_eq!(live(u64::MAX, u64::MAX), Speed::Classical);
        let post = Speed::of(TimeControl::Correspondence {
            days: 3,
            bank_days: None,
        });
        assert_eq!(post, Speed::Correspondence);
    }

    #[test]
    fn categories_have_a_key() {
        let category = Category {
            variant: Variant::ScrambledEggs,
            speed: Speed::Blitz,
        };
        assert_eq!(category.key(), "scrambled-eggs/blitz");
        assert_eq!(Category::parse("scrambled-eggs/blitz"), Some(category));
        assert_eq!(Category::parse("chess/blitz"), None);
        assert_eq!(Category::parse("standard"), None);
    }

    #[test]
    fn glicko2_moves_two_newcomers_apart_evenly() {
        let [black, white] = rate(Rating::default(), Rating::default(), Some(Color::Black));
        // Glickman's formulas for two players at 1500 ± 350, σ 0.06, τ 0.75: the winner
        // gains what the loser loses.
        assert_eq!(change(Rating::default(), black), 162);
        assert_eq!(change(Rating::default(), white), -162);
        assert!(
            (black.deviation - 290.32).abs() < 0.01,
            "{}",
            black.deviation
        );
        assert_eq!((black.games, white.games), (1, 1));
        assert!(black.provisional());
        let [b, w] = rate(Rating::default(), Rating::default(), None);
        assert_eq!(
            (change(Rating::default(), b), change(Rating::default(), w)),
            (0, 0)
        );
    }

    #[test]
    fn an_established_rating_moves_little_and_shows_no_mark() {
        let settled = Rating {
            rating: 1800.0,
            deviation: 60.0,
            volatility: 0.06,
            games: 100,
        };
        assert!(!settled.provisional() && Rating::default().provisional());
        let [after, newcomer] = rate(settled, Rating::default(), Some(Color::White));
        assert!(change(settled, after) < 0 && change(settled, after) > -20);
        assert!(change(Rating::default(), newcomer) > 200);
    }

    #[test]
    fn titles_from_medals() {
        let title = |gold, silver, bronze| {
            Medals {
                gold,
                silver,
                bronze,
            }
            .title()
        };
        assert_eq!(title(2, 0, 0), Some(Title::GM));
        assert_eq!(title(1, 2, 0), Some(Title::GM));
        assert_eq!(title(1, 1, 0), Some(Title::IM));
        assert_eq!(title(1, 0, 1), Some(Title::IM));
        assert_eq!(title(0, 2, 0), Some(Title::IM));
        assert_eq!(title(0, 1, 2), Some(Title::IM));
        assert_eq!(title(0, 1, 1), Some(Title::CM));
        assert_eq!(title(0, 0, 2), Some(Title::CM));
        assert_eq!(title(1, 0, 0), None);
        assert_eq!(title(0, 1, 0), None);
        assert_eq!(title(0, 0, 1), None);
        assert_eq!(title(0, 0, 0), None);
    }
}
