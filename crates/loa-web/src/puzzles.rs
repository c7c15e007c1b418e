//! Puzzles on the site: read from the lines `loa puzzles make` writes, rated by Glicko-2
//! as players are, and played a move at a time. The winner's moves are checked against
//! the puzzle's line; a move off it is judged by the solver, and one that wins too is
//! played on from, never marked wrong. Nothing here knows of HTTP or SQL.

use crate::ratings::{rate, Rating};
use crate::solver_jobs::Kept;
use crate::store::NewPuzzle;
use loa_core::{Color, Game, GameState, Move, VariantPosition};
use loa_engine::puzzles::{judge_alternative, Alternative, Puzzle, PuzzleLimits};
use sha2::{Digest, Sha256};
use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;

/// The most moves a try may send: a win proved off the line may run longer than the
/// puzzle's own, but not past this.
pub const MAX_PLAYED: usize = 200;

/// A puzzle's first rating, from its length (2 moves 1500, 6 moves 2100), uncertain
/// enough for its first tries to move it to where it belongs.
pub fn first_rating(moves: usize) -> Rating {
    Rating {
        rating: 1200.0 + 150.0 * moves as f64,
        deviation: 300.0,
        ..Rating::default()
    }
}

/// A puzzle's id, from its variant, rules and position: the same puzzle read twice, from
/// one file or two, is one puzzle.
pub fn id_of(puzzle: &Puzzle) -> String {
    const ALPHABET: &[u8; 32] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let key = format!(
        "{} ; {} ; {}",
        puzzle.variant().name(),
        puzzle.rules,
        puzzle.position
    );
    Sha256::digest(key.as_bytes())
        .iter()
        .take(8)
        .map(|b| char::from(ALPHABET[usize::from(b % 32)]))
        .collect()
}

/// Whether `text` could be a puzzle's id: checked before it reaches the database.
pub fn is_id(text: &str) -> bool {
    text.len() == 8
        && text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// A file of puzzles read: those to add, and the lines refused with why.
#[derive(Debug, Default)]
pub struct PuzzleFile {
    pub puzzles: Vec<NewPuzzle>,
    pub refused: Vec<String>,
}

/// Reads puzzles, one a line (`variant ; rules ; position ; winning line`); blank lines
/// and lines starting with `#` are skipped.
pub fn read_file(text: &str) -> PuzzleFile {
    let mut file = PuzzleFile::default();
    let mut seen = std::collections::HashSet::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match Puzzle::parse(line) {
            Ok(puzzle) => {
                let id = id_of(&puzzle);
                if seen.insert(id.clone()) {
                    file.puzzles.push(new_puzzle(id, &puzzle));
                }
            }
            Err(why) => file.refused.push(format!("line {}: {why}", n + 1)),
        }
    }
    file
}

fn new_puzzle(id: String, puzzle: &Puzzle) -> NewPuzzle {
    NewPuzzle {
        id,
        body: puzzle.to_string(),
        variant: puzzle.variant().name().to_string(),
        themes: puzzle
            .themes()
            .iter()
            .map(|t| t.name().to_string())
            .collect(),
        moves: puzzle.moves() as i64,
        rating: first_rating(puzzle.moves()),
    }
}

/// The player's and the puzzle's ratings after a first try: solving it is a win over
/// the puzzle, failing it a loss.
pub fn rate_try(player: Rating, puzzle: Rating, solved: bool) -> (Rating, Rating) {
    let winner = if solved { Color::Black } else { Color::White };
    let [player, puzzle] = rate(player, puzzle, Some(winner));
    (player, puzzle)
}

/// The solver's judgements of moves off puzzles' lines, kept: a try sends its moves from
/// the start each time, and a move judged once is not judged again.
pub struct AlternativeProofs {
    known: Kept<Alternative>,
    limits: PuzzleLimits,
}

impl Default for AlternativeProofs {
    fn default() -> AlternativeProofs {
        AlternativeProofs {
            known: Kept::new(10_000),
            // Up to about 2.5 s of the solver (docs/web.md, "Puzzles").
            limits: PuzzleLimits {
                solve_nodes: 300_000,
                table_mb: 16,
                ..PuzzleLimits::default()
            },
        }
    }
}

