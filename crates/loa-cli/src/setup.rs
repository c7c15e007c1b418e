//! Choosing a position on the command line: position text, or a start and a board size.

use crate::numbers::whole_as;
use crate::output::say;
use anyhow::Result;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::Args;
use loa_core::{Color, GameState, RuleSet, Variant, VariantPosition};
use std::fmt::Debug;
use std::str::FromStr;

/// Where a game or a count starts.
#[derive(Args, Clone, Debug)]
pub struct PositionArgs {
    /// Position text of the variant, e.g. "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b".
    #[arg(long, conflicts_with = "board")]
    pub position: Option<String>,
    /// The variant: its rules, and its start unless --position gives one.
    #[arg(long, alias = "start", default_value = "standard", value_parser = variant_names())]
    pub variant: Variant,
    /// Board size: 6, 7 or 8 (the standard game and Scrambled Eggs; the others are 8x8).
    #[arg(long, default_value_t = 8, allow_negative_numbers = true,
          value_parser = whole_as(6u8, 8, "6, 7 or 8".into()))]
    pub board: u8,
}

impl PositionArgs {
    pub fn position(&self) -> Result<VariantPosition> {
        // clap refuses --board with --position, so only one of them is given.
        let board = self.position.is_none().then_some(self.board);
        Ok(self.variant.setup(board, self.position.as_deref())?)
    }
}

/// Values by name, as clap lists and reads them: each name is one that `T` reads.
fn by_name<T>(
    names: impl IntoIterator<Item = impl Into<PossibleValue>>,
) -> impl TypedValueParser<Value = T>
where
    T: FromStr<Err: Debug> + Clone + Send + Sync + 'static,
{
    PossibleValuesParser::new(names).map(|name| name.parse::<T>().expect("one of the names"))
}

/// The variants by name.
pub fn variant_names() -> impl TypedValueParser<Value = Variant> {
    by_name(Variant::ALL.map(Variant::name))
}

/// The rule sets by name, each said in words.
pub fn rule_sets() -> impl TypedValueParser<Value = RuleSet> {
    by_name([
        PossibleValue::new("draw")
            .help("A simultaneous connection is a draw (Computer Olympiad, MSO)"),
        PossibleValue::new("mover-wins")
            .help("A simultaneous connection wins for the mover (A Gamut of Games, 2nd ed.)"),
    ])
}

/// The sides by name.
pub fn colors() -> impl TypedValueParser<Value = Color> {
    by_name(Color::ALL.map(Color::id))
}

#[derive(Args)]
pub struct MovesArgs {
    /// Position text (quoted, or as words: placement, side to move, and any fields the
    /// variant adds).
    #[arg(required = true, num_args = 1..)]
    position: Vec<String>,
    /// The variant the position is of.
    #[arg(long, default_value = "standard", value_parser = variant_names())]
    variant: Variant,
    /// What a simultaneous connection means, for a position where the game is over.
    #[arg(long, default_value = "draw", value_parser = rule_sets())]
    rules: RuleSet,
}

pub fn moves(args: MovesArgs) -> Result<()> {
    let pos = args.variant.setup(None, Some(&args.position.join(" ")))?;
    if let Some(outcome) = pos.outcome(args.rules) {
        say!("The game is over: {outcome}.");
        return Ok(());
    }
    // A side without a move passes, or has lost (Fields of Action): never an empty list.
    let moves: Vec<String> = pos.moves().iter().map(|m| m.to_string()).collect();
    say!("{}", moves.join(" "));
    Ok(())
}
