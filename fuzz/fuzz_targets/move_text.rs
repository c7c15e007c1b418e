//! Move text: the first byte picks one of a few fixed positions (8x8, 6x6 and 7x7, the
//! standard and Scrambled Eggs starts, a middle game, a forced pass), the rest is read
//! as a move. A move that parses must be legal, and the reader must accept exactly the
//! legal moves that the text names.

#![no_main]

use libfuzzer_sys::fuzz_target;
use loa_core::{BoardSize, Move, MoveText, Position, Variant};
use std::sync::OnceLock;

fn positions() -> &'static [Position] {
    static POSITIONS: OnceLock<Vec<Position>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        let mut set = Vec::new();
        for size in BoardSize::ALL {
            set.push(Variant::Standard.standard_start(size).expect("a standard board"));
            set.push(Variant::ScrambledEggs.standard_start(size).expect("a standard board"));
        }
        for text in [
            // Middle games with captures on offer.
            "1bbbbbb1/w6w/w2b3w/w1w2w1w/w3b2w/w6w/w2w3b/1bb1b2b b",
            "1b2b1/w1b2w/w1w1bw/wb3w/w3bw/1w1b2 w",
            // Black has no move and must pass.
            "6/6/6/6/ww4/bw4 b",
        ] {
            set.push(text.parse().expect("fixed position"));
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

    let syntax = MoveText::parse(&text);
    let parsed = pos.parse_move(&text);
    let legal = pos.legal_moves();

    // What the reader should accept: the legal move the text names, if any.
    let expected: Option<Move> = match syntax {
        Err(_) => None,
        Ok(MoveText::Pass) => legal[0].is_pass().then_some(Move::PASS),
        Ok(MoveText::Step { from, to, capture }) => legal
            .iter()
            .copied()
            .find(|m| !m.is_pass() && m.from() == from && m.to() == to)
            .filter(|m| capture != Some(true) || m.is_capture()),
    };

    match parsed {
        Ok(mv) => {
            assert!(
                legal.contains(&mv),
                "{pos}: {text:?} read as {mv}, which is not a legal move"
            );
            assert_eq!(Some(mv), expected, "{pos}: {text:?} read as {mv}");
            assert_eq!(pos.parse_move(&mv.to_string()), Ok(mv), "{pos}: {mv}");
            assert_eq!(pos.parse_move(&mv.coordinate()), Ok(mv), "{pos}: {mv}");
        }
        Err(e) => {
            assert_eq!(
                expected, None,
                "{pos}: {text:?} names the legal move {expected:?} but was refused: {e}"
            );
            let _ = e.to_string();
        }
    }
});
