//! Optional adjudication: a draw by length (`--adjudicate-draw moves=N`) and resignation
//! when both engines' scores agree (`--resign score=S count=C`).

use loa_core::Color;

/// The adjudication rules of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// A draw once the game has this many moves (plies, the opening's included).
    pub draw_after: Option<usize>,
    pub resign: Option<Resign>,
}

/// Resign when, for `count` moves in a row of each side, the winner's score is at least
/// `score` and the loser's at most `-score` (each from its own point of view).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resign {
    pub score: i32,
    pub count: u32,
}

/// Reads `moves=N` (or a bare `N`).
pub fn parse_draw(words: &[String]) -> Result<usize, String> {
    let mut moves = None;
    for word in words {
        let value = match word.split_once('=') {
            Some(("moves", value)) => value,
            Some((key, _)) => {
                return Err(format!(
                    "--adjudicate-draw: unknown key '{key}' (expected moves=N)"
                ))
            }
            None => word.as_str(),
        };
        let n: usize = value
            .parse()
            .map_err(|_| format!("--adjudicate-draw: '{value}' is not a number of moves"))?;
        if n == 0 {
            return Err("--adjudicate-draw: moves must be at least 1".to_string());
        }
        moves = Some(n);
    }
    moves.ok_or_else(|| "--adjudicate-draw: expected moves=N".to_string())
}

/// Reads `score=S count=C`.
pub fn parse_resign(words: &[String]) -> Result<Resign, String> {
    let (mut score, mut count) = (None, None);
    for word in words {
        let Some((key, value)) = word.split_once('=') else {
            return Err(format!(
                "--resign: '{word}' is not KEY=VALUE (score=S count=C)"
            ));
        };
        match key {
            "score" => {
                score = Some(
                    value
                        .parse::<i32>()
                        .ok()
                        .filter(|&s| s > 0)
                        .ok_or_else(|| {
                            format!(
                                "--resign: score='{value}' must be a positive number of centipawns"
                            )
                        })?,
                );
            }
            "count" | "movecount" => {
                count = Some(
                    value
                        .parse::<u32>()
                        .ok()
                        .filter(|&c| c > 0)
                        .ok_or_else(|| {
                            format!("--resign: count='{value}' must be a positive number of moves")
                        })?,
                );
            }
            _ => return Err(format!("--resign: unknown key '{key}' (score=S count=C)")),
        }
    }
    match (score, count) {
        (Some(score), Some(count)) => Ok(Resign { score, count }),
        _ => Err("--resign: needs both score=S and count=C".to_string()),
    }
}

/// Follows the engines' scores during a game for resignation.
#[derive(Clone, Debug)]
pub struct ResignTracker {
    rule: Resign,
    /// Per colour: moves in a row with a score of at least `score`.
    winning: [u32; 2],
    /// Per colour: moves in a row with a score of at most `-score`.
    losing: [u32; 2],
}

impl ResignTracker {
    pub fn new(rule: Resign) -> ResignTracker {
        ResignTracker {
            rule,
            winning: [0; 2],
            losing: [0; 2],
        }
    }

    /// Notes the score the mover reported (its own point of view; `None` when it gave
    /// none). Returns the side that resigns, if one does now.
    pub fn update(&mut self, mover: Color, score: Option<i32>) -> Option<Color> {
        let i = mover.index();
        match score {
            Some(s) if s >= self.rule.score => {
                self.winning[i] += 1;
                self.losing[i] = 0;
            }
            Some(s) if s <= -self.rule.score => {
                self.losing[i] += 1;
                self.winning[i] = 0;
            }
            _ => {
                self.winning[i] = 0;
                self.losing[i] = 0;
            }
        }
        let other = (!mover).index();
        let c = self.rule.count;
        if self.losing[i] >= c && self.winning[other] >= c {
            Some(mover)
        } else if self.winning[i] >= c && self.losing[other] >= c {
            Some(!mover)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn parses_the_options() {
        assert_eq!(parse_draw(&words("moves=150")), Ok(150));
        assert_eq!(parse_draw(&words("80")), Ok(80));
        assert!(parse_draw(&words("moves=x")).is_err());
        assert!(parse_draw(&[]).is_err());
        assert_eq!(
            parse_resign(&words("score=600 count=3")),
            Ok(Resign {
                score: 600,
                count: 3
            })
        );
        assert!(parse_resign(&words("score=600")).is_err());
        assert!(parse_resign(&words("score=-1 count=3")).is_err());
    }

    #[test]
    fn resigns_only_when_both_agree_long_enough() {
        let mut t = ResignTracker::new(Resign {
            score: 500,
            count: 2,
        });
        use Color::*;
        assert_eq!(t.update(Black, Some(600)), None);
        assert_eq!(t.update(White, Some(-700)), None);
        assert_eq!(t.update(Black, Some(800)), None);
        // White's second losing score: both have agreed for two moves each.
        assert_eq!(t.update(White, Some(-900)), Some(White));

        let mut t = ResignTracker::new(Resign {
            score: 500,
            count: 2,
        });
        assert_eq!(t.update(Black, Some(600)), None);
        assert_eq!(t.update(White, Some(-700)), None);
        assert_eq!(t.update(Black, Some(100)), None, "Black no longer agrees");
        assert_eq!(t.update(White, Some(-900)), None);
        assert_eq!(t.update(Black, Some(600)), None);
        assert_eq!(t.update(White, None), None, "no score resets");
    }
}
