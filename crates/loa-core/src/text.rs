//! Position text: ranks from the top down separated by `/`, a letter for each piece, digits
//! for runs of empty squares, then the side to move and any fields a variant adds. The
//! placement is read and written here for every variant, each with its own letters.

use crate::{excerpt, Bitboard, BoardSize, Color, Position, SetupError, Square, Variant};
use std::fmt;
use std::str::FromStr;

/// What is wrong with a position text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionTextError {
    #[error("empty position text")]
    Empty,
    #[error("missing side to move after the placement (add ' b' or ' w')")]
    MissingSide,
    #[error("side to move '{0}' must be 'b' or 'w'")]
    BadSide(String),
    #[error("unexpected extra field '{0}' after the side to move")]
    ExtraField(String),
    #[error("the placement has {}; boards are 6x6, 7x7 or 8x8", crate::counted(*.0, "rank"))]
    RankCount(usize),
    #[error(
        "the placement's rank {0} from the top is empty: '/' goes between ranks, not before \
         the first or after the last (an empty rank is written as its size, as 8)"
    )]
    EmptyRank(usize),
    #[error("rank {rank} ('{text}') covers {squares} squares; a {size} board needs {expected}")]
    RankLength {
        rank: usize,
        text: String,
        squares: usize,
        size: BoardSize,
        expected: usize,
    },
    #[error(
        "rank {rank} ('{text}'): unknown character '{found}' (expected {expected} or a digit 1-8)"
    )]
    BadChar {
        rank: usize,
        text: String,
        found: char,
        /// The letters of the variant, in words.
        expected: &'static str,
    },
    #[error("missing {0} after the side to move")]
    MissingField(&'static str),
    #[error("{field} '{text}' must be {expected}")]
    BadField {
        field: &'static str,
        text: String,
        expected: &'static str,
    },
    #[error("{} is played on 8x8 only, not {size}", variant.title())]
    EightOnly { variant: Variant, size: BoardSize },
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Setup(#[from] SetupError),
}

impl FromStr for Position {
    type Err = PositionTextError;

    fn from_str(text: &str) -> Result<Position, PositionTextError> {
        let mut fields = text.split_whitespace();
        let (placement, side) = read_head(&mut fields, true)?;
        no_more(&mut fields)?;
        let (size, pieces) = read_two_colours(placement, "b, w", ['b', 'w'])?;
        Ok(Position::from_parts(pieces[0], pieces[1], side, size)?)
    }
}

/// The placement and the side to move (`b` or `w`, and `B` or `W` with `any_case`) that
/// begin a text.
pub(crate) fn read_head<'a>(
    fields: &mut impl Iterator<Item = &'a str>,
    any_case: bool,
) -> Result<(&'a str, Color), PositionTextError> {
    let placement = fields.next().ok_or(PositionTextError::Empty)?;
    let side = match fields.next() {
        None => return Err(PositionTextError::MissingSide),
        Some("b") => Color::Black,
        Some("w") => Color::White,
        Some("B") if any_case => Color::Black,
        Some("W") if any_case => Color::White,
        Some(other) => return Err(PositionTextError::BadSide(excerpt(other).into_owned())),
    };
    Ok((placement, side))
}

/// Refuses a field after the last one a text has.
pub(crate) fn no_more<'a>(
    fields: &mut impl Iterator<Item = &'a str>,
) -> Result<(), PositionTextError> {
    match fields.next() {
        Some(extra) => Err(PositionTextError::ExtraField(excerpt(extra).into_owned())),
        None => Ok(()),
    }
}

/// A placement of two colours, `letters` giving Black's and White's letter: the board
/// and each side's pieces (Black's first).
pub(crate) fn read_two_colours(
    placement: &str,
    named: &'static str,
    letters: [char; 2],
) -> Result<(BoardSize, [Bitboard; 2]), PositionTextError> {
    let (size, squares) = read_placement(placement, named, |ch| {
        (ch == letters[0])
            .then_some(Color::Black)
            .or((ch == letters[1]).then_some(Color::White))
    })?;
    let mut pieces = [Bitboard::EMPTY; 2];
    for (sq, color) in squares {
        pieces[color.index()] = pieces[color.index()].with(sq);
    }
    Ok((size, pieces))
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_placement(f, self.size(), |sq| self.piece_at(sq).map(Color::letter))?;
        write!(f, " {}", self.side_to_move().letter())
    }
}

