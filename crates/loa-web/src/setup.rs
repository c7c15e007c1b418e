//! A new game as the API asks for it (`POST /api/games`), checked: its line (variant,
//! rule set, board, start and moves, or a record to continue), who plays each seat, the
//! clock, and whether it is played online.

use crate::clock::TimeControl;
use crate::line::{Line, LineSpec, Unknown};
use crate::lineup::{Lineup, Player, SidePlayers};
use loa_core::record::{read_games, GameRecord};
use loa_core::{Color, Game, Seat, VariantPosition};
use serde::Deserialize;

/// The body of `POST /api/games`.
#[derive(Clone, Debug, Deserialize)]
pub struct NewGame {
    #[serde(flatten)]
    pub line: LineSpec,
    /// An SGF or PGN record to continue: its variant, rule set, start and moves.
    #[serde(default)]
    pub record: Option<String>,
    pub black: SidePlayers,
    pub white: SidePlayers,
    #[serde(default)]
    pub clock: Option<TimeControl>,
    /// Played between browsers: each person opens their seat's link.
    #[serde(default)]
    pub online: bool,
    /// Against an engine level with a clock, signed in: the game counts for the
    /// person's rating and the level's (the levels play as the bots `loa-level-N`).
    #[serde(default)]
    pub rated: bool,
    #[serde(flatten)]
    pub unknown: Unknown,
}

/// A checked new game.
#[derive(Clone, Debug)]
pub struct GameSetup {
    pub variant: loa_core::Variant,
    /// The game from its start, with any moves it is made with.
    pub game: Game<VariantPosition>,
    pub lineup: Lineup,
    pub clock: Option<TimeControl>,
    pub online: bool,
    /// Names from an imported record, or Black's and White's account names.
    pub names: [Option<String>; 2],
    /// The accounts whose seats each side's are, if any.
    pub accounts: [Option<i64>; 2],
    /// Whether the game counts for the players' ratings (both sides accounts).
    pub rated: bool,
}

impl NewGame {
    pub fn check(self) -> Result<GameSetup, String> {
        let (line, names) = match &self.record {
            Some(text) => {
                let spec = &self.line;
                if spec.variant.is_some() || spec.position.is_some() || !spec.moves.is_empty() {
                    return Err("a record brings its own variant, start and moves".into());
                }
                let record = first_record(text)?;
                let names = [
                    record_name(record.black.as_deref()),
                    record_name(record.white.as_deref()),
                ];
                // The rules asked for win over the record's.
                let rules = match spec.rules {
                    Some(_) => spec.rules()?,
                    None => record.rules,
                };
                let line = Line::of_moves(record.variant(), record.start, rules, &record.moves)?;
                (line, names)
            }
            None => (self.line.check()?, [None, None]),
        };
        let lineup = Lineup::new(line.variant, self.black, self.white)?;
        if self.online && !lineup.has_human() {
            return Err("an online game needs a person in at least one seat".into());
        }
        let clock = self.clock.map(TimeControl::validate).transpose()?;
        if self.rated {
            rated_level(&lineup, clock, self.online)?;
        }
        Ok(GameSetup {
            variant: line.variant,
            game: line.game,
            lineup,
            clock,
            online: self.online,
            names,
            accounts: [None, None],
            rated: self.rated,
        })
    }
}

/// The most characters of a player's name taken from a record.
const MAX_RECORD_NAME: usize = 40;

/// A player's name from a record as the site shows and mails it: on one line (control
/// characters and runs of spaces made one space), at most [`MAX_RECORD_NAME`]
/// characters; none if nothing is left.
fn record_name(name: Option<&str>) -> Option<String> {
    let words: Vec<&str> = name?
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
        .collect();
    let name: String = words.join(" ").chars().take(MAX_RECORD_NAME).collect();
    let name = name.trim_end();
    (!name.is_empty()).then(|| name.to_string())
}

/// The engine side and level of a game that may be rated: a person against an engine
/// level, at one board, with a clock.
pub fn rated_level(
    lineup: &Lineup,
    clock: Option<TimeControl>,
    online: bool,
) -> Result<(Color, u8), String> {
    let refuse = || "a rated game is a person against an engine level, with a clock".to_string();
    if online || clock.is_none() {
        return Err(refuse());
    }
    let player = |side| lineup.player(Seat { side, index: 0 });
    match (lineup.black, lineup.white) {
        (SidePlayers::One(_), SidePlayers::One(_)) => {}
        _ => return Err(refuse()),
    }
    let engine = Color::ALL
        .into_iter()
        .find(|&side| matches!(player(side), Player::Engine(_)))
        .ok_or_else(refuse)?;
    match (player(engine), player(!engine)) {
        (Player::Engine(strength), Player::Human) => {
            strength.level.map(|l| (engine, l)).ok_or_else(refuse)
        }
        _ => Err(refuse()),
    }
}

