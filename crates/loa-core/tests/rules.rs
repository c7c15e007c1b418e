//! The rule book's points, one position each, with the exact result expected.
//!
//! Diagrams show the top rank first; `b` is a black piece, `w` a white piece, `.` empty.

use loa_core::perft::{divide, perft};
use loa_core::{
    Bitboard, BoardSize, Color, Game, Move, MoveError, Outcome, PlayError, Position, Reason,
    RuleSet, Square,
};
use std::collections::BTreeSet;

fn pos(text: &str) -> Position {
    text.parse()
        .unwrap_or_else(|e| panic!("position text '{text}': {e}"))
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("square {name}"))
}

fn squares(names: &[&str]) -> Bitboard {
    names
        .iter()
        .fold(Bitboard::EMPTY, |set, name| set.with(sq(name)))
}

/// The legal moves as their notation, sorted.
fn move_names(position: &Position) -> BTreeSet<String> {
    position
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .collect()
}

fn names(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Plays `moves` from `start` in a new game, each of which must be accepted.
fn game_after(start: &str, rules: RuleSet, moves: &[&str]) -> Game {
    let mut game = Game::new(pos(start), rules);
    for text in moves {
        game.play_text(text)
            .unwrap_or_else(|e| panic!("{text} from {start}: {e}"));
    }
    game
}

// ---------------------------------------------------------------------------------------
// Simultaneous connection and captures
// ---------------------------------------------------------------------------------------

/// Black c5xc3 joins Black's three pieces and removes White's only stray piece, so both
/// sides are connected by the same move.
///
/// ```text
/// 8  . . . . . . . .
/// 7  . . . . . . . .
/// 6  . . . . w . . .
/// 5  . . b . w . . .
/// 4  . . . . . . . .
/// 3  . . w . . . . .
/// 2  b b . . . . . .
/// 1  . . . . . . . .
///    a b c d e f g h
/// ```
const SIMULTANEOUS: &str = "8/8/4w3/2b1w3/8/2w5/bb6/8 b";

#[test]
fn simultaneous_connection_is_a_draw_under_draw() {
    let start = pos(SIMULTANEOUS);
    assert!(!start.is_connected(Color::Black));
    assert!(!start.is_connected(Color::White));
    // The c-file holds c5 and c3: two squares down, onto the white piece (rank 5 holds
    // c5 and e5 likewise).
    assert_eq!(
        start.targets_from(sq("c5")),
        squares(&["a5", "e5", "c3", "c7", "d6", "b4", "b6", "d4"])
    );

    let game = game_after(SIMULTANEOUS, RuleSet::Draw, &["c5xc3"]);
    assert_eq!(game.position().to_string(), "8/8/4w3/4w3/8/2b5/bb6/8 w");
    assert!(game.position().is_connected(Color::Black));
    assert!(game.position().is_connected(Color::White));
    let outcome = Outcome::draw(Reason::SimultaneousConnection);
    assert_eq!(game.outcome(), Some(outcome));
    assert_eq!(outcome.to_string(), "draw by simultaneous connection");
    assert_eq!(outcome.score_text(), "1/2-1/2");
    assert_eq!(game.position().outcome(RuleSet::Draw), Some(outcome));
}

#[test]
fn simultaneous_connection_is_the_movers_win_under_mover_wins() {
    let game = game_after(SIMULTANEOUS, RuleSet::MoverWins, &["c5-c3"]);
    assert_eq!(game.last_move(), Some(Move::new(sq("c5"), sq("c3"), true)));
    let outcome = Outcome::win(Color::Black, Reason::SimultaneousConnection);
    assert_eq!(game.outcome(), Some(outcome));
    assert_eq!(outcome.to_string(), "Black wins by simultaneous connection");
    assert_eq!(outcome.score_text(), "1-0");
    // The same board is a draw under the other rule set.
    assert_eq!(
        game.position().outcome(RuleSet::Draw),
        Some(Outcome::draw(Reason::SimultaneousConnection))
    );
    // Once over, no move is accepted.
    let mut game = game;
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.play_text("e5-e4"), Err(PlayError::GameOver(outcome)));
}

