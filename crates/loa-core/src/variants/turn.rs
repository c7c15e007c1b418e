//! Reading a turn's text against a variant's legal moves, with the reason when it
//! cannot be played.

use crate::{excerpt, Move, MoveError, MoveText, Square, TurnText};

/// The legal move `text` names among `legal` (a lone pass when the side must pass).
/// `explain` says why a from-to pair that names no legal move is illegal; `drop_due`
/// says whether a placement must follow the move, with an example of one.
pub(crate) fn match_turn(
    text: &str,
    legal: &[Move],
    explain: impl Fn(Square, Square) -> String,
    drop_due: Option<String>,
) -> Result<Move, MoveError> {
    let trimmed = text.trim();
    let quoted = || excerpt(trimmed).into_owned();
    let turn = TurnText::parse(trimmed)?;
    let must_pass = legal.iter().all(|m| m.is_pass());
    let base = match turn.step {
        MoveText::Pass => {
            if !must_pass {
                let moves: Vec<String> = legal
                    .iter()
                    .map(|m| m.without_drop().to_string())
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect();
                return Err(MoveError::PassNotAllowed {
                    legal: moves.join(" "),
                });
            }
            Move::PASS
        }
        MoveText::Step { from, to, capture } => {
            let found = legal
                .iter()
                .find(|m| !m.is_pass() && m.from() == from && m.to() == to)
                .copied();
            let Some(found) = found else {
                return Err(MoveError::Illegal {
                    text: quoted(),
                    reason: explain(from, to),
                });
            };
            if capture == Some(true) && !found.is_capture() {
                return Err(MoveError::NotACapture {
                    text: quoted(),
                    square: to,
                });
            }
            found.without_drop()
        }
    };
    match (turn.drop, drop_due) {
        (None, None) => Ok(base),
        (None, Some(example)) => Err(MoveError::DropMissing {
            text: quoted(),
            example,
        }),
        (Some(_), None) => Err(MoveError::Illegal {
            text: quoted(),
            reason: "no piece is placed now".to_string(),
        }),
        (Some(square), Some(_)) => {
            let mv = base.with_drop(square);
            if legal.contains(&mv) {
                Ok(mv)
            } else {
                Err(MoveError::DropOccupied {
                    text: quoted(),
                    square,
                })
            }
        }
    }
}
