//! A game's report: every position of a game searched at one budget, and every move
//! judged by how much of the mover's expected score it gave away.
//!
//! The evaluation's weights are fitted to game results on the logistic curve
//! `1 / (1 + 10^(-score / 400))` (see `loa-tune`), so a score reads directly as an
//! expected score; a forced win is 1, a forced loss 0.

use crate::{Engine, Score, SearchLimits, SearchRequest};
use loa_core::{Color, Game, GameState, Move, Outcome, VariantPosition};
use std::sync::atomic::AtomicBool;

/// The budget of a report's search in each position, in nodes: deterministic, the same
/// report on every machine.
pub const DEFAULT_NODES: u64 = 300_000;

/// The least expected score a move gives away to be an inaccuracy, a mistake, a blunder.
const INACCURACY: f64 = 0.10;
const MISTAKE: f64 = 0.20;
const BLUNDER: f64 = 0.30;

/// What one position of the game is worth to its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// What the search found.
    Score(Score),
    /// The game is over here.
    Over(Outcome),
}

/// One position of the game, searched (or ended).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Searched {
    /// The side to move in the position.
    pub side: Color,
    pub value: Value,
    /// The search's best move, with the line it expects.
    pub line: Vec<Move>,
}

impl Searched {
    /// The expected score of `color` here, from 0 (lost) to 1 (won).
    pub fn expected(&self, color: Color) -> f64 {
        let for_side = match self.value {
            Value::Score(score) => expected_score(score),
            Value::Over(outcome) => match outcome.winner {
                Some(winner) if winner == self.side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            },
        };
        if color == self.side {
            for_side
        } else {
            1.0 - for_side
        }
    }

    /// Whether `color` has a forced win here: a connection the search sees, or the game
    /// already won.
    pub fn forced_win(&self, color: Color) -> bool {
        match self.value {
            Value::Score(Score::Mate(n)) => (n > 0) == (color == self.side),
            Value::Score(Score::Cp(_)) => false,
            Value::Over(outcome) => outcome.winner == Some(color),
        }
    }

    /// The value for Black: the pawn-like units or `#n` (a win in n for Black, `#-n`
    /// for White), as game records write evaluations.
    pub fn for_black(&self) -> String {
        let sign = if self.side == Color::Black { 1 } else { -1 };
        match self.value {
            Value::Score(Score::Cp(cp)) => format!("{:.2}", f64::from(sign * cp) / 100.0),
            Value::Score(Score::Mate(n)) => format!("#{}", sign * n),
            Value::Over(outcome) => match outcome.winner {
                Some(Color::Black) => "#0".to_string(),
                Some(Color::White) => "#-0".to_string(),
                None => "0.00".to_string(),
            },
        }
    }
}

/// The expected score of the side a score is for.
pub fn expected_score(score: Score) -> f64 {
    match score {
        Score::Cp(cp) => 1.0 / (1.0 + 10f64.powf(-f64::from(cp) / 400.0)),
        Score::Mate(n) if n > 0 => 1.0,
        Score::Mate(_) => 0.0,
    }
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Slip {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Slip {
    pub fn name(self) -> &'static str {
        match self {
            Slip::Inaccuracy => "inaccuracy",
            Slip::Mistake => "mistake",
            Slip::Blunder => "blunder",
        }
    }
}

/// One move of the game, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct JudgedMove {
    /// The move's index in the game, from 0.
    pub ply: usize,
    pub side: Color,
    pub played: Move,
    /// The search's move in the position before, when it is another.
    pub better: Option<Move>,
    /// The mover's expected score before the move (with the best move) and after it.
    pub before: f64,
    pub after: f64,
    /// A forced win before the move, none after it.
    pub lost_win: bool,
    pub slip: Option<Slip>,
    /// From 0 to 100: how little of the expected score the move gave away.
    pub accuracy: f64,
}

impl JudgedMove {
    /// The expected score the move gave away, from 0 to 1.
    pub fn loss(&self) -> f64 {
        (self.before - self.after).max(0.0)
    }
}

/// A game's report.
#[derive(Clone, Debug, PartialEq)]
pub struct GameReport {
    /// Every position of the game, the start first and the last position last.
    pub positions: Vec<Searched>,
    pub moves: Vec<JudgedMove>,
}