/// Black c5xc3 removes White's stray piece, which leaves White (e5, e6) connected while
/// Black (a8, c3) is not: the capture hands White the game.
///
/// ```text
/// 8  b . . . . . . .
/// 7  . . . . . . . .
/// 6  . . . . w . . .
/// 5  . . b . w . . .
/// 4  . . . . . . . .
/// 3  . . w . . . . .
/// 2  . . . . . . . .
/// 1  . . . . . . . .
///    a b c d e f g h
/// ```
#[test]
fn a_capture_that_connects_only_the_opponent_loses() {
    let start = "b7/8/4w3/2b1w3/8/2w5/8/8 b";
    for rules in [RuleSet::Draw, RuleSet::MoverWins] {
        let game = game_after(start, rules, &["c5xc3"]);
        assert_eq!(game.position().to_string(), "b7/8/4w3/4w3/8/2b5/8/8 w");
        assert!(!game.position().is_connected(Color::Black));
        assert_eq!(
            game.outcome(),
            Some(Outcome::win(Color::White, Reason::Connection)),
            "{rules}"
        );
        assert_eq!(game.outcome().unwrap().score_text(), "0-1");
    }
}

/// Black c5xc3 takes White's second-to-last piece. White's last piece, g7, is a connected
/// group on its own, so White has won.
///
/// ```text
/// 8  . . . . . . . .
/// 7  . . . . . . w .
/// 6  . . . . . . . .
/// 5  . . b . . . . .
/// 4  . . . . . . . .
/// 3  . . w . . . . .
/// 2  . . . . . . . .
/// 1  b . . . . . . b
///    a b c d e f g h
/// ```
#[test]
fn a_player_reduced_to_one_piece_has_won() {
    let start = "8/6w1/8/2b5/8/2w5/8/b6b b";
    let game = game_after(start, RuleSet::Draw, &["c5xc3"]);
    assert_eq!(game.position().to_string(), "8/6w1/8/8/8/2b5/8/b6b w");
    assert_eq!(game.position().pieces(Color::White), squares(&["g7"]));
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, Reason::Connection))
    );
    // Set up directly, the same board is over at once.
    let direct = Game::new(pos("8/6w1/8/8/8/2b5/8/b6b w"), RuleSet::MoverWins);
    assert_eq!(
        direct.outcome(),
        Some(Outcome::win(Color::White, Reason::Connection))
    );
}

// ---------------------------------------------------------------------------------------
// Forced pass
// ---------------------------------------------------------------------------------------

/// Black's a1 and h8 are each walled in by White: every line from them either leaves the
/// board or jumps a white piece (a1-c1 over b1, a1-a3 over a2, a1-d4 over b2, and the
/// same around h8). Neither side is connected.
///
/// ```text
/// 8  . . . . . . w b
/// 7  . . . . . . w w
/// 6  . . . . . . . .
/// 5  . . . . . . . .
/// 4  . . . . . . . .
/// 3  . . . . . . . .
/// 2  w w . . . . . .
/// 1  b w . . . . . .
///    a b c d e f g h
/// ```
const WALLED_IN: &str = "6wb/6ww/8/8/8/8/ww6/bw6 b";

/// White's moves after Black's pass, worked out by hand.
const WHITE_REPLIES: [&str; 22] = [
    "b1-d1", "b1-b3", "b1-d3", "a2-c2", "a2-a4", "a2-c4", "b2-d2", "b2-b4", "b2-f6", "b2-a3",
    "b2-c1", "g8-e8", "g8-g6", "g8-e6", "h7-f7", "h7-h5", "h7-f5", "g7-e7", "g7-g5", "g7-c3",
    "g7-h6", "g7-f8",
];

#[test]
fn a_player_without_a_move_must_pass() {
    let start = pos(WALLED_IN);
    assert_eq!(start.legal_moves().as_slice(), &[Move::PASS]);
    assert!(start.must_pass());
    assert_eq!(start.count_moves(), 1);
    assert_eq!(start.targets_from(sq("a1")), Bitboard::EMPTY);
    assert_eq!(start.targets_from(sq("h8")), Bitboard::EMPTY);
    assert!(start.is_legal(Move::PASS));
    assert!(!start.is_legal(Move::new(sq("a1"), sq("c1"), false)));

    // The pass is one node in perft.
    assert_eq!(perft(&start, 1), 1);
    assert_eq!(divide(&start, 1), vec![(Move::PASS, 1)]);
    assert_eq!(perft(&start, 2), 22);
    let after_pass = start.after(Move::PASS);
    assert_eq!(after_pass.to_string(), "6wb/6ww/8/8/8/8/ww6/bw6 w");
    assert_eq!(move_names(&after_pass), names(&WHITE_REPLIES));
}

