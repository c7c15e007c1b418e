//! Turn text in the variants with rules of their own: the first byte picks one of a few
//! fixed positions (each variant's start, Parachute with a forced pass and with empty
//! reserves, an AmbiLOA lost turn, Fields of Action after some moves), the rest is read
//! as a turn. A turn that parses must be legal and read back from both of its written
//! forms; a refused text must name no legal turn.

#![no_main]

use libfuzzer_sys::fuzz_target;
use loa_core::{BoardSize, GameState, Move, MoveText, TurnText, Variant, VariantPosition};
use std::sync::OnceLock;

fn positions() -> &'static [VariantPosition] {
    static POSITIONS: OnceLock<Vec<VariantPosition>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        let mut set: Vec<VariantPosition> = [
            Variant::Parachute,
            Variant::AmbiLoa,
            Variant::Neighbors,
            Variant::FieldsOfAction,
        ]
        .iter()
        .map(|v| v.start(BoardSize::Eight).expect("an 8x8 start"))
        .collect();
        for (variant, text) in [
            (Variant::Parachute, "7w/8/8/8/8/8/ww6/bw6 b 1 1"),
            (Variant::Parachute, "8/w6b/b6w/w6b/b6w/w6b/b6w/8 b 6 0"),
            (Variant::AmbiLoa, "8/7B/W7/8/8/8/6W1/2B5 b"),
            (Variant::FieldsOfAction, "HGFE4/4LKJI/1CBA4/D7/8/4abcd/ijkl3h/4efg1 b"),
        ] {
            set.push(VariantPosition::parse(variant, text).expect("fixed position"));
        }
        set
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let set = positions();
    let pos = &set[usize::from(choice) % set.len()];
    let text = String::from_utf8_lossy(rest);
    let legal = pos.moves();

    // The legal turn the text names, if any.
    let expected: Option<Move> = TurnText::parse(&text).ok().and_then(|turn| {
        legal.iter().copied().find(|m| {
            let step = match turn.step {
                MoveText::Pass => m.is_pass(),
                MoveText::Step { from, to, capture } => {
                    !m.is_pass()
                        && m.from() == from
                        && m.to() == to
                        && (capture != Some(true) || m.is_capture())
                }
            };
            step && m.drop() == turn.drop
        })
    });

    match pos.parse_move(&text) {
        Ok(mv) => {
            assert!(legal.contains(&mv), "{pos}: {text:?} read as illegal {mv}");
            assert_eq!(Some(mv), expected, "{pos}: {text:?} read as {mv}");
            assert_eq!(pos.parse_move(&mv.to_string()), Ok(mv), "{pos}: {mv}");
            assert_eq!(pos.parse_move(&mv.coordinate()), Ok(mv), "{pos}: {mv}");
        }
        Err(e) => {
            assert_eq!(expected, None, "{pos}: {text:?} names a legal turn: {e}");
            let _ = e.to_string();
        }
    }
});
