//! A line of play as every request names it (a game to make, a position to describe or
//! to analyse): the variant, the rule set, the board or a start in position text, and the
//! moves from it. Read by serde into a [`LineSpec`], checked once into a [`Line`] whose
//! moves are played once.

use loa_core::{Game, RuleSet, Variant, VariantPosition};
use serde::de::IgnoredAny;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The most moves a line may have.
pub const MAX_LINE_MOVES: usize = 2_000;

/// The fields a request names its line with. Flattened into each request's body, so it
/// cannot refuse unknown fields itself: each body keeps the rest in an [`Unknown`].
#[derive(Clone, Debug, Default, Deserialize)]
pub struct LineSpec {
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
    /// Moves played from the start.
    #[serde(default)]
    pub moves: Vec<String>,
}

/// The fields of a body that no part of it named: refused, as everywhere in the API.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(transparent)]
pub struct Unknown(BTreeMap<String, IgnoredAny>);

impl Unknown {
    /// The first unknown field's name, if there is one.
    pub fn first(&self) -> Option<&str> {
        self.0.keys().next().map(String::as_str)
    }

    /// Refuses the body if it has a field nothing named, saying which.
    pub fn refuse(&self) -> Result<(), String> {
        match self.first() {
            None => Ok(()),
            Some(field) => Err(format!("unknown field `{}`", loa_core::excerpt(field))),
        }
    }
}

/// A checked line: its variant and the game played along it.
#[derive(Clone, Debug)]
pub struct Line {
    pub variant: Variant,
    pub game: Game<VariantPosition>,
}

impl LineSpec {
    pub fn variant(&self) -> Result<Variant, String> {
        variant_named(self.variant.as_deref())
    }

    pub fn rules(&self) -> Result<RuleSet, String> {
        rules_named(self.rules.as_deref())
    }

    /// The line checked: every move legal where it is played, each played once.
    pub fn check(&self) -> Result<Line, String> {
        let variant = self.variant()?;
        let start = variant
            .setup(self.board, self.position.as_deref())
            .map_err(|e| e.to_string())?;
        Line::play(variant, start, self.rules()?, &self.moves)
    }
}

impl Line {
    /// Plays the moves, given as text, from `start`.
    pub fn play(
        variant: Variant,
        start: VariantPosition,
        rules: RuleSet,
        moves: &[String],
    ) -> Result<Line, String> {
        if moves.len() > MAX_LINE_MOVES {
            return Err(format!("at most {MAX_LINE_MOVES} moves"));
        }
        let mut game = Game::new(start, rules);
        for (i, text) in moves.iter().enumerate() {
            game.play_text(text)
                .map_err(|e| format!("move {}: {e}", i + 1))?;
        }
        Ok(Line { variant, game })
    }

    /// Plays moves already read (a record's) from `start`.
    pub fn of_moves(
        variant: Variant,
        start: VariantPosition,
        rules: RuleSet,
        moves: &[loa_core::Move],
    ) -> Result<Line, String> {
        if moves.len() > MAX_LINE_MOVES {
            return Err(format!("at most {MAX_LINE_MOVES} moves"));
        }
        let mut game = Game::new(start, rules);
        for (i, &mv) in moves.iter().enumerate() {
            game.play(mv).map_err(|e| format!("move {}: {e}", i + 1))?;
        }
        Ok(Line { variant, game })
    }

    /// The position text at the start and after each move.
    pub fn texts(&self) -> Vec<String> {
        let mut texts: Vec<String> = self.game.line().map(|(pos, _)| pos.to_string()).collect();
        texts.push(self.game.position().to_string());
        texts
    }
}

/// The variant a request names: the standard game when it names none.
pub fn variant_named(name: Option<&str>) -> Result<Variant, String> {
    name.map_or(Ok(Variant::Standard), |name| {
        name.parse::<Variant>().map_err(|e| e.to_string())
    })
}

/// The rule set a request names: `draw` when it names none.
pub fn rules_named(name: Option<&str>) -> Result<RuleSet, String> {
    name.map_or(Ok(RuleSet::Draw), |name| {
        name.parse::<RuleSet>().map_err(|e| e.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use loa_core::GameState;

    #[derive(Deserialize)]
    struct Body {
        #[serde(flatten)]
        line: LineSpec,
        #[serde(default)]
        depth: Option<u32>,
        #[serde(flatten)]
        unknown: Unknown,
    }

    fn body(json: &str) -> Body {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_line_is_read_beside_a_bodys_own_fields_and_unknown_ones_are_kept_apart() {
        let b = body(r#"{"variant":"parachute","moves":["a2-a4@e5"],"depth":3,"colour":1}"#);
        assert_eq!(b.line.variant.as_deref(), Some("parachute"));
        assert_eq!(b.depth, Some(3));
        assert_eq!(b.unknown.first(), Some("colour"));
        assert_eq!(body(r#"{"depth":1}"#).unknown.first(), None);
        assert!(body("{}").line.moves.is_empty());
    }

    #[test]
    fn a_line_plays_its_moves_once_and_names_the_bad_one() {
        let line = body(r#"{"moves":["b1-b3","a2-c2"]}"#).line.check().unwrap();
        assert_eq!(line.game.ply(), 2);
        let texts = line.texts();
        assert_eq!(texts.len(), 3);
        assert_eq!(texts[0], "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b");
        let bad = body(r#"{"moves":["b1-b3","b3-b4"]}"#)
            .line
            .check()
            .unwrap_err();
        assert!(bad.starts_with("move 2: "), "{bad}");
        let small = body(r#"{"board":6}"#).line.check().unwrap();
        assert_eq!(small.game.position().size().side(), 6);
        for (json, error) in [
            (r#"{"board":9}"#, "board is 6, 7 or 8, not 9"),
            (
                r#"{"variant":"parachute","board":6}"#,
                "Parachute is played on 8x8 only",
            ),
            (r#"{"variant":"go"}"#, "go"),
            (r#"{"rules":"maybe"}"#, "maybe"),
        ] {
            let err = body(json).line.check().unwrap_err();
            assert!(err.contains(error), "{json}: {err}");
        }
        let long = vec!["pass".to_string(); MAX_LINE_MOVES + 1];
        let spec = LineSpec {
            moves: long,
            ..LineSpec::default()
        };
        assert_eq!(spec.check().unwrap_err(), "at most 2000 moves");
    }
}