impl AlternativeProofs {
    fn key(game: &Game<VariantPosition>) -> String {
        let moves: Vec<String> = game.moves().map(|m| m.to_string()).collect();
        format!("{} ; {} ; {}", game.rules(), game.start(), moves.join(" "))
    }

    /// The judgement of the position after a move off a line, if it was made before.
    pub fn known(&self, game: &Game<VariantPosition>) -> Option<Alternative> {
        self.known.get(&Self::key(game))
    }

    /// Judges the position after a move off a line with the solver, or says what was
    /// judged before. Blocks: run it as a solver job. A judgement stopped is not kept.
    pub fn prove(&self, game: &Game<VariantPosition>, stop: &AtomicBool) -> Alternative {
        if let Some(known) = self.known(game) {
            return known;
        }
        let judged = judge_alternative(game, &self.limits, stop);
        if !stop.load(std::sync::atomic::Ordering::Relaxed) {
            self.known.put(Self::key(game), judged.clone());
        }
        judged
    }
}

/// What the last of a try's moves did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// It keeps the win: the loser's reply, to be played next.
    Right { reply: Move },
    /// It wins the game.
    Solved,
    /// It lets the win go: a winning line from the position before it.
    Wrong { solution: Vec<Move> },
    /// Off the line, and not proved either way in the time given: try another.
    Unproven,
}

/// Why a try's moves cannot be judged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    #[error("no move was sent")]
    NoMove,
    #[error("at most {MAX_PLAYED} moves are sent")]
    TooMany,
    #[error("move {index}: {why}")]
    Illegal { index: usize, why: String },
    #[error("move {index} is not the reply given ({expected})")]
    NotTheReply { index: usize, expected: Move },
    #[error("move {index}: the puzzle was over before it")]
    PastTheEnd { index: usize },
    #[error("the last move sent is the reply: send the player's move after it")]
    ReplyLast,
    #[error("the last move sent is the player's: the solution is asked before a move")]
    WinnerLast,
    #[error("move {index} lets the win go: the moves after it cannot be judged")]
    NotWinning { index: usize },
    #[error("move {index} was not proved to win: the moves after it cannot be judged")]
    NotProven { index: usize },
}

/// Judges the last of `played`: the moves from the puzzle's position, the winner's and
/// the loser's replies as given, the winner's last. `prove` judges a winner's move off
/// the line from the position after it.
pub fn step(
    puzzle: &Puzzle,
    played: &[String],
    prove: impl FnMut(&Game<VariantPosition>) -> Alternative,
) -> Result<Step, StepError> {
    walk(puzzle, played, prove).map(|(step, _)| step)
}

/// The winning line from the position after `played` (none, or moves ending with a
/// reply given): the moves played, then the line on. For a try given up.
pub fn solution(
    puzzle: &Puzzle,
    played: &[String],
    prove: impl FnMut(&Game<VariantPosition>) -> Alternative,
) -> Result<Vec<Move>, StepError> {
    let Some((_, judged)) = played.split_last() else {
        return Ok(puzzle.line.clone());
    };
    if !played.len().is_multiple_of(2) {
        return Err(StepError::WinnerLast);
    }
    let index = played.len() - 2;
    let (reply, line) = match walk(puzzle, judged, prove)? {
        (Step::Right { reply }, line) => (reply, line),
        (Step::Solved, _) => return Err(StepError::PastTheEnd { index: index + 1 }),
        (Step::Wrong { .. }, _) => return Err(StepError::NotWinning { index }),
        (Step::Unproven, _) => return Err(StepError::NotProven { index }),
    };
    let mut game = Game::new(puzzle.position, puzzle.rules);
    for (index, text) in played.iter().enumerate() {
        game.play_text(text).map_err(|e| StepError::Illegal {
            index,
            why: e.to_string(),
        })?;
    }
    if game.moves().last() != Some(reply) {
        return Err(StepError::NotTheReply {
            index: played.len() - 1,
            expected: reply,
        });
    }
    Ok(game.moves().chain(line.into_iter().skip(1)).collect())
}

