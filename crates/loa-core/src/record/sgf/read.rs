//! Reading SGF: the collection split into game trees, then each main line read into a
//! record.

use super::is_number;
use crate::record::moves::{self, MoveReader};
use crate::record::{Format, GameRecord, RecordError, RecordResult, SHARED_TAGS};
use crate::{
    Bitboard, BoardSize, Color, MoveText, Position, RuleSet, Square, Variant, VariantPosition,
};

/// Reads every game tree of a collection; the first error is returned.
pub fn parse(text: &str) -> Result<Vec<GameRecord>, RecordError> {
    parse_games(text)?.into_iter().collect()
}

/// Reads every game tree of a collection, each game with its own result; the outer error
/// is a syntax error that stops the reading (an unclosed value or game tree).
pub fn parse_games(text: &str) -> Result<Vec<Result<GameRecord, RecordError>>, RecordError> {
    parse_games_as(text, Variant::Standard)
}

/// [`parse_games`], with games that name no variant (no `SU`) taken as games of
/// `default`.
pub fn parse_games_as(
    text: &str,
    default: Variant,
) -> Result<Vec<Result<GameRecord, RecordError>>, RecordError> {
    let trees = split(text)?;
    Ok(trees
        .iter()
        .enumerate()
        .map(|(i, tree)| read_game(text, tree, default).map_err(|e| e.in_game(i + 1)))
        .collect())
}

struct Value {
    text: String,
    /// Offset of the `[`.
    at: usize,
}

struct Prop {
    ident: String,
    at: usize,
    values: Vec<Value>,
}

struct Node {
    props: Vec<Prop>,
}

/// The main line of a game tree: at each fork, the first variation.
struct Tree {
    at: usize,
    nodes: Vec<Node>,
}

struct Frame {
    at: usize,
    main: bool,
    nodes: usize,
    children: usize,
}

/// Splits a collection into the main lines of its game trees. Text before the first
/// game tree and between game trees is skipped.
fn split(text: &str) -> Result<Vec<Tree>, RecordError> {
    let b = text.as_bytes();
    let err = |at: usize, message: String| RecordError::at(Format::Sgf, text, at, message);
    let mut trees = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    let mut tree = Tree {
        at: 0,
        nodes: Vec::new(),
    };
    let mut in_node = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let Some(frame) = frames.last_mut() else {
            if c == b'(' {
                frames.push(Frame {
                    at: i,
                    main: true,
                    nodes: 0,
                    children: 0,
                });
                tree = Tree {
                    at: i,
                    nodes: Vec::new(),
                };
                in_node = false;
            }
            i += 1;
            continue;
        };
        match c {
            b'(' => {
                if frame.nodes == 0 {
                    return Err(err(
                        i,
                        "a variation '(' before any node: a game tree starts with a node ';'"
                            .to_string(),
                    ));
                }
                let main = frame.main && frame.children == 0;
                frame.children += 1;
                frames.push(Frame {
                    at: i,
                    main,
                    nodes: 0,
                    children: 0,
                });
                in_node = false;
            }
            b')' => {
                if frame.nodes == 0 {
                    return Err(err(
                        frame.at,
                        "empty game tree: '(' must be followed by a node ';'".to_string(),
                    ));
                }
                frames.pop();
                in_node = false;
                if frames.is_empty() {
                    trees.push(std::mem::replace(
                        &mut tree,
                        Tree {
                            at: 0,
                            nodes: Vec::new(),
                        },
                    ));
                }
            }
            b';' => {
                if frame.children > 0 {
                    return Err(err(
                        i,
                        "a node ';' after a variation: the nodes of a game tree come before its variations"
                            .to_string(),
                    ));
                }
                frame.nodes += 1;
                in_node = true;
                if frame.main {
                    tree.nodes.push(Node { props: Vec::new() });
                }
            }
            c if c.is_ascii_alphabetic() => {
                let start = i;
                while i < b.len() && b[i].is_ascii_alphabetic() {
                    i += 1;
                }
                let raw = &text[start..i];
                // FF[3] allowed lower-case letters in names (AddBlack for AB).
                let ident: String = raw.chars().filter(|c| c.is_ascii_uppercase()).collect();
                if ident.is_empty() {
                    return Err(err(
                        start,
                        format!("'{raw}' is not a property name (names are upper-case letters)"),
                    ));
                }
                if !in_node {
                    return Err(err(
                        start,
                        format!("property {ident} outside a node (a node starts with ';')"),
                    ));
                }
                let mut values = Vec::new();
                loop {
                    while i < b.len() && b[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    if i >= b.len() || b[i] != b'[' {
                        break;
                    }
                    let open = i;
                    i += 1;
                    let mut value = String::new();
                    let mut seg = i;
                    loop {
                        if i >= b.len() {
                            return Err(err(
                                open,
                                format!(
                                    "the value of property {ident} is never closed: missing ']'"
                                ),
                            ));
                        }
                        match b[i] {
                            b'\\' => {
                                value.push_str(&text[seg..i]);
                                i += 1;
                                if i >= b.len() {
                                    continue;
                                }
                                // A backslash before a line break removes it (soft break).
                                if b[i] == b'\n' || b[i] == b'\r' {
                                    let first = b[i];
                                    i += 1;
                                    if i < b.len()
                                        && (b[i] == b'\n' || b[i] == b'\r')
                                        && b[i] != first
                                    {
                                        i += 1;
                                    }
                                } else {
                                    let ch = text[i..].chars().next().unwrap_or(' ');
                                    value.push(ch);
                                    i += ch.len_utf8();
                                }
                                seg = i;
                            }
                            b']' => {
                                value.push_str(&text[seg..i]);
                                i += 1;
                                break;
                            }
                            _ => i += 1,
                        }
                    }
                    values.push(Value {
                        text: value,
                        at: open,
                    });
                }
                if values.is_empty() {
                    return Err(err(
                        start,
                        format!("property {ident} has no value (expected {ident}[...])"),
                    ));
                }
                if frame_is_main(&frames) {
                    if let Some(node) = tree.nodes.last_mut() {
                        node.props.push(Prop {
                            ident,
                            at: start,
                            values,
                        });
                    }
                }
                continue;
            }
            c if c.is_ascii_whitespace() => {}
            _ => {
                let ch = text[i..].chars().next().unwrap_or('?');
                return Err(err(
                    i,
                    format!("unexpected character '{ch}' (expected '(', ')', ';' or a property)"),
                ));
            }
        }
        i += 1;
    }
    if let Some(frame) = frames.first() {
        return Err(err(
            frame.at,
            "the game tree opened here is never closed: missing ')'".to_string(),
        ));
    }
    if trees.is_empty() {
        return Err(err(
            0,
            "no game found: an SGF collection is one or more game trees '(;...)'".to_string(),
        ));
    }
    Ok(trees)
}

