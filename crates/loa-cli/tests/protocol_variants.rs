//! Every variant through `loa engine`: `UCI_Variant` chosen, then whole games played by
//! the engine against itself, each position checked against the rules crate (legal moves,
//! queries, the board `d` shows, perft).

mod common;

use common::engine::Loa;
use loa_core::perft::perft;
use loa_core::{BoardSize, Color, Game, GameState, RuleSet, Variant, VariantPosition};

const ERROR: &str = "info string error: ";

/// The legal moves in coordinate form, as `validmoves` prints them.
fn valid_moves(game: &Game<VariantPosition>) -> String {
    let moves: Vec<String> = game.legal_moves().iter().map(|m| m.coordinate()).collect();
    moves.join(" ")
}

fn result_word(game: &Game<VariantPosition>) -> &'static str {
    match game.outcome() {
        None => "none",
        Some(outcome) => match outcome.winner {
            Some(Color::Black) => "p1win",
            Some(Color::White) => "p2win",
            None => "draw",
        },
    }
}

/// Sets `UCI_Variant`, which must be accepted silently.
fn choose(loa: &mut Loa, variant: Variant) {
    let lines = loa.ask(&format!("setoption name UCI_Variant value {variant}"));
    assert!(lines.is_empty(), "{variant}: {lines:?}");
}

/// The position text and side that `d` shows.
fn shown(loa: &mut Loa) -> (String, String) {
    let lines = loa.ask("d");
    let find = |prefix: &str| {
        lines
            .iter()
            .find_map(|l| l.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("no '{prefix}' in {lines:?}"))
            .to_string()
    };
    (find("position "), find("side to move "))
}

/// Checks what the engine says about the game's current position.
fn check_position(loa: &mut Loa, game: &Game<VariantPosition>) {
    let pos = game.position();
    let (text, side) = shown(loa);
    assert_eq!(text, pos.to_string());
    assert!(side.starts_with(&pos.side_to_move().to_string()), "{side}");
    assert_eq!(loa.ask_one("validmoves"), valid_moves(game), "{pos}");
    let over = if game.is_over() { "true" } else { "false" };
    assert_eq!(loa.ask_one("query gameover"), format!("response {over}"));
    let p1 = pos.side_to_move() == Color::Black;
    assert_eq!(loa.ask_one("query p1turn"), format!("response {p1}"));
    assert_eq!(
        loa.ask_one("query result"),
        format!("response {}", result_word(game))
    );
}

/// The engine plays `variant` against itself from the start, at depth 2, until the game
/// ends (or `max_plies`), the position sent back each time as a GUI would.
fn self_play(variant: Variant, max_plies: usize) -> Game<VariantPosition> {
    let mut loa = Loa::start();
    choose(&mut loa, variant);
    assert!(loa.ask("ucinewgame").is_empty());
    assert!(loa.ask("position startpos").is_empty());
    let start = variant.start(BoardSize::Eight).unwrap();
    let mut game = Game::new(start, RuleSet::Draw);
    let mut played: Vec<String> = Vec::new();
    check_position(&mut loa, &game);
    while !game.is_over() && game.ply() < max_plies {
        let (_, best) = loa.go("go depth 2");
        let mv = game
            .position()
            .parse_move(&best)
            .unwrap_or_else(|e| panic!("bestmove {best} in {}: {e}", game.position()));
        game.play(mv).unwrap();
        played.push(best);
        assert!(loa
            .ask(&format!("position startpos moves {}", played.join(" ")))
            .is_empty());
        check_position(&mut loa, &game);
    }
    if game.is_over() {
        let (_, best) = loa.go("go depth 2");
        assert_eq!(best, "(none)");
    }
    assert!(loa.close().success());
    game
}

#[test]
fn whole_games_of_every_variant() {
    for variant in Variant::ALL {
        let game = self_play(variant, 300);
        assert!(game.ply() > 4, "{variant}: {} plies", game.ply());
        assert!(
            game.is_over() || game.ply() == 300,
            "{variant} ended early without a result"
        );
    }
}

#[test]
fn perft_and_position_text_of_every_variant() {
    let mut loa = Loa::start();
    for variant in Variant::ALL {
        choose(&mut loa, variant);
        assert!(loa.ask("position startpos").is_empty());
        let start = variant.start(BoardSize::Eight).unwrap();
        let lines = loa.perft("perft 2");
        assert_eq!(
            lines.last().unwrap().parse::<u64>().unwrap(),
            perft(&start, 2),
            "{variant}"
        );
        // A position of the variant, given as text, after a move.
        let mv = start.moves()[0];
        let after = start.after(mv);
        assert!(loa.ask(&format!("position fen {after}")).is_empty());
        assert_eq!(shown(&mut loa).0, after.to_string());
        assert!(loa
            .ask(&format!("position fen {start} moves {}", mv.coordinate()))
            .is_empty());
        assert_eq!(shown(&mut loa).0, after.to_string());
    }
}

#[test]
fn a_position_or_move_of_another_variant_is_a_clear_error() {
    let mut loa = Loa::start();
    let error = |loa: &mut Loa, command: &str, fragment: &str| {
        let lines = loa.ask(command);
        assert_eq!(lines.len(), 1, "{command}: {lines:?}");
        assert!(lines[0].starts_with(ERROR), "{command}: {}", lines[0]);
        assert!(lines[0].contains(fragment), "{command}: {}", lines[0]);
    };
    error(
        &mut loa,
        "setoption name UCI_Variant value chess",
        "unknown variant 'chess'",
    );
    assert!(loa
        .ask("setoption name UCI_Variant value parachute")
        .is_empty());
    // The standard text lacks Parachute's reserves.
    error(
        &mut loa,
        "position fen 1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b",
        "reserve",
    );
    // A Parachute turn needs its placement while the opponent has a reserve.
    error(
        &mut loa,
        "position startpos moves a6c6",
        "write it as a6-c6@",
    );
    assert!(loa.ask("position startpos moves a6c6@e5").is_empty());
    assert!(loa
        .ask("setoption name UCI_Variant value ambiloa")
        .is_empty());
    error(&mut loa, "position startpos moves b8b6", "'B' moves now");
    assert!(loa
        .ask("setoption name UCI_Variant value fields-of-action")
        .is_empty());
    error(&mut loa, "position startpos moves 0000", "pass");
}

#[test]
fn random_moves_are_legal_in_every_variant() {
    let mut loa = Loa::start();
    assert!(loa.ask("setoption name RandomMoves value true").is_empty());
    for variant in Variant::ALL {
        choose(&mut loa, variant);
        assert!(loa.ask("position startpos").is_empty());
        let start = variant.start(BoardSize::Eight).unwrap();
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..8 {
            let (_, best) = loa.go("go depth 5");
            assert!(start.parse_move(&best).is_ok(), "{variant}: {best}");
            seen.insert(best);
        }
        assert!(seen.len() > 1, "{variant}: always {seen:?}");
    }
}