#[test]
fn a_game_accepts_only_pass_from_a_player_without_a_move() {
    let mut game = Game::new(pos(WALLED_IN), RuleSet::Draw);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.legal_moves().as_slice(), &[Move::PASS]);

    let refused = game.play_text("a1-c1").unwrap_err();
    assert_eq!(
        refused,
        PlayError::Move(MoveError::MustPass { side: Color::Black })
    );
    assert_eq!(refused.to_string(), "Black has no legal move and must pass");
    assert!(matches!(
        game.play(Move::new(sq("a1"), sq("c1"), false)),
        Err(PlayError::Move(MoveError::Illegal { .. }))
    ));
    assert_eq!(game.ply(), 0, "refused moves leave the game as it was");

    assert_eq!(game.play_text("pass"), Ok(Move::PASS));
    assert_eq!(game.ply(), 1);
    assert_eq!(game.position().side_to_move(), Color::White);
    assert_eq!(game.position().to_string(), "6wb/6ww/8/8/8/8/ww6/bw6 w");
    assert_eq!(game.outcome(), None);

    // White has moves, so White may not pass.
    let refused = game.play_text("pass").unwrap_err();
    let PlayError::Move(MoveError::PassNotAllowed { legal }) = &refused else {
        panic!("expected PassNotAllowed, got {refused:?}");
    };
    let listed: BTreeSet<String> = legal.split_whitespace().map(String::from).collect();
    assert_eq!(listed, names(&WHITE_REPLIES));
    assert!(
        refused
            .to_string()
            .starts_with("pass is only legal when the side to move has no move"),
        "{refused}"
    );
    assert!(matches!(
        game.play(Move::PASS),
        Err(PlayError::Move(MoveError::Illegal { .. }))
    ));
    assert!(matches!(
        game.play_text("0000"),
        Err(PlayError::Move(MoveError::PassNotAllowed { .. }))
    ));

    assert_eq!(
        game.play_text("b2-f6"),
        Ok(Move::new(sq("b2"), sq("f6"), false))
    );
    assert_eq!(game.ply(), 2);
}

#[test]
fn pass_is_refused_from_the_start() {
    let start = Position::startpos();
    assert!(!start.must_pass());
    assert!(!start.is_legal(Move::PASS));
    assert!(matches!(
        start.parse_move("pass"),
        Err(MoveError::PassNotAllowed { .. })
    ));
}

// ---------------------------------------------------------------------------------------
// Repetition
// ---------------------------------------------------------------------------------------

#[test]
fn the_third_occurrence_of_a_position_is_a_draw() {
    // b1-b3 and back (the b-file holds b1 and b8, then b3 and b8: two squares each way);
    // a2-c2 and back (rank 2 holds a2 and h2, then c2 and h2).
    let round = ["b1-b3", "a2-c2", "b3-b1", "c2-a2"];
    let mut game = Game::new(Position::startpos(), RuleSet::Draw);
    assert_eq!(game.repetitions(), 1);
    for text in round {
        game.play_text(text).unwrap();
        assert_eq!(game.outcome(), None, "after {text}");
    }
    // The start again, Black to move: the second occurrence.
    assert_eq!(*game.position(), Position::startpos());
    assert_eq!(game.repetitions(), 2);
    assert!(!game.is_over());

    for (i, text) in round.iter().enumerate() {
        game.play_text(text).unwrap();
        if i < 3 {
            // Each of these positions occurs for the second time only.
            assert_eq!(game.repetitions(), 2, "after {text}");
            assert_eq!(game.outcome(), None, "after {text}");
        }
    }
    assert_eq!(game.ply(), 8);
    assert_eq!(*game.position(), Position::startpos());
    assert_eq!(game.repetitions(), 3);
    let draw = Outcome::draw(Reason::Repetition);
    assert_eq!(game.outcome(), Some(draw));
    assert_eq!(draw.to_string(), "draw by third repetition");
    assert_eq!(game.play_text("b1-b3"), Err(PlayError::GameOver(draw)));

    // Taking the last move back removes the draw.
    assert_eq!(game.undo(), Some(Move::new(sq("c2"), sq("a2"), false)));
    assert_eq!(game.ply(), 7);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.repetitions(), 2);
    assert_eq!(
        game.position().to_string(),
        "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/2w4w/1bbbbbb1 w"
    );
    // And playing it again draws again.
    game.play_text("c2-a2").unwrap();
    assert_eq!(game.outcome(), Some(draw));
}

