//! Options: how an engine declares them (`option name ... type ...`), and the table of
//! this engine's own, from which its declarations are printed and `setoption` is checked.

use crate::ProtocolError;
use loa_core::{excerpt, RuleSet, Variant};
use loa_engine::{MAX_HASH_MB, MAX_LEVEL};
use std::fmt;
use std::str::FromStr;

/// An option as an engine declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    pub name: String,
    pub kind: OptionKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Spin { default: i64, min: i64, max: i64 },
    Combo { default: String, vars: Vec<String> },
    Check { default: bool },
    String { default: String },
    Button,
}

impl fmt::Display for OptionDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::String { default } => write!(f, "string default {default}"),
            OptionKind::Button => f.write_str("button"),
        }
    }
}

impl FromStr for OptionDecl {
    type Err = ProtocolError;

    /// Reads `option name <name> type <type> [default <d>] [min <n>] [max <n>] [var <v>]...`;
    /// names may hold spaces.
    fn from_str(line: &str) -> Result<OptionDecl, ProtocolError> {
        let bad = || ProtocolError::new(format!("a malformed option: '{}'", excerpt(line)));
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = |word: &str| words.iter().position(|w| *w == word);
        let (name_at, type_at) = (at("name").ok_or_else(bad)?, at("type").ok_or_else(bad)?);
        if words.first() != Some(&"option") || name_at + 1 >= type_at {
            return Err(bad());
        }
        let name = words[name_at + 1..type_at].join(" ");
        let rest = &words[type_at + 1..];
        let value_of = |key: &str| {
            rest.iter()
                .position(|w| *w == key)
                .and_then(|i| rest.get(i + 1).copied())
        };
        let number = |key: &str| value_of(key).and_then(|v| v.parse::<i64>().ok());
        let kind = match rest.first().copied() {
            Some("spin") => OptionKind::Spin {
                default: number("default").ok_or_else(bad)?,
                min: number("min").ok_or_else(bad)?,
                max: number("max").ok_or_else(bad)?,
            },
            Some("combo") => OptionKind::Combo {
                default: value_of("default").ok_or_else(bad)?.to_string(),
                vars: rest
                    .windows(2)
                    .filter(|w| w[0] == "var")
                    .map(|w| w[1].to_string())
                    .collect(),
            },
            Some("check") => OptionKind::Check {
                default: value_of("default") == Some("true"),
            },
            Some("string") => OptionKind::String {
                default: value_of("default").unwrap_or_default().to_string(),
            },
            Some("button") => OptionKind::Button,
            _ => return Err(bad()),
        };
        Ok(OptionDecl { name, kind })
    }
}

/// The options of this engine, in the order of its handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineOption {
    /// Transposition table size in MiB.
    Hash,
    /// Search threads (lazy SMP).
    Threads,
    /// Milliseconds kept in hand on every move for the time the move takes to arrive.
    MoveOverhead,
    /// What a simultaneous connection means.
    SimultaneousConnection,
    /// The variant played (the name chess-variant engines and GUIs use).
    Variant,
    /// Play as one of the site's strength levels (1-8; 0: full strength, the default).
    Level,
    /// Draw the move among the root's moves, each weighted `exp((score - best) / Spread)`
    /// (centipawns; 0: play the best), for a weaker opponent or varied games.
    Spread,
    /// Play a random legal move at once: a baseline to measure against.
    RandomMoves,
    /// Run the proof-number solver beside the search, on a thread of its own.
    Solver,
}

/// A checked value of one of this engine's options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Number(u64),
    Rules(RuleSet),
    /// A variant, and the rule set its name implies where `SimultaneousConnection` was
    /// not set.
    Variant(Variant, RuleSet),
    Flag(bool),
}

/// The name chess GUIs give Lines of Action (cutechess's `UCI_Variant` value): the
/// standard game, with a simultaneous connection won by the mover, as their referee
/// scores it.
pub const CHESS_GUI_VARIANT: &str = "linesofaction";

/// The variant `UCI_Variant` names, and the rule set the name implies.
fn variant_named(name: &str) -> Result<(Variant, RuleSet), loa_core::UnknownVariant> {
    if name.eq_ignore_ascii_case(CHESS_GUI_VARIANT) {
        return Ok((Variant::Standard, RuleSet::MoverWins));
    }
    Ok((name.parse()?, RuleSet::default()))
}

