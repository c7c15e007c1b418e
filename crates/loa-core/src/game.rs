use crate::{Move, MoveError, MoveList, Outcome, Position, Reason, RuleSet};

/// A game: a start, the moves played, and the result once there is one. It applies the
/// whole rule book: connection after every move, the rule set for a simultaneous
/// connection, forced passes and the draw on the third repetition.
#[derive(Clone, Debug)]
pub struct Game {
    rules: RuleSet,
    start: Position,
    /// The positions before each move, and the move.
    history: Vec<(Position, Move)>,
    position: Position,
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

impl Game {
    pub fn new(start: Position, rules: RuleSet) -> Game {
        Game {
            rules,
            start,
            history: Vec::new(),
            position: start,
            outcome: start.outcome(rules),
        }
    }

    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played so far.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|&(_, mv)| mv)
    }

    /// The hashes of the positions before the current one, oldest first: what a search
    /// needs to see repetitions.
    pub fn previous_hashes(&self) -> Vec<u64> {
        self.history.iter().map(|(pos, _)| pos.hash()).collect()
    }

    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|&(_, mv)| mv)
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
    pub fn legal_moves(&self) -> MoveList {
        if self.is_over() {
            MoveList::new()
        } else {
            self.position.legal_moves()
        }
    }

    /// How many times the current position has occurred, this time included.
    pub fn repetitions(&self) -> usize {
        1 + self
            .history
            .iter()
            .filter(|(pos, _)| pos.hash() == self.position.hash() && *pos == self.position)
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
        self.history.push((self.position, mv));
        self.position.play(mv);
        self.outcome = self.judge();
    }

    fn judge(&self) -> Option<Outcome> {
        self.position
            .outcome(self.rules)
            .or_else(|| (self.repetitions() >= 3).then_some(Outcome::draw(Reason::Repetition)))
    }

    /// Takes back the last move; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let (pos, mv) = self.history.pop()?;
        self.position = pos;
        self.outcome = if self.history.is_empty() {
            self.start.outcome(self.rules)
        } else {
            self.judge()
        };
        Some(mv)
    }
}