fn frame_is_main(frames: &[Frame]) -> bool {
    frames.last().is_some_and(|f| f.main)
}

fn parse_square(
    value: &Value,
    ident: &str,
    err: &impl Fn(usize, String) -> RecordError,
) -> Result<Square, RecordError> {
    let t = value.text.trim();
    Square::parse(t).ok_or_else(|| err(value.at, format!("{ident}[{t}]: '{t}' is not a square")))
}

/// A result: `B+`, `W+` (with `R`/`Resign`, `T`/`Time`, `F`/`Forfeit` or a score after
/// the `+`), `0`/`Draw`, `?`/`Void`/empty. Returns the result and the termination the
/// suffix names.
fn parse_result(value: &str) -> Option<(RecordResult, Option<&'static str>)> {
    let l = value.trim().to_ascii_lowercase();
    match l.as_str() {
        "" | "?" | "void" => return Some((RecordResult::Unknown, None)),
        "0" | "draw" | "d" | "jigo" => return Some((RecordResult::Draw, None)),
        _ => {}
    }
    let result = if l.starts_with("b+") {
        RecordResult::BlackWins
    } else if l.starts_with("w+") {
        RecordResult::WhiteWins
    } else {
        return None;
    };
    let reason = match &l[2..] {
        "r" | "resign" => Some("resignation"),
        "t" | "time" => Some("time forfeit"),
        "f" | "forfeit" => Some("forfeit"),
        _ => None,
    };
    Some((result, reason))
}

