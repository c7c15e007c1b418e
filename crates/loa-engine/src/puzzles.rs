//! Puzzles from real games: positions where the side to move has a forced win of 2 to 6
//! moves, proved by the proof-number solver. A proof whose longest line is at most 11
//! plies is a win within 6 moves whatever the loser does, so the length is proved too,
//! not guessed by a search. The line written is the proof's: the winner's move at each
//! of its turns, and the loser's reply that holds out longest.
//!
//! One a line in a file: `variant ; rules ; position ; winning line`.

use crate::solver::{SolveLimits, Solver, Verdict};
use crate::{Engine, Score, SearchLimits, SearchRequest};
use loa_core::proof::{Next, Proof};
use loa_core::{Game, GameState, Move, Outcome, RuleSet, Variant, VariantPosition};
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::AtomicBool;

/// The fewest and most moves of the winner a puzzle asks for.
pub const MIN_MOVES: usize = 2;
pub const MAX_MOVES: usize = 6;

/// What finding puzzles in a game costs.
#[derive(Clone, Copy, Debug)]
pub struct PuzzleLimits {
    /// The search that picks the positions worth proving, in nodes.
    pub screen_nodes: u64,
    /// The solver's budget for each position picked, in nodes.
    pub solve_nodes: u64,
    /// The solver's table, in MiB.
    pub table_mb: usize,
}

impl Default for PuzzleLimits {
    fn default() -> PuzzleLimits {
        PuzzleLimits {
            screen_nodes: 30_000,
            solve_nodes: 2_000_000,
            table_mb: 64,
        }
    }
}

/// A puzzle: a position and a winning line from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub rules: RuleSet,
    pub position: VariantPosition,
    /// The winner's moves and the loser's replies, ending with the win.
    pub line: Vec<Move>,
}

impl Puzzle {
    pub fn variant(&self) -> Variant {
        self.position.variant()
    }

    /// The winner's moves in the line.
    pub fn moves(&self) -> usize {
        self.line.len().div_ceil(2)
    }

    /// What the puzzle is about, from its first move.
    pub fn themes(&self) -> Vec<Theme> {
        let Some(&first) = self.line.first() else {
            return Vec::new();
        };
        let pos = &self.position;
        let winner = pos.side_to_move();
        let mut themes = Vec::new();
        if first.is_capture() {
            themes.push(Theme::Capture);
        }
        // Threats and groups are about connections, which do not decide every variant.
        if !self.variant().connection_decides() {
            return themes;
        }
        // The opponent would connect at once if it were its move: the first move stops it.
        let mut waiting = *pos;
        waiting.play(Move::PASS);
        if wins_at_once(&waiting, self.rules) {
            themes.push(Theme::Block);
        }
        let after = pos.after(first);
        if after.pieces(winner).groups().count() < pos.pieces(winner).groups().count() {
            themes.push(Theme::Connection);
        }
        themes
    }

    /// Reads a puzzle line: `variant ; rules ; position ; winning line`.
    pub fn parse(text: &str) -> Result<Puzzle, String> {
        let fields: Vec<&str> = text.split(';').map(str::trim).collect();
        let [variant, rules, position, line] = fields[..] else {
            return Err("a puzzle is 'variant ; rules ; position ; winning line'".to_string());
        };
        let variant: Variant = variant.parse().map_err(|e| format!("{e}"))?;
        let rules: RuleSet = rules
            .parse()
            .map_err(|_| format!("unknown rule set '{}'", loa_core::excerpt(rules)))?;
        let position = VariantPosition::parse(variant, position).map_err(|e| e.to_string())?;
        let mut game = Game::new(position, rules);
        let mut moves = Vec::new();
        for text in line.split_whitespace() {
            moves.push(game.play_text(text).map_err(|e| e.to_string())?);
        }
        if moves.is_empty() {
            return Err("the winning line has no move".to_string());
        }
        let winner = position.side_to_move();
        if game.outcome().and_then(|o| o.winner) != Some(winner) {
            return Err(format!("the line does not end in {winner}'s win"));
        }
        Ok(Puzzle {
            rules,
            position,
            line: moves,
        })
    }
}

