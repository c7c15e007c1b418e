//! `loa engine` driven line for line as cutechess drives a UCI engine playing its
//! `linesofaction` variant: the handshake, `setoption name UCI_Variant value
//! linesofaction`, `ucinewgame`, `position startpos|fen <FEN> moves ...` with moves as
//! `b1b3`, and `go wtime .. btime ..`. Two engine processes play whole games that a
//! referee with cutechess's rules scores: a simultaneous connection is the mover's, a
//! side without a move has lost, a third repetition draws.

use loa_core::{Game, Position, RuleSet};
use loa_ugi::{OptionDecl, OptionKind};

mod common;

use common::engine::Loa;

const START_FEN: &str = "1pppppp1/P6P/P6P/P6P/P6P/P6P/P6P/1pppppp1 b - - 0 1";
const SCRAMBLED_EGGS_FEN: &str = "1PpPpPp1/p6P/P6p/p6P/P6p/p6P/P6p/1pPpPpP1 b - - 0 1";

/// How a game ended, as cutechess's referee says it.
#[derive(Debug, PartialEq)]
enum Ending {
    Connected,
    NoMove,
    Repetition,
    MoveLimit,
}

/// Starts an engine as cutechess does: `uci`, the options up to `uciok`, `isready`.
fn start_engine() -> Loa {
    let mut loa = Loa::start();
    loa.send("uci");
    let lines = loa.until(|l| l == "uciok");
    let variants = lines
        .iter()
        .filter_map(|l| l.parse::<OptionDecl>().ok())
        .find(|decl| decl.name == "UCI_Variant")
        .expect("a UCI_Variant option");
    let OptionKind::Combo { vars, .. } = variants.kind else {
        panic!("UCI_Variant is a combo: {variants:?}");
    };
    assert!(vars.contains(&"linesofaction".to_string()), "{vars:?}");
    assert!(loa.sync().is_empty());
    loa
}

/// Plays one game between two engines from `fen`, each told `go` with `limits`.
fn play(engines: &mut [Loa; 2], fen: &str, limits: &str) -> (Game, Ending) {
    // cutechess says `startpos` for its own start and the FEN otherwise.
    let start = if fen == START_FEN {
        "position startpos".to_string()
    } else {
        format!("position fen {fen}")
    };
    for loa in engines.iter_mut() {
        loa.send("setoption name UCI_Variant value linesofaction");
        loa.send("ucinewgame");
        loa.send(&start);
        assert!(loa.sync().is_empty(), "{start}");
    }
    let mut game = Game::new(Position::from_chess_fen(fen).unwrap(), RuleSet::MoverWins);
    let mut moves: Vec<String> = Vec::new();
    loop {
        if game.is_over() {
            let ending = match game.outcome().unwrap().winner {
                Some(_) => Ending::Connected,
                None => Ending::Repetition,
            };
            return (game, ending);
        }
        // cutechess scores a side without a move as lost, where our rules pass.
        if game.legal_moves().iter().all(|mv| mv.is_pass()) {
            return (game, Ending::NoMove);
        }
        if moves.len() == 300 {
            return (game, Ending::MoveLimit);
        }
        let loa = &mut engines[moves.len() % 2];
        let position = if moves.is_empty() {
            start.clone()
        } else {
            format!("{start} moves {}", moves.join(" "))
        };
        loa.send(&position);
        let (_, best) = loa.go(limits);
        assert!(
            best.len() == 4 && best.bytes().all(|b| b.is_ascii_alphanumeric()),
            "a move as cutechess reads it: {best}"
        );
        game.play_text(&best)
            .unwrap_or_else(|e| panic!("{best} after {moves:?}: {e}"));
        moves.push(best);
    }
}

#[test]
fn two_engines_play_linesofaction_as_cutechess_runs_them() {
    let mut engines = [start_engine(), start_engine()];
    for (fen, limits) in [
        (START_FEN, "go wtime 3000 btime 3000 winc 30 binc 30"),
        (SCRAMBLED_EGGS_FEN, "go movetime 40"),
    ] {
        let (game, ending) = play(&mut engines, fen, limits);
        assert_ne!(ending, Ending::MoveLimit, "{fen}: {} moves", game.ply());
        // The engines see the end as the referee does; a side without a move is where
        // the rule book (a pass) and cutechess's referee (a loss) part.
        let loa = &mut engines[0];
        let moves: Vec<String> = game.moves().map(|m| m.coordinate()).collect();
        loa.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        let expected = match ending {
            Ending::Connected => {
                let winner = game.outcome().unwrap().winner.unwrap();
                ["response p1win", "response p2win"][winner.index()]
            }
            Ending::Repetition => "response draw",
            Ending::NoMove | Ending::MoveLimit => "response none",
        };
        assert_eq!(loa.ask_one("query result"), expected, "{ending:?}");
    }
    for mut loa in engines {
        loa.send("quit");
        assert!(loa.wait().success());
    }
}

#[test]
fn a_simultaneous_connection_is_the_movers_unless_told_otherwise() {
    // c6a4 connects both sides at once.
    let both = "position fen 8/2P5/2p5/p7/P7/8/8/8 b - - 0 1 moves c6a4";
    let mut loa = start_engine();
    loa.send("setoption name UCI_Variant value linesofaction");
    loa.send(both);
    assert_eq!(loa.ask_one("query result"), "response p1win");
    // The standard game keeps the rule book's default, a draw.
    loa.send("setoption name UCI_Variant value standard");
    loa.send(both);
    assert_eq!(loa.ask_one("query result"), "response draw");
    // A rule set that was set is kept, whatever the variant's name implies.
    loa.send("setoption name SimultaneousConnection value draw");
    loa.send("setoption name UCI_Variant value linesofaction");
    loa.send(both);
    assert_eq!(loa.ask_one("query result"), "response draw");
    // A bad FEN is refused with its reason, and the game is kept.
    let lines = loa.ask("position fen 1pppppp1/P6P/P6P/P6P/P6P/P6P/P6P/1pppppp1 b KQ - 0 1");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].contains("castling field 'KQ' must be '-'"),
        "{}",
        lines[0]
    );
    assert_eq!(loa.ask_one("query result"), "response draw");
}
