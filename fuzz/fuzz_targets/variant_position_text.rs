//! Position text of the variants with rules of their own (Parachute, AmbiLOA, Neighbors,
//! Fields of Action): the first byte picks the variant, the rest is read as its position
//! text. Whatever is accepted must print and read back the same position with the same
//! hash, and the moves and the end of the game must be found without a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use loa_core::{GameState, RuleSet, Variant, VariantPosition};

const VARIANTS: [Variant; 4] = [
    Variant::Parachute,
    Variant::AmbiLoa,
    Variant::Neighbors,
    Variant::FieldsOfAction,
];

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let variant = VARIANTS[usize::from(choice) % VARIANTS.len()];
    let text = String::from_utf8_lossy(rest);
    let Ok(pos) = VariantPosition::parse(variant, &text) else {
        return;
    };
    let printed = pos.to_string();
    let again = VariantPosition::parse(variant, &printed)
        .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, which is refused: {e}"));
    assert_eq!(again, pos, "{text:?}");
    assert_eq!(again.key(), pos.key(), "{text:?}");
    let moves = pos.moves();
    assert_eq!(moves.len() as u64, pos.count_moves(), "{printed}");
    for &mv in moves.iter().take(50) {
        assert!(pos.is_legal(mv), "{printed}: {mv}");
        assert_eq!(pos.parse_move(&mv.coordinate()), Ok(mv), "{printed}: {mv}");
        let after = pos.after(mv);
        let _ = after.outcome_after(mv, RuleSet::Draw);
        let _ = after.to_string();
    }
    let _ = pos.outcome(RuleSet::MoverWins);
    let _ = pos.diagram(loa_core::Bitboard::EMPTY);
});