/// WALLED_IN with a white piece on d5 that shuttles to e5 and back while Black passes.
/// The pieces after a pass are those before it with the other side to move: another
/// position, so the first repetition comes only after a whole round of four plies.
///
/// ```text
/// 8  . . . . . . w b
/// 7  . . . . . . w w
/// 6  . . . . . . . .
/// 5  . . . w . . . .
/// 4  . . . . . . . .
/// 3  . . . . . . . .
/// 2  w w . . . . . .
/// 1  b w . . . . . .
///    a b c d e f g h
/// ```
#[test]
fn repetition_counts_the_side_to_move_and_passes() {
    let start = pos("6wb/6ww/8/3w4/8/8/ww6/bw6 b");
    let passed = pos("6wb/6ww/8/3w4/8/8/ww6/bw6 w");
    assert_eq!(start.after(Move::PASS), passed);
    assert_ne!(start, passed);
    assert_ne!(start.hash(), passed.hash());

    let round = ["pass", "d5-e5", "pass", "e5-d5"];
    let mut game = Game::new(start, RuleSet::Draw);
    for (ply, text) in round.iter().chain(&round).enumerate() {
        assert_eq!(game.outcome(), None, "before ply {ply}");
        game.play_text(text)
            .unwrap_or_else(|e| panic!("{text} at ply {ply}: {e}"));
        // Plies 0-2 reach new positions; ply 3 is back at the start (second time), and
        // ply 7 brings the start for the third time.
        let expected_repetitions = if ply < 3 {
            1
        } else if ply < 7 {
            2
        } else {
            3
        };
        assert_eq!(
            game.repetitions(),
            expected_repetitions,
            "after ply {ply} ({text})"
        );
    }
    assert_eq!(game.ply(), 8);
    assert_eq!(*game.position(), start);
    assert_eq!(game.outcome(), Some(Outcome::draw(Reason::Repetition)));
}

// ---------------------------------------------------------------------------------------
// The example from the 1995 rules post (seeds/004)
// ---------------------------------------------------------------------------------------

/// ```text
/// 8  . . . . . . . .
/// 7  . . . . . . . .
/// 6  . w . w b . . .
/// 5  . . . . . . . .
/// 4  . b w w . . . .
/// 3  . w w . b . . .
/// 2  . . w . . b . .
/// 1  . . . . . . . .
///    a b c d e f g h
/// ```
const SEED: &str = "8/8/1w1wb3/8/1bww4/1ww1b3/2w2b2/8 w";

#[test]
fn the_seed_example_b6_has_exactly_three_moves() {
    let position = pos(SEED);
    assert_eq!(
        position.targets_from(sq("b6")),
        squares(&["a5", "c7", "e6"])
    );
    let from_b6: BTreeSet<String> = position
        .legal_moves()
        .iter()
        .filter(|m| m.from() == sq("b6"))
        .map(|m| m.to_string())
        .collect();
    assert_eq!(from_b6, names(&["b6-a5", "b6-c7", "b6xe6"]));
    assert!(position.is_legal(Move::new(sq("b6"), sq("e6"), true)));
    // b6xf2 jumps the black piece on e3; b6-b3 lands on White's own piece.
    assert!(!position.is_legal(Move::new(sq("b6"), sq("f2"), true)));
    assert!(!position.is_legal(Move::new(sq("b6"), sq("b3"), false)));
    let err = position.parse_move("b6xf2").unwrap_err();
    assert!(
        matches!(&err, MoveError::Illegal { reason, .. } if reason.contains("enemy piece on e3")),
        "{err}"
    );
    let err = position.parse_move("b6-b3").unwrap_err();
    assert!(
        matches!(&err, MoveError::Illegal { reason, .. } if reason.contains("own colour")),
        "{err}"
    );
}