/// `standard ; draw ; <position> ; b1-d3 a2-c2 d3-d5`.
impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line: Vec<String> = self.line.iter().map(Move::to_string).collect();
        write!(
            f,
            "{} ; {} ; {} ; {}",
            self.variant().name(),
            self.rules,
            self.position,
            line.join(" ")
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Theme {
    /// The first move captures.
    Capture,
    /// The opponent threatened to connect at once; the first move stops it.
    Block,
    /// The first move joins two of the winner's groups.
    Connection,
}

impl Theme {
    pub const ALL: [Theme; 3] = [Theme::Capture, Theme::Block, Theme::Connection];

    pub fn name(self) -> &'static str {
        match self {
            Theme::Capture => "capture",
            Theme::Block => "block",
            Theme::Connection => "connection",
        }
    }
}

/// Whether the side to move has a move that wins at once.
fn wins_at_once(pos: &VariantPosition, rules: RuleSet) -> bool {
    let side = pos.side_to_move();
    let mut wins = false;
    pos.for_each_move(|mv| {
        if !wins {
            wins = matches!(pos.after(mv).outcome(rules), Some(Outcome { winner: Some(w), .. }) if w == side);
        }
    });
    wins
}

/// The puzzles of one game: the first position of each forced win of 2 to 6 moves that
/// the loser's move before walked into (a position whose side to move was already lost
/// a move earlier is part of the same win, not a puzzle of its own).
pub fn find(
    engine: &mut Engine,
    game: &Game<VariantPosition>,
    limits: &PuzzleLimits,
) -> Vec<Puzzle> {
    let stop = AtomicBool::new(false);
    let moves: Vec<Move> = game.moves().collect();
    let mut replay = Game::new(*game.start(), game.rules());
    let mut puzzles = Vec::new();
    // Whether the side to move was lost, as the screening search saw it, a ply ago.
    let mut lost_before = false;
    let mut skip_until = 0;
    for (ply, &mv) in moves.iter().enumerate() {
        if replay.is_over() {
            break;
        }
        let request = SearchRequest::for_game(
            &replay,
            SearchLimits {
                nodes: Some(limits.screen_nodes),
                ..SearchLimits::default()
            },
        );
        let score = engine.search_any(&request, &stop, |_| {}).score;
        let promising = matches!(score, Score::Mate(n) if n > 0 && n as usize <= MAX_MOVES + 2)
            || matches!(score, Score::Cp(cp) if cp >= 600);
        if promising && !lost_before && ply >= skip_until {
            if let Some(puzzle) = prove(&replay, limits, &stop) {
                skip_until = ply + puzzle.line.len();
                puzzles.push(puzzle);
            }
        }
        lost_before = matches!(score, Score::Mate(n) if n < 0);
        replay
            .play(mv)
            .expect("the moves of a game replay from its start");
    }
    puzzles
}

/// The puzzle at the game's position, if the solver proves a win of 2 to 6 moves.
pub fn prove(
    game: &Game<VariantPosition>,
    limits: &PuzzleLimits,
    stop: &AtomicBool,
) -> Option<Puzzle> {
    let root = *game.position();
    // A win in one is no puzzle.
    if wins_at_once(&root, game.rules()) {
        return None;
    }
    let solve_limits = SolveLimits {
        nodes: Some(limits.solve_nodes),
        time: None,
    };
    let mut solver = Solver::new(limits.table_mb, game.rules(), solve_limits, stop).ok()?;
    let solution = solver.solve(&root, &game.previous_hashes());
    if solution.verdict != Verdict::Win {
        return None;
    }
    let proof = solution.proof?;
    // Checked with the rules alone, as anyone can check it.
    proof.verify().ok()?;
    let longest = proof.longest_line()?;
    if longest > 2 * MAX_MOVES - 1 {
        return None;
    }
    let line = longest_resistance(&proof)?;
    let puzzle = Puzzle {
        rules: game.rules(),
        position: root,
        line,
    };
    (puzzle.moves() >= MIN_MOVES).then_some(puzzle)
}

