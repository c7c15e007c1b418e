//! Position text: ranks from the top down separated by `/`, `b`/`w` for pieces, digits for
//! runs of empty squares, then the side to move.

use crate::{excerpt, Bitboard, BoardSize, Color, Position, SetupError, Square};
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
    #[error("the placement has {0} ranks; boards are 6x6, 7x7 or 8x8")]
    RankCount(usize),
    #[error("rank {rank} ('{text}') covers {squares} squares; a {size} board needs {expected}")]
    RankLength {
        rank: usize,
        text: String,
        squares: usize,
        size: BoardSize,
        expected: usize,
    },
    #[error("rank {rank} ('{text}'): unknown character '{found}' (expected b, w or a digit 1-8)")]
    BadChar {
        rank: usize,
        text: String,
        found: char,
    },
    #[error(transparent)]
    Setup(#[from] SetupError),
}

impl FromStr for Position {
    type Err = PositionTextError;

    fn from_str(text: &str) -> Result<Position, PositionTextError> {
        let mut fields = text.split_whitespace();
        let placement = fields.next().ok_or(PositionTextError::Empty)?;
        let side = match fields.next() {
            None => return Err(PositionTextError::MissingSide),
            Some("b" | "B") => Color::Black,
            Some("w" | "W") => Color::White,
            Some(other) => return Err(PositionTextError::BadSide(excerpt(other).into_owned())),
        };
        if let Some(extra) = fields.next() {
            return Err(PositionTextError::ExtraField(excerpt(extra).into_owned()));
        }
        let ranks: Vec<&str> = placement.split('/').collect();
        let size =
            BoardSize::from_len(ranks.len()).ok_or(PositionTextError::RankCount(ranks.len()))?;
        let n = usize::from(size.side());
        let mut pieces = [Bitboard::EMPTY; 2];
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = n - i;
            let mut file = 0usize;
            for ch in rank_text.chars() {
                match ch {
                    '1'..='8' => file += ch as usize - '0' as usize,
                    'b' | 'w' => {
                        if file < n {
                            let color = if ch == 'b' {
                                Color::Black
                            } else {
                                Color::White
                            };
                            let sq = Square::from_coords(file as u8, (rank - 1) as u8);
                            pieces[color.index()] = pieces[color.index()].with(sq);
                        }
                        file += 1;
                    }
                    found => {
                        return Err(PositionTextError::BadChar {
                            rank,
                            text: excerpt(rank_text).into_owned(),
                            found,
                        })
                    }
                }
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
        Ok(Position::from_parts(pieces[0], pieces[1], side, size)?)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size().side();
        for rank in (0..n).rev() {
            let mut empty = 0;
            for file in 0..n {
                match self.piece_at(Square::from_coords(file, rank)) {
                    None => empty += 1,
                    Some(color) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", color.letter())?;
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
        write!(f, " {}", self.side_to_move().letter())
    }
}

impl Position {
    /// The board as a diagram with coordinates, the top rank first; squares in `marked`
    /// are shown in brackets (for example the last move).
    pub fn diagram(&self, marked: Bitboard) -> String {
        let n = self.size().side();
        let mut out = String::new();
        for rank in (0..n).rev() {
            out.push_str(&format!("{:>2} ", rank + 1));
            for file in 0..n {
                let sq = Square::from_coords(file, rank);
                let ch = match self.piece_at(sq) {
                    Some(Color::Black) => 'b',
                    Some(Color::White) => 'w',
                    None => '.',
                };
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