#[test]
fn the_seed_example_c2_c5_wins_for_white() {
    let mut game = Game::new(pos(SEED), RuleSet::Draw);
    assert_eq!(game.outcome(), None);
    assert_eq!(
        game.play_text("c2-c5"),
        Ok(Move::new(sq("c2"), sq("c5"), false))
    );
    // The post's second diagram.
    assert_eq!(
        game.position().to_string(),
        "8/8/1w1wb3/2w5/1bww4/1ww1b3/5b2/8 b"
    );
    assert!(game.position().is_connected(Color::White));
    assert!(!game.position().is_connected(Color::Black));
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, Reason::Connection))
    );
    assert_eq!(
        game.outcome().unwrap().to_string(),
        "White wins by connection"
    );
}

// ---------------------------------------------------------------------------------------
// Smaller boards
// ---------------------------------------------------------------------------------------

/// Rank 1 holds a1, b1 and d1, so d1 moves three squares along it: to g1, which is on the
/// 8x8 board but not on the 6x6 one.
///
/// ```text
/// 6  . . . . . w
/// 5  . . . . . .
/// 4  . . . . . .
/// 3  . . . . . .
/// 2  . . . . . .
/// 1  b b . b . .
///    a b c d e f
/// ```
#[test]
fn a_move_off_the_6x6_board_is_not_generated() {
    let six = pos("5w/6/6/6/6/bb1b2 b");
    assert_eq!(six.size(), BoardSize::Six);
    assert_eq!(six.targets_from(sq("d1")), squares(&["c2", "d2", "e2"]));
    assert!(!six.is_legal(Move::new(sq("d1"), sq("g1"), false)));
    assert!(six
        .legal_moves()
        .iter()
        .all(|m| BoardSize::Six.mask().contains(m.to())));
    assert_eq!(
        six.parse_move("d1-g1"),
        Err(MoveError::OffBoard {
            text: "d1-g1".to_string(),
            square: sq("g1"),
            size: 6
        })
    );

    // The same pieces on the 8x8 board (White's piece on h8): d1-g1 is a move there.
    let eight = pos("7w/8/8/8/8/8/8/bb1b4 b");
    assert_eq!(
        eight.targets_from(sq("d1")),
        squares(&["c2", "d2", "e2", "g1"])
    );
    assert_eq!(
        eight.parse_move("d1-g1"),
        Ok(Move::new(sq("d1"), sq("g1"), false))
    );
}

/// The long diagonal holds a1, c3 and e5, so e5 moves three squares along it: to h8
/// (off the 7x7 board) or b2.
///
/// ```text
/// 7  w . . . . . .
/// 6  . . . . . . .
/// 5  . . . . b . .
/// 4  . . . . . . .
/// 3  . . b . . . .
/// 2  . . . . . . .
/// 1  b . . . . . .
///    a b c d e f g
/// ```
#[test]
fn a_move_off_the_7x7_board_is_not_generated() {
    let seven = pos("w6/7/4b2/7/2b4/7/b6 b");
    assert_eq!(seven.size(), BoardSize::Seven);
    assert_eq!(
        seven.targets_from(sq("e5")),
        squares(&["b2", "d5", "f5", "e4", "e6", "d6", "f4"])
    );
    assert!(!seven.is_legal(Move::new(sq("e5"), sq("h8"), false)));
    assert!(seven
        .legal_moves()
        .iter()
        .all(|m| BoardSize::Seven.mask().contains(m.to())));
    assert!(matches!(
        seven.parse_move("e5-h8"),
        Err(MoveError::OffBoard { size: 7, .. })
    ));

    let eight = pos("8/w7/8/4b3/8/2b5/8/b7 b");
    assert_eq!(
        eight.targets_from(sq("e5")),
        squares(&["b2", "d5", "f5", "e4", "e6", "d6", "f4", "h8"])
    );
}
