//! Reading a move's text against a position, with the reason when it cannot be played.

use crate::{Move, MoveError, MoveText, Position};

impl Position {
    /// Reads a move in any accepted form (`c8-c6`, `d1xa4`, `d1:a4`, `b1d3`, `pass`,
    /// `0000`) and checks that it is legal here. A capture may be written with `-`;
    /// a non-capture written with `x` or `:` is refused.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let trimmed = text.trim();
        match MoveText::parse(trimmed)? {
            MoveText::Pass => {
                if self.must_pass() {
                    Ok(Move::PASS)
                } else {
                    let legal: Vec<String> =
                        self.legal_moves().iter().map(|m| m.to_string()).collect();
                    Err(MoveError::PassNotAllowed {
                        legal: legal.join(" "),
                    })
                }
            }
            MoveText::Step { from, to, capture } => {
                let text = trimmed.to_string();
                let side = self.side_to_move();
                for square in [from, to] {
                    if !self.board().contains(square) {
                        return Err(MoveError::OffBoard {
                            text,
                            square,
                            size: self.size().side(),
                        });
                    }
                }
                if self.must_pass() {
                    return Err(MoveError::MustPass { side });
                }
                if !self.pieces(side).contains(from) {
                    return Err(MoveError::NoPiece {
                        text,
                        square: from,
                        side,
                    });
                }
                let is_capture = self.pieces(!side).contains(to);
                if capture == Some(true) && !is_capture {
                    return Err(MoveError::NotACapture { text, square: to });
                }
                if self.targets_from(from).contains(to) {
                    return Ok(Move::new(from, to, is_capture));
                }
                Err(MoveError::Illegal {
                    reason: self.why_illegal(from, to),
                    text,
                })
            }
        }
    }

    /// Explains why the piece on `from` cannot go to `to`.
    fn why_illegal(&self, from: crate::Square, to: crate::Square) -> String {
        let (df, dr) = (
            i32::from(to.file()) - i32::from(from.file()),
            i32::from(to.rank()) - i32::from(from.rank()),
        );
        if from == to {
            return "a piece must move".to_string();
        }
        if df != 0 && dr != 0 && df.abs() != dr.abs() {
            return format!("{to} is not on a line (rank, file or diagonal) through {from}");
        }
        let (sf, sr) = (df.signum(), dr.signum());
        let distance = df.abs().max(dr.abs());
        let line_count = {
            // Walk the whole line through `from` in both directions.
            let mut count = 0;
            for sign in [1, -1] {
                let (mut f, mut r) = (i32::from(from.file()), i32::from(from.rank()));
                loop {
                    f += sf * sign;
                    r += sr * sign;
                    if !(0..8).contains(&f) || !(0..8).contains(&r) {
                        break;
                    }
                    let sq = crate::Square::from_coords(f as u8, r as u8);
                    count += i32::from(self.occupied().contains(sq));
                }
            }
            count + 1
        };
        if line_count != distance {
            return format!(
                "the line from {from} towards {to} holds {line_count} pieces, so the piece moves {line_count} squares, not {distance}"
            );
        }
        if self.pieces(self.side_to_move()).contains(to) {
            return format!("{to} holds a piece of the mover's own colour");
        }
        for step in 1..distance {
            let sq = crate::Square::from_coords(
                (i32::from(from.file()) + sf * step) as u8,
                (i32::from(from.rank()) + sr * step) as u8,
            );
            if self.pieces(!self.side_to_move()).contains(sq) {
                return format!("it would jump over the enemy piece on {sq}");
            }
        }
        "it is not a legal move here".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> Position {
        Position::startpos()
    }

    #[test]
    fn legal_moves_parse_in_every_form() {
        let pos = start();
        for text in ["b1-b3", "B1-B3", "b1b3"] {
            assert_eq!(pos.parse_move(text).unwrap().to_string(), "b1-b3");
        }
    }

    #[test]
    fn illegal_moves_say_why() {
        let pos = start();
        let e = pos.parse_move("b1-b4").unwrap_err().to_string();
        assert!(
            e.contains("holds 2 pieces, so the piece moves 2 squares, not 3"),
            "{e}"
        );
        let e = pos.parse_move("b1-c4").unwrap_err().to_string();
        assert!(e.contains("not on a line"), "{e}");
        let e = pos.parse_move("a2-c2").unwrap_err().to_string();
        assert!(
            e.contains("no piece of the side to move (Black) on a2"),
            "{e}"
        );
        let e = pos.parse_move("pass").unwrap_err().to_string();
        assert!(e.contains("only legal when"), "{e}");
        let e = pos.parse_move("b1xb3").unwrap_err().to_string();
        assert!(e.contains("written as a capture but b3 is empty"), "{e}");
        assert_eq!(pos.parse_move("c1-a3").unwrap().to_string(), "c1xa3");
        let seed: Position = "8/8/1w1wb3/8/1bww4/1ww1b3/2w2b2/8 w".parse().unwrap();
        let e = seed.parse_move("b6xf2").unwrap_err().to_string();
        assert!(e.contains("jump over the enemy piece on e3"), "{e}");
        let e = seed.parse_move("b6-b3").unwrap_err().to_string();
        assert!(
            e.contains("b3 holds a piece of the mover's own colour"),
            "{e}"
        );
        let e = pos.parse_move("b1-b1").unwrap_err().to_string();
        assert!(e.contains("must move"), "{e}");
        let six: Position = "1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b".parse().unwrap();
        let e = six.parse_move("b1-b7").unwrap_err().to_string();
        assert!(e.contains("b7 is off the 6x6 board"), "{e}");
    }
}