/// What the solver says of a winner's move off a puzzle's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Alternative {
    /// It wins too: the line on from it, the loser's longest resistance first.
    Wins(Vec<Move>),
    /// It lets the win go: the loser is not lost after it.
    DoesNotWin,
    /// Not proved either way within the budget.
    Unknown,
}

/// Judges the position after a winner's move off a puzzle's line (the loser to move, the
/// game not over): whether the move wins too, proved by the solver and checked.
pub fn judge_alternative(
    game: &Game<VariantPosition>,
    limits: &PuzzleLimits,
    stop: &AtomicBool,
) -> Alternative {
    let solve_limits = SolveLimits {
        nodes: Some(limits.solve_nodes),
        time: None,
    };
    let Ok(mut solver) = Solver::new(limits.table_mb, game.rules(), solve_limits, stop) else {
        return Alternative::Unknown;
    };
    let solution = solver.solve(game.position(), &game.previous_hashes());
    match solution.verdict {
        Verdict::Loss => {
            let line = solution
                .proof
                .filter(|proof| proof.verify().is_ok())
                .and_then(|proof| longest_resistance(&proof));
            line.map_or(Alternative::Unknown, Alternative::Wins)
        }
        Verdict::Win | Verdict::Draw => Alternative::DoesNotWin,
        Verdict::Unknown => Alternative::Unknown,
    }
}

/// The proof's line in which the loser holds out longest: at each of the loser's turns
/// the reply whose proof goes deepest.
fn longest_resistance(proof: &Proof) -> Option<Vec<Move>> {
    let mut depths: HashMap<usize, usize> = HashMap::new();
    let mut line = Vec::new();
    let mut pos = proof.start;
    let mut node = 0;
    loop {
        let choices = proof.nodes.get(node)?;
        let (text, next) = choices.iter().max_by_key(|(_, next)| match next {
            Next::Win => 0,
            Next::Node(n) => 1 + depth(proof, *n, &mut depths),
        })?;
        let mv = pos.parse_move(text).ok()?;
        line.push(mv);
        pos.play(mv);
        match next {
            Next::Win => return Some(line),
            Next::Node(n) => node = *n,
        }
    }
}

