//! Commands that only look at the position: `query`, `validmoves`, `d`, `eval`.

use super::Session;
use crate::{Query, Response};
use loa_core::{Bitboard, Color, GameState, Move, VariantPosition};
use loa_engine::eval;

impl Session {
    /// `query gameover|p1turn|result` -> `response ...`.
    pub(super) fn query(&self, query: Query) {
        let answer = match query {
            Query::GameOver => self.game.is_over().to_string(),
            Query::P1Turn => (self.game.position().side_to_move() == Color::Black).to_string(),
            Query::Result => match self.game.outcome() {
                None => "none",
                Some(outcome) => match outcome.winner {
                    Some(Color::Black) => "p1win",
                    Some(Color::White) => "p2win",
                    None => "draw",
                },
            }
            .to_string(),
        };
        self.out.send(&Response::Answer(answer));
    }

    /// The legal moves on one line (`0000` for a forced pass; empty once the game is over).
    pub(super) fn valid_moves(&self) {
        let moves: Vec<String> = self
            .game
            .legal_moves()
            .iter()
            .map(|mv| mv.coordinate())
            .collect();
        self.out.text(&moves.join(" "));
    }

    /// The board (last move's squares in brackets), the position text, the side to move
    /// and whether the game is over.
    pub(super) fn display(&self) {
        let pos = self.game.position();
        let marked = match self.game.last_move() {
            Some(mv) if !mv.is_pass() => Bitboard::from_square(mv.from()).with(mv.to()),
            _ => Bitboard::EMPTY,
        };
        for line in pos.diagram(marked).lines() {
            self.out.text(line);
        }
        self.out.text(&format!("position {pos}"));
        if let VariantPosition::Standard(standard) = pos {
            let fen = standard.chess_fen(self.game.ply());
            self.out.text(&format!("fen {fen}"));
        }
        let side = pos.side_to_move();
        let player = if side == Color::Black { "p1" } else { "p2" };
        self.out.text(&format!("side to move {side} ({player})"));
        let last = self
            .game
            .last_move()
            .map_or("none".to_string(), Move::coordinate);
        self.out
            .text(&format!("moves played {}, last {last}", self.game.ply()));
        match self.game.outcome() {
            None => self.out.text("game over: no"),
            Some(outcome) => self.out.text(&format!("game over: yes, {outcome}")),
        }
    }

    /// The evaluation terms of each side (the weights decide which way each counts),
    /// then the evaluation for the side to move; for a variant with an evaluation of its
    /// own, the total.
    pub(super) fn eval(&self) {
        let position = self.game.position();
        let side = position.side_to_move();
        let VariantPosition::Standard(pos) = position else {
            self.out.text(&format!(
                "total {} (for {side}, the side to move)",
                loa_engine::evaluate_any(position)
            ));
            return;
        };
        let [(black, b), (white, w)] = eval::terms(pos);
        // The weights where this position stands between a crowded board and a sparse one.
        let phase = eval::phase_of(pos);
        self.out.text(&format!(
            "{:16} {:>7} {:>7} {:>7}",
            "feature",
            black.name(),
            white.name(),
            "weight"
        ));
        for (i, term) in eval::TERMS.iter().enumerate() {
            self.out.text(&format!(
                "{:16} {:>7} {:>7} {:>7}",
                term.name,
                b[i],
                w[i],
                term.weight.at(phase)
            ));
        }
        self.out.text(&format!(
            "{:16} {:>23}",
            "tempo",
            eval::weights::TEMPO.at(phase)
        ));
        self.out.text(&format!(
            "total {} (for {side}, the side to move)",
            eval::evaluate(pos)
        ));
    }
}
