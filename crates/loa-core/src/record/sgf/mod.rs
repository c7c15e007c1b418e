//! SGF (`FF[4]`) game records for Lines of Action (`GM[9]`).
//!
//! Written:
//!
//! ```text
//! (;FF[4]GM[9]CA[UTF-8]AP[loa:0.1.0]SU[Standard]RU[draw]
//! PB[Kok]PW[Heppell]DT[2026-11-22]EV[MSO]RE[B+R]TERMINATION[resignation]TM[10]
//! OT[0.1 fischer]RO[3]
//! ;B[b1-b3];W[h4-f2];B[d1:a4];W[h2-e2]
//! )
//! ```
//!
//! `SU[Standard]` or `SU[Scrambled-eggs]` names the start (with `SZ[6]`/`SZ[7]` on a small
//! board); any other start is `SU[Custom]` with `AB`/`AW` lists and `PL[B]`/`PL[W]`. Moves
//! are `from-to`, captures `from:to`, a forced pass `pass`. The result is `RE[B+]`,
//! `RE[W+]`, `RE[0]` (draw) or `RE[?]`, with `R`, `T` or `F` after the `+` for a
//! resignation, a time forfeit or another forfeit; the termination in words is kept in the
//! custom property `TERMINATION`. A time control `base+increment` in seconds is
//! `TM[base]OT[increment fischer]`. Other tags are written as properties when their name
//! is an SGF property name, and as `TAG[Name:value]` otherwise. Reading also takes FF[3]
//! names (`GaMe`), moves written `B[c1 a3]`, and `B[Resign]`/`W[Forfeit]`. See
//! `docs/records.md`.

mod lex;
mod read;
mod tree;
mod write;

pub(crate) use lex::{ident, lex, Lexed, Lexeme};
pub(crate) use read::read;
pub use write::write;

/// A decimal number of seconds such as `10` or `0.1`, as time control properties hold.
fn is_number(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_digit())
        && s.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && s.bytes().filter(|&b| b == b'.').count() <= 1
        && !s.ends_with('.')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::GameRecord;
    use crate::{Position, RuleSet};

    #[test]
    fn writes_the_expected_header() {
        let mut record = GameRecord::new(Position::startpos(), RuleSet::Draw);
        record.black = Some("A]b".to_string());
        let sgf = write(&record);
        assert!(sgf.starts_with("(;FF[4]GM[9]CA[UTF-8]AP[loa:"), "{sgf}");
        assert!(sgf.contains("SU[Standard]RU[draw]"), "{sgf}");
        assert!(sgf.contains("PB[A\\]b]"), "{sgf}");
        assert!(sgf.contains("RE[?]"), "{sgf}");
        let read: Vec<GameRecord> = crate::record::read_games(&sgf)
            .map(|game| game.unwrap().record)
            .collect();
        assert_eq!(read, vec![record]);
    }
}