/// Reads a placement: the ranks from the top down separated by `/`, digits for runs of
/// empty squares, and letters that `piece` turns into pieces (`letters` names them for
/// the error). The squares of the pieces, in reading order.
pub(crate) fn read_placement<P>(
    placement: &str,
    letters: &'static str,
    piece: impl Fn(char) -> Option<P>,
) -> Result<(BoardSize, Vec<(Square, P)>), PositionTextError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if let Some(empty) = ranks.iter().position(|r| r.is_empty()) {
        return Err(PositionTextError::EmptyRank(empty + 1));
    }
    let size = BoardSize::from_len(ranks.len()).ok_or(PositionTextError::RankCount(ranks.len()))?;
    let n = usize::from(size.side());
    let mut squares = Vec::new();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = n - i;
        let mut file = 0usize;
        for ch in rank_text.chars() {
            if let Some(run) = ch.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += run as usize;
                continue;
            }
            let Some(p) = piece(ch) else {
                return Err(PositionTextError::BadChar {
                    rank,
                    text: excerpt(rank_text).into_owned(),
                    found: ch,
                    expected: letters,
                });
            };
            if file < n {
                squares.push((Square::from_coords(file as u8, (rank - 1) as u8), p));
            }
            file += 1;
        }
        if file != n {
            return Err(PositionTextError::RankLength {
                rank,
                text: excerpt(rank_text).into_owned(),
                squares: file,
                size,
                expected: n,
            });
        }
    }
    Ok((size, squares))
}

/// Writes a placement, `letter` giving each square's letter (`None` when empty).
pub(crate) fn write_placement(
    f: &mut fmt::Formatter<'_>,
    size: BoardSize,
    letter: impl Fn(Square) -> Option<char>,
) -> fmt::Result {
    let n = size.side();
    for rank in (0..n).rev() {
        let mut empty = 0;
        for file in 0..n {
            match letter(Square::from_coords(file, rank)) {
                None => empty += 1,
                Some(ch) => {
                    if empty > 0 {
                        write!(f, "{empty}")?;
                        empty = 0;
                    }
                    write!(f, "{ch}")?;
                }
            }
        }
        if empty > 0 {
            write!(f, "{empty}")?;
        }
        if rank > 0 {
            f.write_str("/")?;
        }
    }
    Ok(())
}

/// The board as a diagram with coordinates, the top rank first, `letter` giving each
/// square's letter; squares in `marked` are shown in brackets (the last move, say).
pub(crate) fn draw_diagram(
    size: BoardSize,
    marked: Bitboard,
    letter: impl Fn(Square) -> Option<char>,
) -> String {
    let n = size.side();
    let mut out = String::new();
    for rank in (0..n).rev() {
        out.push_str(&format!("{:>2} ", rank + 1));
        for file in 0..n {
            let sq = Square::from_coords(file, rank);
            let ch = letter(sq).unwrap_or('.');
            if marked.contains(sq) {
                out.push_str(&format!("[{ch}]"));
            } else {
                out.push_str(&format!(" {ch} "));
            }
        }
        out.push('\n');
    }
    out.push_str("   ");
    for file in 0..n {
        out.push_str(&format!(" {} ", (b'a' + file) as char));
    }
    out.push('\n');
    out
}

impl Position {
    /// The board as a diagram with coordinates, the top rank first; squares in `marked`
    /// are shown in brackets (for example the last move).
    pub fn diagram(&self, marked: Bitboard) -> String {
        draw_diagram(self.size(), marked, |sq| {
            self.piece_at(sq).map(Color::letter)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        text.parse::<Position>().unwrap_err().to_string()
    }

    #[test]
    fn start_round_trips() {
        let text = "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b";
        let pos: Position = text.parse().unwrap();
        assert_eq!(pos, Position::startpos());
        assert_eq!(pos.to_string(), text);
    }

    #[test]
    fn errors_say_what_and_where() {
        assert_eq!(err(""), "empty position text");
        assert!(err("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1").contains("missing side"));
        assert!(err("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 x").contains("'x'"));
        assert!(err("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b 0").contains("extra field '0'"));
        assert!(err("1bbbbbb1/w6w/w6w/w6w/w6w b").contains("5 ranks"));
        assert!(err("8 b").contains("has 1 rank;"));
        // A '/' too many says so, not "9 ranks".
        let e = err("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1/ b");
        assert!(
            e.starts_with("the placement's rank 9 from the top is empty"),
            "{e}"
        );
        assert!(err("/1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b").contains("rank 1 from the top is empty"));
        assert!(err("8//8 b").contains("rank 2 from the top"));
        let e = err("1bbbbbb1/w6w/w7w/w6w/w6w/w6w/w6w/1bbbbbb1 b");
        assert!(e.contains("rank 6 ('w7w') covers 9 squares"), "{e}");
        let e = err("1bbbbbb1/w6w/w6w/w6q/w6w/w6w/w6w/1bbbbbb1 b");
        assert!(e.contains("rank 5 ('w6q'): unknown character 'q'"), "{e}");
        assert!(err("8/8/8/8/8/8/8/1bbbbbb1 w").contains("White has no piece"));
        let e = err("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb b");
        assert!(e.contains("rank 1 ('1bbbbbb') covers 7 squares"), "{e}");
    }

    #[test]
    fn small_boards_follow_from_the_placement() {
        let pos: Position = "1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 w".parse().unwrap();
        assert_eq!(pos.size(), BoardSize::Six);
        assert_eq!(pos.side_to_move(), Color::White);
        assert_eq!(pos.to_string(), "1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 w");
    }
}
