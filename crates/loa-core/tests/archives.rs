//! Records as other sites and older programs write them (`tests/data/records/archive.*`
//! and inline): FF[3] SGF, moves with a space or a colon, resignations and forfeits in a
//! move's place, Scrambled Eggs on the reflected array, and files where one game is bad
//! while the others still count.

mod common {
    pub mod records;
}

use common::records::read_records;
use loa_core::record::{
    read_games, read_games_as, CheckedGame, GameError, Names, RecordResult, ReplayError,
};
use loa_core::{BoardSize, GameState, Variant};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/records/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The reflected array: our Scrambled Eggs upside down, Black on e8.
const REFLECTED: &str = "1wbwbwb1/b6w/w6b/b6w/w6b/b6w/w6b/1bwbwbw1 b";
/// After the reflected game of the archives.
const REFLECTED_FINAL: &str = "1wb3b1/b3b1ww/w6b/b4w2/w6b/2w1b1bw/2w4b/3w1bw1 w";

fn good(games: &[Result<CheckedGame, GameError>], i: usize) -> &CheckedGame {
    games[i]
        .as_ref()
        .unwrap_or_else(|e| panic!("game {}: {e}", i + 1))
}

fn moves_text(game: &CheckedGame) -> Vec<String> {
    game.record.moves.iter().map(ToString::to_string).collect()
}

#[test]
fn ff3_sgf_from_older_programs() {
    let games: Vec<_> = read_games(&data("archive.sgf")).collect();
    assert_eq!(games.len(), 3);

    // Mixed-case names, comments before, between and after the moves, an empty PW[],
    // upper-case squares, a space between squares, `:` and `+`, and `B[Resigns]`.
    let first = good(&games, 0);
    assert_eq!(first.number, 1);
    assert_eq!(first.record.event.as_deref(), Some("Archive Open 1998"));
    assert_eq!(first.record.black.as_deref(), Some("Kok"));
    assert_eq!(first.record.white, None, "PW[] names no one");
    assert_eq!(
        moves_text(first),
        ["b1-b3", "h4-f2", "d1xa4", "h2-e2"],
        "the comment after the end is no move"
    );
    assert_eq!(first.record.result, RecordResult::WhiteWins);
    assert_eq!(first.record.termination.as_deref(), Some("resignation"));
    assert_eq!(
        first.record.tag("C"),
        Some("Round 1: a comment before the moves")
    );

    // Scrambled Eggs from a site whose array is ours reflected: found from the moves.
    let eggs = good(&games, 1);
    assert_eq!(eggs.record.start.to_string(), REFLECTED);
    assert_eq!(eggs.record.reflected_start(), Some(Variant::ScrambledEggs));
    assert_eq!(eggs.record.named_start(), None);
    assert_eq!(eggs.record.variant(), Variant::ScrambledEggs);
    assert_eq!(eggs.record.white.as_deref(), Some("Björnsson"));
    assert_eq!(eggs.record.moves.len(), 15);
    assert_eq!(eggs.record.moves[2].to_string(), "a3xc1");
    assert_eq!(eggs.replay.game.position().to_string(), REFLECTED_FINAL);
    assert_eq!(eggs.record.result, RecordResult::BlackWins);
    assert_eq!(eggs.record.termination.as_deref(), Some("forfeit"));
    // Written back, the start is given whole, and read back the same.
    for text in [eggs.record.to_sgf(), eggs.record.to_pgn()] {
        let again = &read_records(&text).unwrap()[0];
        assert_eq!(again.start, eggs.record.start, "{text}");
        assert_eq!(again.variant(), Variant::ScrambledEggs);
    }

    // 6x6, an empty PB[], and `B[Resign]`.
    let small = good(&games, 2);
    assert_eq!(small.record.start.size(), BoardSize::Six);
    assert_eq!(
        (small.record.black.as_deref(), small.record.white.as_deref()),
        (None, Some("Heppell"))
    );
    assert_eq!(moves_text(small), ["e6-c4", "f5-d5"]);
    assert_eq!(small.record.result, RecordResult::WhiteWins);
    assert_eq!(small.record.termination.as_deref(), Some("resignation"));
}

