//! A new game as the API asks for it (`POST /api/games`), checked: the variant, rule set,
//! board and start, who plays each seat, the clock, and whether it is played online.

use crate::clock::TimeControl;
use crate::lineup::{Lineup, SidePlayers};
use loa_core::record::{parse_games, GameRecord};
use loa_core::{BoardSize, Game, GameState, RuleSet, Variant, VariantPosition};
use serde::Deserialize;

/// The most moves a game may be created with.
pub const MAX_SETUP_MOVES: usize = 2_000;

/// The body of `POST /api/games`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    #[serde(default)]
    pub variant: Option<String>,
    /// `draw` (the default) or `mover-wins`.
    #[serde(default)]
    pub rules: Option<String>,
    /// 6, 7 or 8 (the default).
    #[serde(default)]
    pub board: Option<u8>,
    /// A start in the variant's position text, instead of its usual start.
    #[serde(default)]
    pub position: Option<String>,
    /// Moves already played from the start.
    #[serde(default)]
    pub moves: Vec<String>,
    /// An SGF or PGN record to continue: its variant, rule set, start and moves.
    #[serde(default)]
    pub record: Option<String>,
    pub black: SidePlayers,
    pub white: SidePlayers,
    #[serde(default)]
    pub clock: Option<TimeControl>,
    /// Played between browsers: each person seat gets a token.
    #[serde(default)]
    pub online: bool,
}

/// A checked new game.
#[derive(Clone, Debug)]
pub struct GameSetup {
    pub variant: Variant,
    pub rules: RuleSet,
    pub start: VariantPosition,
    pub moves: Vec<loa_core::Move>,
    pub lineup: Lineup,
    pub clock: Option<TimeControl>,
    pub online: bool,
    /// Names from an imported record.
    pub names: [Option<String>; 2],
}

impl NewGame {
    pub fn check(self) -> Result<GameSetup, String> {
        let (variant, rules, start, moves, names) = match &self.record {
            Some(text) => {
                if self.variant.is_some() || self.position.is_some() || !self.moves.is_empty() {
                    return Err("a record brings its own variant, start and moves".into());
                }
                let record = first_record(text)?;
                let names = [record.black.clone(), record.white.clone()];
                let variant = record.variant();
                (variant, record.rules, record.start, record.moves, names)
            }
            None => {
                let variant = match &self.variant {
                    None => Variant::Standard,
                    Some(name) => name.parse::<Variant>().map_err(|e| e.to_string())?,
                };
                let rules = parse_rules(self.rules.as_deref())?;
                let start = start_position(variant, self.board, self.position.as_deref())?;
                let moves = read_moves(start, rules, &self.moves)?;
                (variant, rules, start, moves, [None, None])
            }
        };
        let rules = match (&self.record, self.rules.as_deref()) {
            (Some(_), Some(name)) => parse_rules(Some(name))?,
            _ => rules,
        };
        let mut game = Game::new(start, rules);
        for &mv in &moves {
            game.play(mv).map_err(|e| e.to_string())?;
        }
        let lineup = Lineup::new(variant, self.black, self.white)?;
        if self.online && !lineup.has_human() {
            return Err("an online game needs a person in at least one seat".into());
        }
        let clock = self.clock.map(TimeControl::validate).transpose()?;
        Ok(GameSetup {
            variant,
            rules,
            start,
            moves,
            lineup,
            clock,
            online: self.online,
            names,
        })
    }
}

fn first_record(text: &str) -> Result<GameRecord, String> {
    let games = parse_games(text).map_err(|e| format!("bad record: {e}"))?;
    match games.into_iter().next() {
        Some(Ok(record)) => Ok(record),
        Some(Err(e)) => Err(format!("bad record: {e}")),
        None => Err("the record holds no game".into()),
    }
}

pub fn parse_rules(name: Option<&str>) -> Result<RuleSet, String> {
    match name {
        None => Ok(RuleSet::Draw),
        Some(name) => name.parse::<RuleSet>().map_err(|e| e.to_string()),
    }
}

/// The start: position text of the variant, or its start on the board asked for.
pub fn start_position(
    variant: Variant,
    board: Option<u8>,
    text: Option<&str>,
) -> Result<VariantPosition, String> {
    if let Some(text) = text {
        let pos = VariantPosition::parse(variant, text).map_err(|e| {
            format!(
                "bad position text '{}' for {}: {e}",
                loa_core::excerpt(text),
                variant.title()
            )
        })?;
        if board.is_some_and(|b| b != pos.size().side()) {
            return Err("the board size differs from the position's".into());
        }
        return Ok(pos);
    }
    let side = board.unwrap_or(8);
    let size = BoardSize::from_len(usize::from(side))
        .ok_or_else(|| format!("board is 6, 7 or 8, not {side}"))?;
    variant
        .start(size)
        .ok_or_else(|| format!("{} is played on 8x8 only", variant.title()))
}

/// Reads moves from `start`, each legal where it is played.
pub fn read_moves(
    start: VariantPosition,
    rules: RuleSet,
    texts: &[String],
) -> Result<Vec<loa_core::Move>, String> {
    if texts.len() > MAX_SETUP_MOVES {
        return Err(format!("at most {MAX_SETUP_MOVES} moves"));
    }
    let mut game = Game::new(start, rules);
    texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            game.play_text(text)
                .map_err(|e| format!("move {}: {e}", i + 1))
        })
        .collect()
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
    fn a_game_against_the_engine() {
        let setup = new_game(r#"{"black":"human","white":{"engine":{"level":3}}}"#).unwrap();
        assert_eq!(setup.variant, Variant::Standard);
        assert_eq!(setup.rules, RuleSet::Draw);
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
        assert_eq!(setup.moves.len(), 2);
        let err =
            new_game(r#"{"black":"human","white":"human","moves":["b1-b3","b3-b5"]}"#).unwrap_err();
        assert!(err.starts_with("move 2:"), "{err}");
        let record =
            r#"{"black":"human","white":"human","record":"[Event \"x\"]\n\n1. b1-b3 a2-c2 *"}"#;
        assert_eq!(new_game(record).unwrap().moves.len(), 2);
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