/// The record's first game, played through: a game that breaks the rules is refused,
/// named with the move.
fn first_record(text: &str) -> Result<GameRecord, String> {
    match read_games(text).next() {
        Some(Ok(checked)) => Ok(checked.record),
        Some(Err(e)) => Err(format!("bad record: {e}")),
        None => Err("the record holds no game".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lineup::Player;

    fn new_game(json: &str) -> Result<GameSetup, String> {
        serde_json::from_str::<NewGame>(json)
            .map_err(|e| e.to_string())?
            .check()
    }

    #[test]
    fn a_records_player_names_are_shown_on_one_line_and_cut_short() {
        let name = |text: &str| record_name(Some(text));
        assert_eq!(
            name("  Mark\tH. M.\r\n Winands "),
            Some("Mark H. M. Winands".into())
        );
        assert_eq!(name("Bob\u{7}\u{1b}[31m"), Some("Bob [31m".into()));
        assert_eq!(name(" \n\t "), None);
        assert_eq!(record_name(None), None);
        let long = name(&"é".repeat(100)).unwrap();
        assert_eq!(long.chars().count(), MAX_RECORD_NAME);
        // Cut at a space: no space left at the end.
        let cut = name(&format!("{} b", "a".repeat(MAX_RECORD_NAME - 1))).unwrap();
        assert_eq!(cut, "a".repeat(MAX_RECORD_NAME - 1));
        let setup = new_game(
            r#"{"record":"(;GM[9]PB[Ann\nSubject: win]PW[Bob];B[b1-b3])","black":"human","white":"human"}"#,
        );
        assert_eq!(
            setup.unwrap().names,
            [Some("Ann Subject: win".into()), Some("Bob".into())]
        );
    }

    #[test]
    fn a_game_against_the_engine() {
        let setup = new_game(r#"{"black":"human","white":{"engine":{"level":3}}}"#).unwrap();
        assert_eq!(setup.variant, loa_core::Variant::Standard);
        assert_eq!(setup.game.rules(), loa_core::RuleSet::Draw);
        let engine = Player::Engine(crate::levels::Strength::level(3));
        assert_eq!(setup.lineup.white, SidePlayers::One(engine));
    }

    #[test]
    fn four_seats_for_ambiloa() {
        let setup = new_game(
            r#"{"variant":"ambiloa","black":["human",{"engine":{"level":1}}],"white":"human"}"#,
        )
        .unwrap();
        assert_eq!(setup.lineup.human_slots().len(), 2);
        assert!(new_game(r#"{"black":["human","human"],"white":"human"}"#).is_err());
    }

    #[test]
    fn moves_and_records_are_played_from_the_start() {
        let setup =
            new_game(r#"{"black":"human","white":"human","moves":["b1-b3","a2-c2"]}"#).unwrap();
        assert_eq!(setup.game.ply(), 2);
        let err =
            new_game(r#"{"black":"human","white":"human","moves":["b1-b3","b3-b5"]}"#).unwrap_err();
        assert!(err.starts_with("move 2:"), "{err}");
        let record =
            r#"{"black":"human","white":"human","record":"[Event \"x\"]\n\n1. b1-b3 a2-c2 *"}"#;
        assert_eq!(new_game(record).unwrap().game.ply(), 2);
    }

    #[test]
    fn bad_setups_are_refused_with_a_reason() {
        for (json, expected) in [
            (
                r#"{"black":"human","white":"human","variant":"chess"}"#,
                "unknown variant",
            ),
            (r#"{"black":"human","white":"human","rules":"x"}"#, "rule"),
            (
                r#"{"black":"human","white":"human","board":9}"#,
                "board is 6, 7 or 8",
            ),
            (
                r#"{"black":"human","white":"human","variant":"parachute","board":6}"#,
                "8x8 only",
            ),
            (
                r#"{"black":"human","white":"human","position":"zz"}"#,
                "bad position text",
            ),
            (
                r#"{"black":"human","white":{"engine":{"level":0}}}"#,
                "level is from 1",
            ),
            (
                r#"{"black":{"engine":{"level":1}},"white":{"engine":{"level":1}},"online":true}"#,
                "online",
            ),
            (
                r#"{"black":"human","white":"human","clock":{"kind":"live","initial_s":0,"increment_s":0}}"#,
                "live clock",
            ),
            (
                r#"{"black":"human","white":"human","record":"(;GM[1])"}"#,
                "bad record",
            ),
        ] {
            let err = new_game(json).unwrap_err();
            assert!(err.contains(expected), "{json}: {err}");
        }
    }
}