#[test]
fn a_bad_game_is_named_and_the_others_count() {
    let text = data("archive.pgn");
    let games: Vec<_> = read_games(&text).collect();
    assert_eq!(games.len(), 3);

    let first = good(&games, 0);
    assert_eq!(moves_text(first), ["b1-b3", "h4-f2", "d1xa4"]);
    assert_eq!(
        first.record.result,
        RecordResult::BlackWins,
        "White resigned"
    );
    assert_eq!(first.record.termination.as_deref(), Some("resignation"));

    let err = games[1].as_ref().unwrap_err();
    assert_eq!(
        err.to_string(),
        "game 2 (Random A - Random B, Club night): move 7 (Black, ply 13) b1-b2: 'b1-b2' is \
         illegal: the line from b1 towards b2 holds 3 pieces, so the piece moves 3 squares, not 1"
    );
    assert_eq!(err.number(), Some(2));
    assert_eq!(
        err.names(),
        Names {
            event: Some("Club night".to_string()),
            black: Some("Random A".to_string()),
            white: Some("Random B".to_string()),
        }
    );
    let GameError::Moves { record, error, .. } = err else {
        panic!("{err:?}");
    };
    assert_eq!(record.moves.len(), 14, "the record as read, for showing");
    assert!(matches!(**error, ReplayError::Illegal { ply: 13, .. }));

    let third = good(&games, 2);
    assert_eq!(third.number, 3);
    assert_eq!(third.record.reflected_start(), Some(Variant::ScrambledEggs));
    assert_eq!(third.replay.game.position().to_string(), REFLECTED_FINAL);
    assert_eq!(third.record.termination.as_deref(), Some("forfeit"));
}

#[test]
fn scrambled_eggs_keeps_our_array_when_the_moves_fit_it_or_fit_neither() {
    let ours = "[Variant \"Scrambled Eggs\"]\n1. b8-b6 *";
    let game = read_games(ours).next().unwrap().unwrap();
    assert_eq!(game.record.named_start(), Some(Variant::ScrambledEggs));
    assert_eq!(game.record.reflected_start(), None);

    // Illegal on both arrays: the error is told on ours.
    let neither = "[Variant \"Scrambled Eggs\"]\n1. a1-a2 *";
    let err = read_games(neither).next().unwrap().unwrap_err();
    let GameError::Moves { record, .. } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(record.named_start(), Some(Variant::ScrambledEggs));
    assert!(
        err.to_string()
            .starts_with("game 1: move 1 (Black, ply 1) a1-a2:"),
        "{err}"
    );

    // Fitting further on the reflected array, though illegal later: the reflected array,
    // and the error at the later move.
    let further = "[Variant \"Scrambled Eggs\"]\n1. e8-e6 e1-c3 2. e6-e1 *";
    let err = read_games(further).next().unwrap().unwrap_err();
    let GameError::Moves { record, error, .. } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(record.reflected_start(), Some(Variant::ScrambledEggs));
    assert_eq!(error.ply(), 3);

    // A game named by a default variant is found the same way; a position given whole is
    // kept as given.
    let untagged = "1. e8-e6 e1-c3 *";
    let game = read_games_as(untagged, Variant::ScrambledEggs)
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(game.record.reflected_start(), Some(Variant::ScrambledEggs));
    let given = "(;GM[9]SU[Custom]AB[b8][d8][f8][a6][a4][a2][h7][h5][h3][c1][e1][g1]\
        AW[c8][e8][g8][a7][a5][a3][h6][h4][h2][b1][d1][f1];B[e8-e6])";
    let err = read_games(given).next().unwrap().unwrap_err();
    assert!(
        err.to_string()
            .contains("no piece of the side to move (Black) on e8"),
        "{err}"
    );
}