/// The longest line below a proof node, in plies; proofs are acyclic.
fn depth(proof: &Proof, node: usize, memo: &mut HashMap<usize, usize>) -> usize {
    if let Some(&d) = memo.get(&node) {
        return d;
    }
    let d = proof.nodes[node]
        .iter()
        .map(|(_, next)| match next {
            Next::Win => 1,
            Next::Node(n) => 1 + depth(proof, *n, memo),
        })
        .max()
        .unwrap_or(0);
    memo.insert(node, d);
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use loa_core::Position;

    fn game_at(text: &str) -> Game<VariantPosition> {
        let pos: Position = text.parse().unwrap();
        Game::new(VariantPosition::from(pos), RuleSet::Draw)
    }

    #[test]
    fn a_forced_win_in_two_is_proved_with_its_line_and_themes() {
        // White captures on c5, then connects whatever Black does.
        let game = game_at("4b3/5w2/2w1wwb1/2b1www1/3w4/8/7w/8 w");
        let puzzle = prove(&game, &PuzzleLimits::default(), &AtomicBool::new(false)).unwrap();
        assert_eq!(
            puzzle.to_string(),
            "standard ; draw ; 4b3/5w2/2w1wwb1/2b1www1/3w4/8/7w/8 w ; g5xc5 e8-f8 h2-f4"
        );
        assert_eq!(puzzle.moves(), 2);
        // The capture also joins c6 to the rest: two groups and h2 left.
        assert_eq!(puzzle.themes(), vec![Theme::Capture, Theme::Connection]);
        assert_eq!(Puzzle::parse(&puzzle.to_string()), Ok(puzzle));
    }

    #[test]
    fn a_move_off_the_line_is_judged_by_the_solver() {
        let game = game_at("4b3/5w2/2w1wwb1/2b1www1/3w4/8/7w/8 w");
        let limits = PuzzleLimits::default();
        let stop = AtomicBool::new(false);
        let after = |text: &str| {
            let mut game = game.clone();
            game.play_text(text).unwrap();
            game
        };
        // The line's own first move wins, and the loser's longest reply comes first.
        let Alternative::Wins(line) = judge_alternative(&after("g5xc5"), &limits, &stop) else {
            panic!("the line's move wins");
        };
        assert_eq!(line.len() % 2, 0, "the loser's reply, then the winner's");
        // Another way, longer: the loser holds out eight moves.
        let Alternative::Wins(longer) = judge_alternative(&after("h2-h1"), &limits, &stop) else {
            panic!("h2-h1 wins too");
        };
        assert_eq!(longer.len(), 16);
        // Taking e8 is not enough: Black is no longer lost.
        assert_eq!(
            judge_alternative(&after("e5xe8"), &limits, &stop),
            Alternative::DoesNotWin
        );
        // Stopped before a proof: neither said.
        assert_eq!(
            judge_alternative(&after("h2-h1"), &limits, &AtomicBool::new(true)),
            Alternative::Unknown
        );
    }

    #[test]
    fn a_game_gives_the_first_position_of_its_forced_win() {
        let record = include_str!("../../loa-core/tests/data/records/games.pgn");
        let game = loa_core::record::read_games(record)
            .next()
            .unwrap()
            .unwrap()
            .replay
            .game;
        let puzzles = find(&mut Engine::new(16), &game, &PuzzleLimits::default());
        let found: Vec<String> = puzzles.iter().map(Puzzle::to_string).collect();
        assert_eq!(
            found,
            [
                "standard ; draw ; b2bb1bb/4bw1w/w1w3bw/b1wwbw2/5w2/3b2w1/6w1/b4b2 w ; \
              a6-e6 d8xd5 c6xg6 h8-d8 g2xd5"
            ]
        );
        assert_eq!(puzzles[0].moves(), 3);
    }

    #[test]
    fn a_first_move_that_stops_a_connection_in_one_is_a_block() {
        // White would connect at once if it were its move; c5-b4 stops it.
        let puzzle = Puzzle::parse(
            "standard ; draw ; 8/8/8/2bwww2/2bwb3/1b2bb2/1bwwb3/5bb1 b ; \
             c5-b4 c2xc4 f3-c3 d4-h8 c3-c1 e5xb2 b4xd2 h8-g8 c1-c3",
        )
        .unwrap();
        assert_eq!(puzzle.moves(), 5);
        assert_eq!(puzzle.themes(), vec![Theme::Block]);
    }

    #[test]
    fn a_win_in_one_is_no_puzzle() {
        let game = game_at("2w2w2/8/8/8/8/8/8/b1b5 b");
        assert_eq!(
            prove(&game, &PuzzleLimits::default(), &AtomicBool::new(false)),
            None
        );
    }

    #[test]
    fn a_puzzle_line_reads_and_writes_and_must_end_in_the_win() {
        let text = "standard ; draw ; 2w2w2/8/8/8/8/8/8/b1b5 b ; a1-b2";
        let puzzle = Puzzle::parse(text).unwrap();
        assert_eq!(puzzle.to_string(), text);
        assert_eq!(puzzle.moves(), 1);
        let wrong = Puzzle::parse("standard ; draw ; 2w2w2/8/8/8/8/8/8/b1b5 b ; a1-a2");
        assert_eq!(
            wrong,
            Err("the line does not end in Black's win".to_string())
        );
        assert!(Puzzle::parse("standard ; draw ; 2w2w2/8/8/8/8/8/8/b1b5 b").is_err());
        assert!(Puzzle::parse("standard ; draw ; 2w2w2/8/8/8/8/8/8/b1b5 b ; ").is_err());
        assert!(Puzzle::parse("chess ; draw ; 8/8 b ; a1-a2").is_err());
        assert!(Puzzle::parse("standard ; draw ; 2w2w2/8/8/8/8/8/8/b1b5 b ; a1-a7").is_err());
    }
}
