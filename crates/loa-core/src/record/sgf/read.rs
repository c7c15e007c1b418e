//! Reading one game of SGF: the main line of its game tree read into a record.

use super::is_number;
use super::tree::{self, Tree, Value};
use crate::record::moves::{self, Ended, Ending, MoveReader};
use crate::record::{
    reflected_array, Format, GameRecord, Names, RecordError, RecordResult, SHARED_TAGS,
};
use crate::{
    Bitboard, BoardSize, Color, MoveText, Position, RuleSet, Square, Variant, VariantPosition,
};

/// Reads the first game tree of `text` (a game's text, as [`crate::record::GameSplitter`]
/// cuts it). `reflect` sets up a game named by its variant alone from the variant's
/// array reflected top to bottom. The error comes with the names read before it.
pub(crate) fn read(
    text: &str,
    default: Variant,
    reflect: bool,
) -> Result<GameRecord, (RecordError, Box<Names>)> {
    let (tree, error) = tree::read(text);
    let failed = |error| (error, Box::new(names(&tree)));
    match error {
        Some(error) => Err(failed(error)),
        None => read_game(text, &tree, default, reflect).map_err(failed),
    }
}

/// The players and the event, as far as the root node was read.
fn names(tree: &Tree) -> Names {
    let mut names = Names::default();
    for prop in tree.nodes.iter().take(1).flat_map(|node| &node.props) {
        let value = non_empty(&prop.values[0].text);
        match prop.ident.as_str() {
            "PB" => names.black = value,
            "PW" => names.white = value,
            "EV" => names.event = value,
            _ => {}
        }
    }
    names
}

/// A value as a record field: an empty value (`PW[]`) says nothing.
fn non_empty(text: &str) -> Option<String> {
    let t = text.trim();
    (!t.is_empty()).then(|| t.to_string())
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

fn read_game(
    text: &str,
    tree: &Tree,
    default: Variant,
    reflect: bool,
) -> Result<GameRecord, RecordError> {
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
            let named_only = (clear | add[0] | add[1]).is_empty();
            let array = match base {
                Some(variant) if reflect && named_only => reflected_array(variant, size),
                _ => None,
            };
            let (black, white) = match array.or_else(|| base.and_then(|v| v.standard_start(size))) {
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
    // Who gave the game up in a move's place, how, and where.
    let mut ended: Option<Ended> = None;
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
                    if let Some(ended) = &ended {
                        return Err(err(
                            v.at,
                            format!(
                                "{ident}[{t}]: a move after {}, which ended the game",
                                ended.what
                            ),
                        ));
                    }
                    let text_move = if t.is_empty() {
                        crate::TurnText {
                            step: MoveText::Pass,
                            drop: None,
                        }
                    } else if let Some(ending) = Ending::parse(t) {
                        ended = Some(Ended {
                            by: color,
                            how: ending,
                            at: v.at,
                            what: format!("{ident}[{t}] at {label}"),
                        });
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
                "PB" => record.black = non_empty(t),
                "PW" => record.white = non_empty(t),
                "DT" => record.date = non_empty(t),
                "EV" => record.event = non_empty(t),
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
    let stated = result.map_or(RecordResult::Unknown, |(r, _)| r);
    record.result = match &ended {
        Some(ended) => ended.result(stated).map_err(|e| err(ended.at, e))?,
        None => stated,
    };
    record.termination = termination
        .or_else(|| result.and_then(|(_, why)| why).map(str::to_string))
        .or_else(|| ended.map(|ended| ended.how.termination().to_string()));
    Ok(record)
}
