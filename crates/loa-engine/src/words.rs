//! What the engine finds, said in words as a player reads it: a score ("White is better
//! (+2.8 for you)"; the judgements' bounds are in the evaluation's units, so they live
//! beside it) and what the solver proved.

use crate::solver::{Solution, Verdict};
use crate::Score;
use loa_core::{counted, Color, Variant};

/// Whose point of view the number is given from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// The person playing this colour against the engine: "+2.8 for you".
    You(Color),
    /// Two people at one board: the number is given for the side ahead.
    Both,
}

impl Score {
    /// The score, which is for `side`, in words: "White is better (+2.8 for you)", "Black
    /// connects in 3", "The game is about even (+0.1 for you)". A forced win is a
    /// connection except in the variants with other goals.
    pub fn in_words(self, side: Color, viewer: Viewer, variant: Variant) -> String {
        match self {
            Score::Mate(n) => {
                let (winner, moves) = if n > 0 { (side, n) } else { (!side, -n) };
                let who = match viewer {
                    Viewer::You(you) if you == winner => "you win".to_string(),
                    Viewer::You(_) => "you lose".to_string(),
                    Viewer::Both => String::new(),
                };
                let tail = if who.is_empty() {
                    String::new()
                } else {
                    format!(": {who}")
                };
                let verb = if variant.connection_decides() {
                    "connects"
                } else {
                    "wins"
                };
                format!("{winner} {verb} in {}{tail}", counted(moves, "move"))
            }
            Score::Cp(cp) => {
                let for_black = if side == Color::Black { cp } else { -cp };
                let leader = if for_black >= 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let pieces = f64::from(for_black.abs()) / 100.0;
                let judgement = if pieces < 0.3 {
                    "The game is about even".to_string()
                } else if pieces < 1.0 {
                    format!("{leader} is slightly better")
                } else if pieces < 3.0 {
                    format!("{leader} is better")
                } else {
                    format!("{leader} is winning")
                };
                let (number, whom) = match viewer {
                    Viewer::You(you) => {
                        let sign = if you == leader { 1.0 } else { -1.0 };
                        (sign * pieces, "you".to_string())
                    }
                    Viewer::Both => (pieces, leader.to_string()),
                };
                format!("{judgement} ({number:+.1} for {whom})")
            }
        }
    }
}

impl Solution {
    /// What was proved, in words; a win or a loss only once its proof checks with the
    /// rules alone: "proved: b1-d3 wins, in at most 3 moves (proof of 40 nodes, checked;
    /// 1200 solver nodes)".
    pub fn in_words(&self) -> String {
        let checked = self.proof.as_ref().and_then(|p| p.verify().ok());
        match (self.verdict, self.best, checked) {
            (Verdict::Win, Some(best), Some(proof)) => format!(
                "proved: {best} wins, in at most {} (proof of {}, checked; {})",
                counted(proof.depth.div_ceil(2), "move"),
                counted(proof.nodes, "node"),
                counted(self.nodes, "solver node")
            ),
            (Verdict::Loss, _, Some(proof)) => format!(
                "proved: lost, the opponent connects in at most {} (proof of {}, checked)",
                counted(proof.depth.div_ceil(2), "move"),
                counted(proof.nodes, "node")
            ),
            (Verdict::Draw, _, _) => {
                "proved: neither side can force a win without repeating".into()
            }
            _ => format!(
                "not proved in {:.1} s ({})",
                self.elapsed.as_secs_f64(),
                counted(self.nodes, "solver node")
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluations_in_words() {
        let you_white = Viewer::You(Color::White);
        assert_eq!(
            Score::Cp(-280).in_words(Color::Black, you_white, Variant::Standard),
            "White is better (+2.8 for you)"
        );
        assert_eq!(
            Score::Cp(-280).in_words(Color::Black, Viewer::You(Color::Black), Variant::Standard),
            "White is better (-2.8 for you)"
        );
        assert_eq!(
            Score::Cp(12).in_words(Color::White, Viewer::Both, Variant::Standard),
            "The game is about even (+0.1 for White)"
        );
        assert_eq!(
            Score::Cp(450).in_words(Color::White, Viewer::Both, Variant::Standard),
            "White is winning (+4.5 for White)"
        );
        assert_eq!(
            Score::Mate(3).in_words(Color::Black, you_white, Variant::Standard),
            "Black connects in 3 moves: you lose"
        );
        assert_eq!(
            Score::Mate(-1).in_words(Color::Black, Viewer::Both, Variant::Standard),
            "White connects in 1 move"
        );
        assert_eq!(
            Score::Mate(2).in_words(Color::White, Viewer::Both, Variant::FieldsOfAction),
            "White wins in 2 moves"
        );
    }

    #[test]
    fn what_the_solver_proved_in_words() {
        let unknown = Solution {
            verdict: Verdict::Unknown,
            best: None,
            proof: None,
            nodes: 1,
            elapsed: std::time::Duration::from_millis(1500),
            proof_elapsed: std::time::Duration::ZERO,
            root_numbers: (Color::Black, 1, 1),
            root_moves: Vec::new(),
        };
        assert_eq!(unknown.in_words(), "not proved in 1.5 s (1 solver node)");
        let unchecked = Solution {
            verdict: Verdict::Win,
            ..unknown.clone()
        };
        assert_eq!(
            unchecked.in_words(),
            unknown.in_words(),
            "no proof to check"
        );
        let draw = Solution {
            verdict: Verdict::Draw,
            ..unknown
        };
        assert_eq!(
            draw.in_words(),
            "proved: neither side can force a win without repeating"
        );
    }
}