fn read_game(text: &str, tree: &Tree, default: Variant) -> Result<GameRecord, RecordError> {
    let err = |at: usize, message: String| RecordError::at(Format::Sgf, text, at, message);
    let Some(root) = tree.nodes.first() else {
        return Err(err(tree.at, "empty game tree".to_string()));
    };

    // The start: SZ, SU, AB, AW, AE and PL in the first node.
    let mut size = BoardSize::Eight;
    let mut setup: Option<Option<Variant>> = None;
    let mut add = [Bitboard::EMPTY; 2];
    let mut clear = Bitboard::EMPTY;
    let mut side = Color::Black;
    let mut fen: Option<(&str, usize)> = None;
    for prop in &root.props {
        let v = &prop.values[0];
        let t = v.text.trim();
        match prop.ident.as_str() {
            "GM" if t != "9" => {
                return Err(err(
                    v.at,
                    format!("GM[{t}]: not a Lines of Action game (Lines of Action is GM[9])"),
                ));
            }
            "SZ" => {
                let n = t.split(':').next().unwrap_or("");
                size = n
                    .parse::<usize>()
                    .ok()
                    .and_then(BoardSize::from_len)
                    .ok_or_else(|| {
                        err(
                            v.at,
                            format!("SZ[{t}]: boards are 6, 7 or 8 squares a side"),
                        )
                    })?;
            }
            "SU" => {
                setup =
                    Some(match t.to_ascii_lowercase().as_str() {
                        "" => Some(Variant::Standard),
                        "custom" => None,
                        _ => Some(t.parse::<Variant>().map_err(|e| {
                            err(v.at, format!("SU[{t}]: {e}, or Custom with AB/AW"))
                        })?),
                    });
            }
            "AB" | "AW" | "AE" => {
                for value in &prop.values {
                    let sq = parse_square(value, &prop.ident, &err)?;
                    match prop.ident.as_str() {
                        "AB" => add[0] = add[0].with(sq),
                        "AW" => add[1] = add[1].with(sq),
                        _ => clear = clear.with(sq),
                    }
                }
            }
            "FEN" => fen = Some((t, v.at)),
            "PL" => {
                side = match t.to_ascii_lowercase().as_str() {
                    "b" | "black" | "1" => Color::Black,
                    "w" | "white" | "2" => Color::White,
                    _ => return Err(err(v.at, format!("PL[{t}]: the side to move is B or W"))),
                }
            }
            _ => {}
        }
    }
    if let Some(sq) = (add[0] & add[1]).first() {
        return Err(err(tree.at, format!("{sq} is in both AB and AW")));
    }
    let base = match setup {
        Some(Some(start)) => Some(start),
        Some(None) => None,
        None if (add[0] | add[1]).is_empty() || !default.has_standard_rules() => Some(default),
        None => None,
    };
    if let Some(variant) = base.filter(|v| !v.has_standard_rules()) {
        if (clear | add[0] | add[1]).any() {
            return Err(err(
                tree.at,
                format!(
                    "AB/AW/AE cannot set up a {} position: give it whole as FEN[position text]",
                    variant.title()
                ),
            ));
        }
    }
    let start: VariantPosition = match (base, fen) {
        // A variant with rules of its own: its start, or the position text of FEN.
        (Some(variant), Some((text, at))) => {
            VariantPosition::parse(variant, text).map_err(|e| {
                err(
                    at,
                    format!(
                        "FEN[{}]: not a valid {} position: {e}",
                        crate::excerpt(text),
                        variant.title()
                    ),
                )
            })?
        }
        (Some(variant), None) if !variant.has_standard_rules() => {
            variant.start(size).ok_or_else(|| {
                err(
                    tree.at,
                    format!("{} is played on 8x8, not {size}", variant.title()),
                )
            })?
        }
        (base, _) => {
            let (black, white) = match base.and_then(|v| v.standard_start(size)) {
                Some(p) => (p.pieces(Color::Black), p.pieces(Color::White)),
                None => (Bitboard::EMPTY, Bitboard::EMPTY),
            };
            let keep = Bitboard(!(clear | add[0] | add[1]).0);
            Position::from_parts((black & keep) | add[0], (white & keep) | add[1], side, size)
                .map_err(|e| err(tree.at, format!("the start position: {e}")))?
                .into()
        }
    };

    let mut record = GameRecord::new(start, RuleSet::Draw);
    let mut reader = MoveReader::new(start);
    let mut result: Option<(RecordResult, Option<&'static str>)> = None;
    let mut termination: Option<String> = None;
    let mut resigned: Option<Color> = None;
    let mut time: Option<String> = None;
    let mut overtime: Option<String> = None;
    let mut tag_time_control: Option<String> = None;
    for (n, node) in tree.nodes.iter().enumerate() {
        let mut moved = false;
        for prop in &node.props {
            let ident = prop.ident.as_str();
            let v = &prop.values[0];
            let t = v.text.trim();
            match ident {
                "B" | "W" => {
                    let color = if ident == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let label = reader.label();
                    if moved {
                        return Err(err(
                            prop.at,
                            format!("{ident}[{t}] at {label}: a node holds one move"),
                        ));
                    }
                    moved = true;
                    if prop.values.len() > 1 {
                        return Err(err(
                            prop.values[1].at,
                            format!("{ident}[{t}] at {label}: a move has one value"),
                        ));
                    }
                    if let Some(who) = resigned {
                        return Err(err(
                            v.at,
                            format!("{ident}[{t}] at {label}: {who} has resigned"),
                        ));
                    }
                    let text_move = if t.is_empty() {
                        crate::TurnText {
                            step: MoveText::Pass,
                            drop: None,
                        }
                    } else if t.eq_ignore_ascii_case("resign") {
                        resigned = Some(color);
                        continue;
                    } else {
                        moves::parse_text(t)
                            .map_err(|e| err(v.at, format!("{ident}[{t}] at {label}: {e}")))?
                    };
                    if reader.side() != color && !reader.pass_if_forced() {
                        return Err(err(
                            prop.at,
                            format!(
                                "{ident}[{t}], ply {}: {} is to move, not {color}",
                                reader.moves.len() + 1,
                                reader.side()
                            ),
                        ));
                    }
                    reader.push(text_move);
                }
                "AB" | "AW" | "AE" | "PL" | "SU" | "SZ" | "FEN" if n > 0 => {
                    return Err(err(
                        prop.at,
                        format!("{ident}: setup properties are read only in the first node"),
                    ));
                }
                "AB" | "AW" | "AE" | "PL" | "SU" | "SZ" | "FEN" => {}
                "FF" | "GM" | "CA" | "AP" => {}
                "PB" => record.black = Some(t.to_string()),
                "PW" => record.white = Some(t.to_string()),
                "DT" => record.date = Some(t.to_string()),
                "EV" => record.event = Some(t.to_string()),
                "RE" => {
                    result = Some(parse_result(t).ok_or_else(|| {
                        err(
                            v.at,
                            format!(
                                "RE[{t}]: unknown result (expected B+, W+, 0 for a draw, or ?)"
                            ),
                        )
                    })?);
                }
                "RU" => record.rules = t.parse().map_err(|e| err(v.at, format!("RU[{t}]: {e}")))?,
                "TERMINATION" => termination = Some(t.to_string()),
                "TM" => time = Some(t.to_string()),
                "OT" => overtime = Some(t.to_string()),
                "TAG" => {
                    for value in &prop.values {
                        match value.text.split_once(':') {
                            Some(("TimeControl", tc)) => tag_time_control = Some(tc.to_string()),
                            Some((key, val)) => {
                                record.extra.push((key.to_string(), val.to_string()));
                            }
                            None => record.extra.push(("TAG".to_string(), value.text.clone())),
                        }
                    }
                }
                _ if n == 0 => {
                    let key = SHARED_TAGS
                        .iter()
                        .find(|(id, _)| *id == ident)
                        .map_or(ident, |(_, tag)| tag);
                    for value in &prop.values {
                        record.extra.push((key.to_string(), value.text.clone()));
                    }
                }
                // Comments, timing and markup in move nodes are not kept.
                _ => {}
            }
        }
    }
    record.moves = reader.moves;
    let fischer = overtime.as_deref().and_then(|ot| {
        ot.strip_suffix("fischer")
            .map(str::trim)
            .filter(|inc| is_number(inc))
            .map(str::to_string)
    });
    record.time_control = match (tag_time_control, &time) {
        (Some(tc), _) => Some(tc),
        (None, Some(tm)) => Some(match &fischer {
            Some(inc) => format!("{tm}+{inc}"),
            None => tm.clone(),
        }),
        (None, None) => None,
    };
    if let Some(ot) = overtime {
        if time.is_none() || fischer.is_none() {
            record.extra.push(("OT".to_string(), ot));
        }
    }
    let resign_result = resigned.map(|who| match who {
        Color::Black => RecordResult::WhiteWins,
        Color::White => RecordResult::BlackWins,
    });
    record.result = result
        .map(|(r, _)| r)
        .or(resign_result)
        .unwrap_or(RecordResult::Unknown);
    record.termination = termination
        .or_else(|| result.and_then(|(_, why)| why).map(str::to_string))
        .or_else(|| resigned.map(|_| "resignation".to_string()));
    Ok(record)
}