/// Judges the last of `played`, and says the winning line on after it when it keeps the
/// win (the reply first).
fn walk(
    puzzle: &Puzzle,
    played: &[String],
    mut prove: impl FnMut(&Game<VariantPosition>) -> Alternative,
) -> Result<(Step, VecDeque<Move>), StepError> {
    if played.is_empty() {
        return Err(StepError::NoMove);
    }
    if played.len() > MAX_PLAYED {
        return Err(StepError::TooMany);
    }
    if played.len().is_multiple_of(2) {
        return Err(StepError::ReplyLast);
    }
    let winner = puzzle.position.side_to_move();
    let mut game = Game::new(puzzle.position, puzzle.rules);
    // The winning line on from here.
    let mut line: VecDeque<Move> = puzzle.line.iter().copied().collect();
    for (index, text) in played.iter().enumerate() {
        let last = index + 1 == played.len();
        if game.is_over() {
            return Err(StepError::PastTheEnd { index });
        }
        let before: Vec<Move> = game.moves().collect();
        let mv = game.play_text(text).map_err(|e| StepError::Illegal {
            index,
            why: e.to_string(),
        })?;
        let expected = line.pop_front().ok_or(StepError::PastTheEnd { index })?;
        if index % 2 == 1 {
            // The loser's: the reply this step gave.
            if mv != expected {
                return Err(StepError::NotTheReply { index, expected });
            }
            continue;
        }
        let wrong = |line: &VecDeque<Move>| Step::Wrong {
            solution: before
                .iter()
                .copied()
                .chain(std::iter::once(expected))
                .chain(line.iter().copied())
                .collect(),
        };
        if let Some(outcome) = game.outcome() {
            // A move that ends the game: a win on the line or off it, or the win lost.
            if !last {
                return Err(StepError::PastTheEnd { index: index + 1 });
            }
            let step = if outcome.winner == Some(winner) {
                Step::Solved
            } else {
                wrong(&line)
            };
            return Ok((step, VecDeque::new()));
        }
        if mv != expected {
            match prove(&game) {
                Alternative::Wins(on) => line = on.into_iter().collect(),
                Alternative::DoesNotWin if last => return Ok((wrong(&line), VecDeque::new())),
                Alternative::Unknown if last => return Ok((Step::Unproven, VecDeque::new())),
                Alternative::DoesNotWin => return Err(StepError::NotWinning { index }),
                Alternative::Unknown => return Err(StepError::NotProven { index }),
            }
        }
        if last {
            let reply = line
                .front()
                .copied()
                .ok_or(StepError::PastTheEnd { index: index + 1 })?;
            return Ok((Step::Right { reply }, line));
        }
    }
    // Not reached: the last move, the player's, has returned.
    Err(StepError::ReplyLast)
}

#[cfg(test)]
mod tests {
    use super::*;
    use loa_engine::puzzles::{judge_alternative, PuzzleLimits};
    use std::sync::atomic::AtomicBool;

    const CAPTURE_THEN_CONNECT: &str =
        "standard ; draw ; 4b3/5w2/2w1wwb1/2b1www1/3w4/8/7w/8 w ; g5xc5 e8-f8 h2-f4";

    fn puzzle() -> Puzzle {
        Puzzle::parse(CAPTURE_THEN_CONNECT).unwrap()
    }

    fn solver(game: &Game<VariantPosition>) -> Alternative {
        judge_alternative(game, &PuzzleLimits::default(), &AtomicBool::new(false))
    }

    fn step_of(moves: &[&str]) -> Result<Step, StepError> {
        let played: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        step(&puzzle(), &played, solver)
    }

    #[test]
    fn the_line_is_played_to_the_win() {
        let Ok(Step::Right { reply }) = step_of(&["g5xc5"]) else {
            panic!("the line's first move keeps the win");
        };
        assert_eq!(reply.to_string(), "e8-f8");
        assert_eq!(step_of(&["g5xc5", "e8-f8", "h2-f4"]), Ok(Step::Solved));
    }

    #[test]
    fn another_move_that_wins_is_played_on_from() {
        // h2-f4 first wins as fast: not wrong, and the solver's line goes on.
        assert!(matches!(step_of(&["h2-f4"]), Ok(Step::Right { .. })));
        // h2-h1 wins in eight: Black's longest defence comes, and the try goes on.
        let Ok(Step::Right { reply }) = step_of(&["h2-h1"]) else {
            panic!("h2-h1 wins too");
        };
        assert_eq!(reply.to_string(), "c5-a7");
        assert!(matches!(
            step_of(&["h2-h1", "c5-a7", "d4-d5"]),
            Ok(Step::Right { .. })
        ));
    }