impl GameReport {
    /// Judges the moves of a game from its searched positions: `positions` holds one
    /// more than `moves` (the position after the last move).
    pub fn judge(positions: Vec<Searched>, moves: &[Move]) -> GameReport {
        assert_eq!(
            positions.len(),
            moves.len() + 1,
            "a position around every move"
        );
        let judged = moves
            .iter()
            .enumerate()
            .map(|(ply, &played)| {
                let (here, next) = (&positions[ply], &positions[ply + 1]);
                let side = here.side;
                let best = here.line.first().copied();
                // The searches before and after a move see one ply apart: the best move
                // itself can seem to lose a little, and loses nothing.
                let after = if best == Some(played) {
                    here.expected(side).max(next.expected(side))
                } else {
                    next.expected(side)
                };
                let before = here.expected(side).max(after);
                let loss = before - after;
                let lost_win =
                    best != Some(played) && here.forced_win(side) && !next.forced_win(side);
                let slip = if loss >= BLUNDER {
                    Some(Slip::Blunder)
                } else if loss >= MISTAKE || lost_win {
                    Some(Slip::Mistake)
                } else if loss >= INACCURACY {
                    Some(Slip::Inaccuracy)
                } else {
                    None
                };
                JudgedMove {
                    ply,
                    side,
                    played,
                    better: best.filter(|&b| b != played && slip.is_some()),
                    before,
                    after,
                    lost_win,
                    slip,
                    accuracy: move_accuracy(loss),
                }
            })
            .collect();
        GameReport {
            positions,
            moves: judged,
        }
    }

    /// A side's accuracy over the game, from 0 to 100: the mean of its moves'. `None`
    /// when it made no move.
    pub fn accuracy(&self, side: Color) -> Option<f64> {
        let (sum, count) = self
            .moves
            .iter()
            .filter(|m| m.side == side)
            .fold((0.0, 0u32), |(sum, n), m| (sum + m.accuracy, n + 1));
        (count > 0).then(|| sum / f64::from(count))
    }

    /// How many of a side's moves were of this kind.
    pub fn count(&self, side: Color, slip: Slip) -> usize {
        self.moves
            .iter()
            .filter(|m| m.side == side && m.slip == Some(slip))
            .count()
    }

