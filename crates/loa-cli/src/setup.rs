//! Choosing a position on the command line: position text, or a start and a board size.

use crate::output::say;
use anyhow::{Context, Result};
use clap::builder::TypedValueParser;
use clap::{Args, ValueEnum};
use loa_core::{BoardSize, Position, RuleSet, Variant};

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum RulesArg {
    /// A simultaneous connection is a draw (Computer Olympiad, MSO).
    Draw,
    /// A simultaneous connection wins for the mover (A Gamut of Games, 2nd ed.).
    MoverWins,
}

impl From<RulesArg> for RuleSet {
    fn from(arg: RulesArg) -> RuleSet {
        match arg {
            RulesArg::Draw => RuleSet::Draw,
            RulesArg::MoverWins => RuleSet::MoverWins,
        }
    }
}

/// Where a game or a count starts.
#[derive(Args, Clone, Debug)]
pub struct PositionArgs {
    /// Position text, e.g. "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b".
    #[arg(long, conflicts_with_all = ["variant", "board"])]
    pub position: Option<String>,
    /// The variant, which sets the start.
    #[arg(long, alias = "start", default_value = "standard", value_parser = variant_names())]
    pub variant: Variant,
    /// Board size: 6, 7 or 8.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(6..=8))]
    pub board: u8,
}

impl PositionArgs {
    pub fn position(&self) -> Result<Position> {
        if let Some(text) = &self.position {
            return parse_position(text);
        }
        let size = BoardSize::from_len(usize::from(self.board)).expect("clap checks 6..=8");
        Ok(self.variant.start(size))
    }
}

/// The variants by name, as clap lists and reads them.
pub fn variant_names() -> impl TypedValueParser<Value = Variant> {
    clap::builder::PossibleValuesParser::new(Variant::ALL.map(Variant::name))
        .map(|name| name.parse::<Variant>().expect("one of the names"))
}

pub fn parse_position(text: &str) -> Result<Position> {
    text.parse()
        .with_context(|| format!("bad position text '{}'", loa_core::excerpt(text)))
}

#[derive(Args)]
pub struct MovesArgs {
    /// Position text (quoted, or as two words: placement and side to move).
    #[arg(required = true, num_args = 1..)]
    position: Vec<String>,
}

pub fn moves(args: MovesArgs) -> Result<()> {
    let pos = parse_position(&args.position.join(" "))?;
    let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    say!("{}", moves.join(" "));
    Ok(())
}
