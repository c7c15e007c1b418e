use crate::{Bitboard, Color, GameState, Move, MoveError, Outcome, Position, Reason, RuleSet};

/// A game of any variant: a start, the moves played, and the result once there is one. It
/// applies the whole rule book: the end after every move (under the rule set for a
/// simultaneous connection), forced passes and the draw on the third repetition.
#[derive(Clone, Debug)]
pub struct Game<P: GameState = Position> {
    rules: RuleSet,
    start: P,
    /// The positions before each move, and the move.
    history: Vec<(P, Move)>,
    position: P,
    outcome: Option<Outcome>,
}

/// Why a move could not be played in a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("the game is over: {0}")]
    GameOver(Outcome),
    #[error(transparent)]
    Move(#[from] MoveError),
}

impl<P: GameState> Game<P> {
    pub fn new(start: P, rules: RuleSet) -> Game<P> {
        Game {
            rules,
            outcome: start.outcome(rules),
            position: start.clone(),
            start,
            history: Vec::new(),
        }
    }

    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    pub fn start(&self) -> &P {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &P {
        &self.position
    }

    /// The moves played so far.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|&(_, mv)| mv)
    }

    /// Each move played with the position it was played in, oldest first.
    pub fn line(&self) -> impl DoubleEndedIterator<Item = (&P, Move)> + ExactSizeIterator + '_ {
        self.history.iter().map(|(pos, mv)| (pos, *mv))
    }

    /// The hashes of the positions before the current one, oldest first: what a search
    /// needs to see repetitions.
    pub fn previous_hashes(&self) -> Vec<u64> {
        self.history.iter().map(|(pos, _)| pos.key()).collect()
    }

    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|&(_, mv)| mv)
    }

    /// The position's diagram, the last move's squares marked: what a player looks at.
    pub fn diagram(&self) -> String {
        let marked = self.last_move().map_or(Bitboard::EMPTY, Move::squares);
        self.position.diagram(marked)
    }

    /// The number and the side of the move at `ply` (0-based), numbered as in PGN: one
    /// number per Black move, so a game that White begins starts with `1...`.
    pub fn move_number(&self, ply: usize) -> (usize, Color) {
        crate::record::move_number(self.start.side_to_move(), ply)
    }

    /// The number of moves (plies) played.
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The legal moves now (a lone pass when the side to move has none); none once the
    /// game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.is_over() {
            Vec::new()
        } else {
            self.position.moves()
        }
    }

    /// How many times the current position has occurred, this time included.
    pub fn repetitions(&self) -> usize {
        1 + self
            .history
            .iter()
            .filter(|(pos, _)| pos.key() == self.position.key() && *pos == self.position)
            .count()
    }

    /// Plays a legal move. A connection takes precedence over a repetition.
    pub fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        if let Some(outcome) = self.outcome {
            return Err(PlayError::GameOver(outcome));
        }
        if !self.position.is_legal(mv) {
            return Err(PlayError::Move(MoveError::Illegal {
                text: mv.to_string(),
                reason: "it is not a legal move here".to_string(),
            }));
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Reads a move's text and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<Move, PlayError> {
        if let Some(outcome) = self.outcome {
            return Err(PlayError::GameOver(outcome));
        }
        let mv = self.position.parse_move(text)?;
        self.play_unchecked(mv);
        Ok(mv)
    }

    fn play_unchecked(&mut self, mv: Move) {
        self.history.push((self.position.clone(), mv));
        self.position.play(mv);
        self.outcome = self.judge(mv);
    }

    /// The end after `mv`, the last move: by the rules of the variant, else by repetition.
    fn judge(&self, mv: Move) -> Option<Outcome> {
        self.position
            .outcome_after(mv, self.rules)
            .or_else(|| (self.repetitions() >= 3).then_some(Outcome::draw(Reason::Repetition)))
    }

    /// Takes back the last move; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let (pos, mv) = self.history.pop()?;
        self.position = pos;
        self.outcome = match self.history.last() {
            None => self.start.outcome(self.rules),
            Some(&(_, last)) => self.judge(last),
        };
        Some(mv)
    }
}