impl EngineOption {
    pub const ALL: [EngineOption; 9] = [
        EngineOption::Hash,
        EngineOption::Threads,
        EngineOption::MoveOverhead,
        EngineOption::SimultaneousConnection,
        EngineOption::Variant,
        EngineOption::Level,
        EngineOption::Spread,
        EngineOption::RandomMoves,
        EngineOption::Solver,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            EngineOption::Hash => "Hash",
            EngineOption::Threads => "Threads",
            EngineOption::MoveOverhead => "MoveOverhead",
            EngineOption::SimultaneousConnection => "SimultaneousConnection",
            EngineOption::Variant => "UCI_Variant",
            EngineOption::Level => "Level",
            EngineOption::Spread => "Spread",
            EngineOption::RandomMoves => "RandomMoves",
            EngineOption::Solver => "Solver",
        }
    }

    /// The declaration the handshake prints: the one place the type, the default and
    /// the range are written.
    pub fn decl(self) -> OptionDecl {
        let spin = |default, min, max| OptionKind::Spin { default, min, max };
        let kind = match self {
            EngineOption::Hash => spin(64, 1, MAX_HASH_MB as i64),
            EngineOption::Threads => spin(1, 1, 256),
            EngineOption::MoveOverhead => spin(10, 0, 10_000),
            EngineOption::Level => spin(0, 0, i64::from(MAX_LEVEL)),
            EngineOption::Spread => spin(0, 0, 10_000),
            EngineOption::SimultaneousConnection => OptionKind::Combo {
                default: RuleSet::Draw.name().to_string(),
                vars: [RuleSet::Draw, RuleSet::MoverWins]
                    .map(|r| r.name().to_string())
                    .to_vec(),
            },
            EngineOption::Variant => OptionKind::Combo {
                default: Variant::Standard.name().to_string(),
                vars: Variant::ALL
                    .map(|v| v.name().to_string())
                    .into_iter()
                    .chain([CHESS_GUI_VARIANT.to_string()])
                    .collect(),
            },
            EngineOption::RandomMoves | EngineOption::Solver => {
                OptionKind::Check { default: false }
            }
        };
        OptionDecl {
            name: self.name().to_string(),
            kind,
        }
    }

    /// The option of that name, in any case.
    pub fn named(name: &str) -> Result<EngineOption, ProtocolError> {
        EngineOption::ALL
            .into_iter()
            .find(|o| o.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let names: Vec<&str> = EngineOption::ALL.iter().map(|o| o.name()).collect();
                ProtocolError::new(format!(
                    "setoption: unknown option '{}' (options: {})",
                    excerpt(name),
                    names.join(", ")
                ))
            })
    }

    /// The default value.
    pub fn default_value(self) -> OptionValue {
        match self {
            EngineOption::SimultaneousConnection => OptionValue::Rules(RuleSet::default()),
            EngineOption::Variant => OptionValue::Variant(Variant::default(), RuleSet::default()),
            EngineOption::RandomMoves | EngineOption::Solver => OptionValue::Flag(false),
            _ => match self.decl().kind {
                OptionKind::Spin { default, .. } => OptionValue::Number(default as u64),
                kind => unreachable!("{kind:?} of a spin option"),
            },
        }
    }

    /// Checks a value against the declaration.
    pub fn value(self, value: Option<&str>) -> Result<OptionValue, ProtocolError> {
        let name = self.name();
        let Some(value) = value else {
            return Err(ProtocolError::new(format!(
                "setoption: option {name} needs a value ('value <v>')"
            )));
        };
        match self.decl().kind {
            OptionKind::Spin { min, max, .. } => {
                let n: i64 = value.parse().map_err(|_| {
                    ProtocolError::new(format!(
                        "setoption: {name} value '{}' is not a whole number from {min} to {max}",
                        excerpt(value)
                    ))
                })?;
                if !(min..=max).contains(&n) {
                    return Err(ProtocolError::new(format!(
                        "setoption: {name} value {n} is out of range: it must be from {min} \
                         to {max}"
                    )));
                }
                Ok(OptionValue::Number(n as u64))
            }
            _ => match self {
                EngineOption::Variant => variant_named(value)
                    .map(|(variant, rules)| OptionValue::Variant(variant, rules))
                    .map_err(|e| {
                        ProtocolError::new(format!(
                            "setoption: {name}: {e} or {CHESS_GUI_VARIANT} (the standard game \
                             under mover-wins)"
                        ))
                    }),
                EngineOption::RandomMoves | EngineOption::Solver => {
                    match value.to_ascii_lowercase().as_str() {
                        "true" => Ok(OptionValue::Flag(true)),
                        "false" => Ok(OptionValue::Flag(false)),
                        _ => Err(ProtocolError::new(format!(
                            "setoption: {name} value '{}' must be true or false",
                            excerpt(value)
                        ))),
                    }
                }
                _ => value
                    .parse::<RuleSet>()
                    .map(OptionValue::Rules)
                    .map_err(|e| ProtocolError::new(format!("setoption: {name}: {e}"))),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_read_back() {
        for option in EngineOption::ALL {
            let line = option.decl().to_string();
            assert_eq!(line.parse::<OptionDecl>(), Ok(option.decl()), "{line}");
        }
        assert_eq!(
            EngineOption::Hash.decl().to_string(),
            "option name Hash type spin default 64 min 1 max 65536"
        );
        let decl: OptionDecl = "option name Move Overhead type spin default 10 min 0 max 5000"
            .parse()
            .unwrap();
        assert_eq!(decl.name, "Move Overhead");
        assert!("option name X".parse::<OptionDecl>().is_err());
    }

    #[test]
    fn values_are_checked_against_the_table() {
        let hash = EngineOption::named("hash").unwrap();
        assert_eq!(hash.value(Some("16")), Ok(OptionValue::Number(16)));
        let err = |option: EngineOption, value: Option<&str>| option.value(value).unwrap_err().0;
        assert!(err(hash, Some("0")).contains("out of range"));
        assert!(err(hash, Some("x")).contains("not a whole number"));
        assert!(err(hash, None).contains("needs a value"));
        assert!(err(EngineOption::Threads, Some("257")).contains("from 1 to 256"));
        let rules = EngineOption::named("SIMULTANEOUSCONNECTION").unwrap();
        assert_eq!(
            rules.value(Some("Mover-Wins")),
            Ok(OptionValue::Rules(RuleSet::MoverWins))
        );
        assert!(err(rules, Some("x")).contains("unknown rule set"));
        let variant = EngineOption::named("uci_variant").unwrap();
        assert_eq!(
            variant.value(Some("LinesOfAction")),
            Ok(OptionValue::Variant(Variant::Standard, RuleSet::MoverWins))
        );
        assert_eq!(
            variant.value(Some("scrambled-eggs")),
            Ok(OptionValue::Variant(Variant::ScrambledEggs, RuleSet::Draw))
        );
        assert!(err(variant, Some("chess")).contains("or linesofaction"));
        assert!(EngineOption::named("Foo")
            .unwrap_err()
            .0
            .contains("unknown option 'Foo'"));
    }
}