#[test]
fn resignations_and_forfeits_in_pgn_movetext() {
    for (movetext, result, termination) in [
        ("1. b1-b3 resign *", RecordResult::BlackWins, "resignation"),
        (
            "1. b1-b3 h4-f2 2. Resigns 0-1",
            RecordResult::WhiteWins,
            "resignation",
        ),
        ("FORFEIT *", RecordResult::WhiteWins, "forfeit"),
        (
            "1. b1-b3 h4-f2 forfeits",
            RecordResult::WhiteWins,
            "forfeit",
        ),
    ] {
        let record = &read_records(movetext).unwrap()[0];
        assert_eq!(record.result, result, "{movetext}");
        assert_eq!(
            record.termination.as_deref(),
            Some(termination),
            "{movetext}"
        );
    }
    // A Termination tag says more than the move's place.
    let record =
        &read_records("[Termination \"resigned after a blunder\"]\n1. resigns *").unwrap()[0];
    assert_eq!(
        record.termination.as_deref(),
        Some("resigned after a blunder")
    );
}

#[test]
fn a_given_up_game_that_goes_on_or_says_otherwise_is_an_error() {
    let text = "[Event \"MSO\"]\n[Black \"Kok\"]\n[Result \"0-1\"]\n1. b1-b3 resigns 0-1\n";
    let err = read_games(text).next().unwrap().unwrap_err();
    assert_eq!(
        err.to_string(),
        "PGN game 1 (Kok - ?, MSO), line 4, column 10: resigns at move 1 (White): White \
         resigned, so Black wins, but the record gives the result 0-1 (White wins)"
    );
    assert!(matches!(err, GameError::Text { number: 1, .. }));

    let err = read_records("1. b1-b3 resigns 2. c1-c3 *").unwrap_err();
    assert_eq!(
        err.to_string(),
        "PGN game 1, line 1, column 21: 'c1-c3': a move after resigns at move 1 (White), \
         which ended the game"
    );
    let err = read_records("(;GM[9];B[b1-b3];W[resign];B[c1-c3])").unwrap_err();
    assert_eq!(
        err.to_string(),
        "SGF game 1, line 1, column 29: B[c1-c3]: a move after W[resign] at move 1 (White), \
         which ended the game"
    );
    let err = read_records("(;GM[9]RE[W+R];B[b1-b3];W[Forfeit])").unwrap_err();
    assert_eq!(
        err.to_string(),
        "SGF game 1, line 1, column 26: W[Forfeit] at move 1 (White): White forfeited, so \
         Black wins, but the record gives the result 0-1 (White wins)"
    );
    // Comments around it are not moves.
    let record = &read_records("(;GM[9];B[b1-b3]C[x];W[resign]C[y];C[z])").unwrap()[0];
    assert_eq!(record.result, RecordResult::BlackWins);
}

#[test]
fn an_error_in_the_text_names_the_game_and_its_players() {
    let text = "[Black \"A\"]\n1. b1-b3 *\n\n[Event \"MSO\"]\n[White \"Heppell\"]\n\
        1. b1-b3 h4-x2 *\n\n[Black \"C\"]\n1. c1-c3 *\n";
    let games: Vec<_> = read_games(text).collect();
    assert_eq!(games.len(), 3);
    assert!(games[0].is_ok() && games[2].is_ok());
    assert_eq!(
        games[1].as_ref().unwrap_err().to_string(),
        "PGN game 2 (? - Heppell, MSO), line 6, column 10: move 1 (White): 'h4-x2': x2 is not \
         a square"
    );
    // The error in the text alone, without the names.
    let Err(GameError::Text { error, .. }) = &games[1] else {
        panic!("{:?}", games[1]);
    };
    assert_eq!(
        error.to_string(),
        "PGN game 2, line 6, column 10: move 1 (White): 'h4-x2': x2 is not a square"
    );

    // What cannot be cut into games ends the reading, after the games before it.
    let text = "(;GM[9];B[b1-b3])\n(;GM[9]PB[never closed";
    let games: Vec<_> = read_games(text).collect();
    assert_eq!(games.len(), 2);
    assert!(games[0].is_ok());
    let err = games[1].as_ref().unwrap_err();
    assert_eq!(err.number(), None);
    assert_eq!(
        err.to_string(),
        "SGF line 2, column 10: the value of property PB is never closed: missing ']'"
    );
    let err = read_games(" \n").next().unwrap().unwrap_err();
    assert!(matches!(err, GameError::Split(_)));
    assert_eq!(
        err.to_string(),
        "PGN line 1, column 1: no game found: expected tags [Name \"value\"] or moves"
    );
}
