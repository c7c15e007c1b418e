//! Position text: arbitrary bytes read as text, and as a chess GUI's FEN. Whatever parses
//! must print back to text that parses to the same position, and move generation on it
//! must hold together.

#![no_main]

use libfuzzer_sys::fuzz_target;
use loa_core::{Position, RuleSet};
use std::str::FromStr;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(pos) = Position::from_chess_fen(text) {
        let fen = pos.chess_fen(0).to_string();
        assert_eq!(Position::from_chess_fen(&fen), Ok(pos), "{text:?} as {fen:?}");
    }
    let Ok(pos) = Position::from_str(text) else {
        return;
    };

    let printed = pos.to_string();
    let back = Position::from_str(&printed)
        .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, which does not parse: {e}"));
    assert_eq!(back, pos, "{text:?} printed as {printed:?}");
    assert_eq!(back.to_string(), printed);
    assert_eq!(pos.hash(), pos.compute_hash());

    let moves = pos.legal_moves();
    assert!(!moves.is_empty(), "{printed}: no moves and no pass");
    assert_eq!(moves.len() as u64, pos.count_moves(), "{printed}");
    assert_eq!(moves[0].is_pass(), pos.must_pass(), "{printed}");
    for &mv in moves.iter() {
        assert!(pos.is_legal(mv), "{printed}: generated {mv} is not legal");
        if !mv.is_pass() {
            assert!(
                pos.board().contains(mv.to()),
                "{printed}: {mv} leaves the board"
            );
        }
        let next = pos.after(mv);
        assert_eq!(
            next.hash(),
            next.compute_hash(),
            "{printed}: hash after {mv}"
        );
        assert_eq!(
            pos.parse_move(&mv.to_string()),
            Ok(mv),
            "{printed}: {mv} does not read back"
        );
    }
    let _ = pos.outcome(RuleSet::Draw);
    let _ = pos.outcome(RuleSet::MoverWins);
});