    #[test]
    fn a_move_that_lets_the_win_go_is_wrong_with_the_solution() {
        let Ok(Step::Wrong { solution }) = step_of(&["e5xe8"]) else {
            panic!("e5xe8 lets Black off");
        };
        let texts: Vec<String> = solution.iter().map(Move::to_string).collect();
        assert_eq!(texts, ["g5xc5", "e8-f8", "h2-f4"]);
        // A move the solver could not judge in time is neither right nor wrong.
        let unknown = step(&puzzle(), &["e5xe8".to_string()], |_| Alternative::Unknown);
        assert_eq!(unknown, Ok(Step::Unproven));
    }

    #[test]
    fn a_try_given_up_is_shown_the_line_on_from_where_it_stands() {
        let texts = |moves: Vec<Move>| moves.iter().map(Move::to_string).collect::<Vec<_>>();
        let given_up = |moves: &[&str]| {
            let played: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
            solution(&puzzle(), &played, solver).map(texts)
        };
        assert_eq!(given_up(&[]).unwrap(), ["g5xc5", "e8-f8", "h2-f4"]);
        assert_eq!(
            given_up(&["g5xc5", "e8-f8"]).unwrap(),
            ["g5xc5", "e8-f8", "h2-f4"]
        );
        // Off the line, on the proved line that follows.
        let longer = given_up(&["h2-h1", "c5-a7"]).unwrap();
        assert_eq!(longer.len(), 17);
        assert_eq!(longer[..2], ["h2-h1", "c5-a7"]);
        assert_eq!(given_up(&["g5xc5"]), Err(StepError::WinnerLast));
        assert!(matches!(
            given_up(&["g5xc5", "e8-d8"]),
            Err(StepError::NotTheReply { index: 1, .. })
        ));
    }

    #[test]
    fn moves_that_cannot_be_judged_are_refused() {
        assert_eq!(step_of(&[]), Err(StepError::NoMove));
        assert!(matches!(
            step_of(&["a1-a9"]),
            Err(StepError::Illegal { index: 0, .. })
        ));
        assert!(matches!(
            step_of(&["g5xc5", "e8-d8", "h2-f4"]),
            Err(StepError::NotTheReply { index: 1, .. })
        ));
        assert_eq!(
            step_of(&["g5xc5", "e8-f8", "h2-f4", "f8-e8", "c5-c4"]),
            Err(StepError::PastTheEnd { index: 3 })
        );
        assert_eq!(step_of(&["g5xc5", "e8-f8"]), Err(StepError::ReplyLast));
        // A wrong move with more after it.
        assert_eq!(
            step_of(&["e5xe8", "d4-d5", "g5-g3"]),
            Err(StepError::NotWinning { index: 0 })
        );
        let many = vec!["g5xc5".to_string(); MAX_PLAYED + 2];
        assert_eq!(step(&puzzle(), &many, solver), Err(StepError::TooMany));
    }

    #[test]
    fn a_file_gives_each_puzzle_once_and_names_its_bad_lines() {
        let text = format!(
            "# puzzles\n{CAPTURE_THEN_CONNECT}\n\n{CAPTURE_THEN_CONNECT}\nstandard ; draw ; nonsense ; a1-a2\n"
        );
        let file = read_file(&text);
        assert_eq!(file.puzzles.len(), 1);
        assert_eq!(file.refused.len(), 1);
        assert!(
            file.refused[0].starts_with("line 5: "),
            "{:?}",
            file.refused
        );
        let p = &file.puzzles[0];
        assert!(is_id(&p.id));
        assert_eq!(p.id, id_of(&puzzle()));
        assert_eq!((p.variant.as_str(), p.moves), ("standard", 2));
        assert_eq!(p.themes, ["capture", "connection"]);
        assert_eq!(p.rating.rating, 1500.0);
        assert_eq!(first_rating(6).rating, 2100.0);
    }

    #[test]
    fn solving_a_puzzle_wins_rating_from_it() {
        let (player, puzzle) = rate_try(Rating::default(), first_rating(2), true);
        assert!(player.rating > 1500.0 && puzzle.rating < 1500.0);
        assert_eq!((player.games, puzzle.games), (1, 1));
        let (player, puzzle) = rate_try(Rating::default(), first_rating(2), false);
        assert!(player.rating < 1500.0 && puzzle.rating > 1500.0);
    }
}