    /// A short comment on a move, as a record carries it: the evaluation after it for
    /// Black (`[%eval 0.35]`), then what it was and what was better.
    pub fn comment(&self, ply: usize) -> String {
        let (Some(judged), Some(after)) = (self.moves.get(ply), self.positions.get(ply + 1)) else {
            return String::new();
        };
        let mut text = format!("[%eval {}]", after.for_black());
        if let Some(slip) = judged.slip {
            let what = if judged.lost_win {
                format!("{} (a forced win let go)", capitalised(slip.name()))
            } else {
                capitalised(slip.name())
            };
            text.push_str(&format!(" {what}"));
            if let Some(better) = judged.better {
                text.push_str(&format!(": {better} was better"));
            }
            text.push('.');
        }
        text
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// A move's accuracy from the expected score it gave away: 100 for none, falling
/// steeply (about 64 for a tenth, 15 for four tenths, 8.5 for a half, 0 past eight tenths).
fn move_accuracy(loss: f64) -> f64 {
    let points = 100.0 * loss.max(0.0);
    if points == 0.0 {
        return 100.0;
    }
    (103.1668 * (-0.04354 * points).exp() - 3.1669).clamp(0.0, 100.0)
}

/// Searches the position a game has reached, with `nodes` nodes (or finds it over).
pub fn search_position(
    engine: &mut Engine,
    game: &Game<VariantPosition>,
    nodes: u64,
    stop: &AtomicBool,
) -> Searched {
    let side = game.position().side_to_move();
    if let Some(outcome) = game.outcome() {
        return Searched {
            side,
            value: Value::Over(outcome),
            line: Vec::new(),
        };
    }
    let limits = SearchLimits {
        nodes: Some(nodes),
        ..SearchLimits::default()
    };
    let request = SearchRequest::for_game(game, limits);
    let result = engine.search_any(&request, stop, |_| {});
    let mut line = result.pv;
    if line.is_empty() {
        line.extend(result.best);
    }
    Searched {
        side,
        value: Value::Score(result.score),
        line,
    }
}

/// The report of a whole game, each position searched with `nodes` nodes;
/// `on_position` hears of each position searched (how many of how many).
pub fn report_game(
    engine: &mut Engine,
    game: &Game<VariantPosition>,
    nodes: u64,
    mut on_position: impl FnMut(usize, usize),
) -> GameReport {
    let stop = AtomicBool::new(false);
    let moves: Vec<Move> = game.moves().collect();
    let mut replay = Game::new(*game.start(), game.rules());
    let mut positions = Vec::with_capacity(moves.len() + 1);
    for (i, &mv) in moves.iter().enumerate() {
        positions.push(search_position(engine, &replay, nodes, &stop));
        on_position(i + 1, moves.len() + 1);
        replay
            .play(mv)
            .expect("the moves of a game replay from its start");
    }
    positions.push(search_position(engine, &replay, nodes, &stop));
    on_position(moves.len() + 1, moves.len() + 1);
    GameReport::judge(positions, &moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use loa_core::{Position, Reason, RuleSet, Square};

    fn searched(side: Color, cp: i32, best: &str) -> Searched {
        Searched {
            side,
            value: Value::Score(Score::Cp(cp)),
            line: vec![mv(best)],
        }
    }

    fn mv(text: &str) -> Move {
        let (from, to) = text.split_once('-').unwrap();
        Move::new(
            Square::parse(from).unwrap(),
            Square::parse(to).unwrap(),
            false,
        )
    }

    #[test]
    fn scores_read_as_expected_scores() {
        assert_eq!(expected_score(Score::Cp(0)), 0.5);
        assert!((expected_score(Score::Cp(400)) - 10.0 / 11.0).abs() < 1e-12);
        assert!((expected_score(Score::Cp(-400)) - 1.0 / 11.0).abs() < 1e-12);
        assert_eq!(expected_score(Score::Mate(3)), 1.0);
        assert_eq!(expected_score(Score::Mate(-1)), 0.0);
    }

    #[test]
    fn moves_are_judged_by_the_expected_score_they_give_away() {
        // Black: even, then after its move White is +191 (Black's expected score falls
        // from 0.5 to 1 / (1 + 10^(191/400)) = 0.25: a mistake); White answers with the
        // best move; Black then plays its best move although the search after it sees
        // a little less (nothing lost).
        let positions = vec![
            searched(Color::Black, 0, "b1-b3"),
            searched(Color::White, 191, "a2-c2"),
            searched(Color::Black, -180, "c1-c3"),
            searched(Color::White, 200, "a3-c3"),
        ];
        let moves = [mv("d1-d3"), mv("a2-c2"), mv("c1-c3")];
        let report = GameReport::judge(positions, &moves);
        let first = &report.moves[0];
        assert_eq!(first.before, 0.5);
        assert!((first.after - 1.0 / (1.0 + 10f64.powf(191.0 / 400.0))).abs() < 1e-12);
        assert_eq!(first.slip, Some(Slip::Mistake));
        assert_eq!(first.better, Some(mv("b1-b3")));
        assert!(!first.lost_win);
        // White's best move gave away nothing, though the next search sees 180, not 191.
        assert_eq!(report.moves[1].slip, None);
        assert_eq!(report.moves[1].loss(), 0.0);
        assert_eq!(report.moves[1].accuracy, 100.0);
        assert_eq!(report.moves[1].better, None);
        assert_eq!(report.moves[2].loss(), 0.0);
        assert_eq!(report.accuracy(Color::White), Some(100.0));
        let black = report.accuracy(Color::Black).unwrap();
        assert!((black - (move_accuracy(first.loss()) + 100.0) / 2.0).abs() < 1e-12);
        assert_eq!(report.count(Color::Black, Slip::Mistake), 1);
        assert_eq!(report.count(Color::Black, Slip::Blunder), 0);
    }

    #[test]
    fn thresholds_name_each_kind_of_slip() {
        // From even, a loss of x leaves 0.5 - x: the cp that gives it.
        let cp_for = |expected: f64| (400.0 * ((1.0 - expected) / expected).log10()).round();
        let cases = [
            (0.09, None),
            (0.11, Some(Slip::Inaccuracy)),
            (0.21, Some(Slip::Mistake)),
            (0.31, Some(Slip::Blunder)),
        ];
        for (loss, slip) in cases {
            let cp = cp_for(0.5 - loss) as i32;
            let positions = vec![
                searched(Color::Black, 0, "b1-b3"),
                searched(Color::White, cp, "a2-c2"),
            ];
            let report = GameReport::judge(positions, &[mv("d1-d3")]);
            assert_eq!(report.moves[0].slip, slip, "a loss of {loss}");
        }
    }

    #[test]
    fn letting_a_forced_win_go_is_at_least_a_mistake() {
        let positions = vec![
            Searched {
                side: Color::Black,
                value: Value::Score(Score::Mate(2)),
                line: vec![mv("b1-b3")],
            },
            // Still far ahead, but no longer a forced win.
            searched(Color::White, -900, "a2-c2"),
        ];
        let report = GameReport::judge(positions, &[mv("d1-d3")]);
        let judged = &report.moves[0];
        assert!(judged.lost_win);
        assert_eq!(judged.slip, Some(Slip::Mistake));
        assert_eq!(
            report.comment(0),
            "[%eval 9.00] Mistake (a forced win let go): b1-b3 was better."
        );
        // Walking into a forced loss from an even game is a blunder.
        let positions = vec![
            searched(Color::Black, 0, "b1-b3"),
            Searched {
                side: Color::White,
                value: Value::Score(Score::Mate(1)),
                line: vec![mv("a2-c2")],
            },
        ];
        let report = GameReport::judge(positions, &[mv("d1-d3")]);
        assert_eq!(report.moves[0].slip, Some(Slip::Blunder));
        assert!((report.moves[0].accuracy - 8.53).abs() < 0.01);
        assert_eq!(report.comment(0), "[%eval #-1] Blunder: b1-b3 was better.");
    }

    #[test]
    fn the_engines_own_move_lets_nothing_go_though_the_next_search_sees_less() {
        let positions = vec![
            Searched {
                side: Color::Black,
                value: Value::Score(Score::Mate(2)),
                line: vec![mv("d1-d3")],
            },
            searched(Color::White, -900, "a2-c2"),
        ];
        let report = GameReport::judge(positions, &[mv("d1-d3")]);
        assert_eq!(
            (report.moves[0].slip, report.moves[0].lost_win),
            (None, false)
        );
        assert_eq!(report.comment(1), "", "no such move");
    }

    #[test]
    fn accuracy_falls_with_the_loss() {
        assert_eq!(move_accuracy(0.0), 100.0);
        assert!((move_accuracy(0.1) - 63.59).abs() < 0.01);
        assert!((move_accuracy(0.4) - 14.91).abs() < 0.01);
        assert_eq!(move_accuracy(0.81), 0.0);
    }

    #[test]
    fn a_game_is_searched_to_its_connection() {
        // Black connects with a1-b2 (touching c1); White's two pieces are apart.
        let start: Position = "2w2w2/8/8/8/8/8/8/b1b5 b".parse().unwrap();
        let mut game = Game::new(VariantPosition::from(start), RuleSet::Draw);
        let mut engine = Engine::new(1);
        let stop = AtomicBool::new(false);
        let first = search_position(&mut engine, &game, 20_000, &stop);
        assert_eq!(first.value, Value::Score(Score::Mate(1)));
        assert_eq!(first.line[0], mv("a1-b2"));
        game.play(mv("a1-b2")).unwrap();
        let mut seen = Vec::new();
        let report = report_game(&mut engine, &game, 20_000, |done, of| seen.push((done, of)));
        assert_eq!(seen, [(1, 2), (2, 2)]);
        let last = &report.positions[1];
        assert_eq!(
            last.value,
            Value::Over(Outcome::win(Color::Black, Reason::Connection))
        );
        assert_eq!(last.for_black(), "#0");
        let judged = &report.moves[0];
        assert_eq!((judged.before, judged.after), (1.0, 1.0));
        assert_eq!(
            (judged.slip, judged.better, judged.lost_win),
            (None, None, false)
        );
        assert_eq!(report.accuracy(Color::Black), Some(100.0));
        assert_eq!(report.accuracy(Color::White), None);
        assert_eq!(report.comment(0), "[%eval #0]");
    }
}
