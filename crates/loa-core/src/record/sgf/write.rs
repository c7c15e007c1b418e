//! Writing SGF.

use super::is_number;
use crate::record::{date_to_sgf, termination_code, GameRecord, SHARED_TAGS};
use crate::{BoardSize, Color, GameState};
use std::fmt::Write as _;

/// Properties the writer writes itself or reads into the record's own fields.
const OWN: [&str; 20] = [
    "FF",
    "GM",
    "CA",
    "AP",
    "SU",
    "SZ",
    "AB",
    "AW",
    "AE",
    "PL",
    "RU",
    "PB",
    "PW",
    "DT",
    "EV",
    "RE",
    "TM",
    "TERMINATION",
    "B",
    "W",
];

/// Writes one game.
pub fn write(record: &GameRecord) -> String {
    let mut out = String::new();
    let start = &record.start;
    let size = start.size();
    let _ = write!(
        out,
        "(;FF[4]GM[9]CA[UTF-8]AP[loa:{}]",
        env!("CARGO_PKG_VERSION")
    );
    let named = record.named_start();
    let standard_rules = start.variant().has_standard_rules();
    match (named, standard_rules) {
        (Some(variant), _) => out.push_str(&format!("SU[{}]", variant.sgf_name())),
        (None, true) => out.push_str("SU[Custom]"),
        (None, false) => out.push_str(&format!("SU[{}]", start.variant().sgf_name())),
    }
    if size != BoardSize::Eight {
        let _ = write!(out, "SZ[{}]", size.side());
    }
    if named.is_none() && !standard_rules {
        // Kinds, numbers and reserves have no SGF setup properties: the position text.
        let _ = write!(out, "\nFEN[{start}]");
    } else if named.is_none() {
        for (ident, color) in [("AB", Color::Black), ("AW", Color::White)] {
            out.push('\n');
            out.push_str(ident);
            for sq in start.pieces(color) {
                let _ = write!(out, "[{sq}]");
            }
        }
        out.push_str(match start.side_to_move() {
            Color::Black => "PL[B]",
            Color::White => "PL[W]",
        });
    }
    let _ = write!(out, "RU[{}]", record.rules);

    let mut info: Vec<(String, Vec<String>)> = Vec::new();
    let mut add = |ident: &str, value: String| match info.iter_mut().find(|(k, _)| k == ident) {
        Some((_, values)) => values.push(value),
        None => info.push((ident.to_string(), vec![value])),
    };
    if let Some(v) = &record.black {
        add("PB", v.clone());
    }
    if let Some(v) = &record.white {
        add("PW", v.clone());
    }
    if let Some(v) = &record.date {
        add("DT", date_to_sgf(v));
    }
    if let Some(v) = &record.event {
        add("EV", v.clone());
    }
    let mut re = record.result.sgf().to_string();
    if record.result.winner().is_some_and(|w| w.is_some()) {
        if let Some(code) = record.termination.as_deref().and_then(termination_code) {
            re.push_str(code);
        }
    }
    add("RE", re);
    if let Some(v) = &record.termination {
        add("TERMINATION", v.clone());
    }
    let mut writes_ot = false;
    if let Some(tc) = &record.time_control {
        match split_time_control(tc) {
            Some((base, inc)) => {
                add("TM", base.to_string());
                if let Some(inc) = inc {
                    add("OT", format!("{inc} fischer"));
                    writes_ot = true;
                }
            }
            None => add("TAG", format!("TimeControl:{tc}")),
        }
    }
    for (key, value) in &record.extra {
        if let Some((ident, _)) = SHARED_TAGS.iter().find(|(_, tag)| tag == key) {
            add(ident, value.clone());
        } else if is_ident(key) && !OWN.contains(&key.as_str()) && !(key == "OT" && writes_ot) {
            add(key, value.clone());
        } else {
            // The name ends at the first ':', so it cannot hold one.
            add("TAG", format!("{}:{value}", key.replace(':', "_")));
        }
    }
    // Extra tags without a property of their own come last, together.
    if let Some(i) = info.iter().position(|(k, _)| k == "TAG") {
        let tags = info.remove(i);
        info.push(tags);
    }
    let mut line = String::new();
    for (ident, values) in &info {
        let mut prop = ident.clone();
        for v in values {
            let _ = write!(prop, "[{}]", escape(v));
        }
        if !line.is_empty() && line.chars().count() + prop.chars().count() > 78 {
            out.push('\n');
            out.push_str(&line);
            line.clear();
        }
        line.push_str(&prop);
    }
    if !line.is_empty() {
        out.push('\n');
        out.push_str(&line);
    }

    let mut side = start.side_to_move();
    let mut line = String::new();
    for (i, mv) in record.moves.iter().enumerate() {
        let mut text = if mv.is_pass() {
            "pass".to_string()
        } else {
            let sep = if mv.is_capture() { ':' } else { '-' };
            format!("{}{sep}{}", mv.from(), mv.to())
        };
        if let Some(square) = mv.drop() {
            let _ = write!(text, "@{square}");
        }
        let mut node = format!(";{}[{text}]", if side == Color::Black { 'B' } else { 'W' });
        if let Some(comment) = record.comments.get(&i) {
            let _ = write!(node, "C[{}]", escape(comment));
        }
        if line.len() + node.len() > 78 {
            out.push('\n');
            out.push_str(&line);
            line.clear();
        }
        line.push_str(&node);
        side = !side;
    }
    if !line.is_empty() {
        out.push('\n');
        out.push_str(&line);
    }
    out.push_str("\n)\n");
    out
}

/// `10+0.1` as `("10", Some("0.1"))`, `60` as `("60", None)`; `None` when it is not
/// seconds plus increment.
fn split_time_control(tc: &str) -> Option<(&str, Option<&str>)> {
    let (base, inc) = match tc.split_once('+') {
        Some((b, i)) => (b, Some(i)),
        None => (tc, None),
    };
    (is_number(base) && inc.is_none_or(is_number)).then_some((base, inc))
}

fn is_ident(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_uppercase())
}

fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_follow_their_moves() {
        let start = crate::Position::startpos();
        let mut record = GameRecord::new(start, crate::RuleSet::Draw);
        let mut game = crate::Game::new(start, crate::RuleSet::Draw);
        for text in ["b1-d3", "a2-c2"] {
            record.moves.push(game.play_text(text).unwrap());
        }
        record.comments.insert(1, "Blunder] \\ b1".to_string());
        let sgf = write(&record);
        assert!(
            sgf.contains(";B[b1-d3];W[a2-c2]C[Blunder\\] \\\\ b1]"),
            "{sgf}"
        );
        let read = crate::record::read_games(&sgf)
            .next()
            .unwrap()
            .unwrap()
            .record;
        assert_eq!(read.moves, record.moves);
        assert!(read.extra.is_empty(), "{:?}", read.extra);
    }

    #[test]
    fn time_controls() {
        assert_eq!(split_time_control("10+0.1"), Some(("10", Some("0.1"))));
        assert_eq!(split_time_control("60"), Some(("60", None)));
        assert_eq!(split_time_control("40/60"), None);
        assert_eq!(split_time_control("inf"), None);
        assert_eq!(split_time_control("1.+2"), None);
    }
}
