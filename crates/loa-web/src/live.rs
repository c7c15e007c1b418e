//! A game being played: the rules' game with its clock, seats, offers and ending, and
//! everything that can happen to it (a move, joining, resigning, a draw offer, a
//! takeback, a flag). Each change is made on a copy of what it touches only after every
//! check has passed, and is returned as the rows to write; the caller writes them before
//! it answers.

use crate::clock::{Clock, TimeControl};
use crate::error::{ApiError, ApiResult};
use crate::ids::random_name;
use crate::levels::Strength;
use crate::lineup::{Lineup, Player};
use crate::setup::GameSetup;
use crate::store::{Change, GameRow, MoveRow, SeatRow, StoredGame};
use crate::view::{color_name, result_token, MoveView, OutcomeView, PositionView};
use loa_core::{Color, Game, GameState, Move, RuleSet, Seat, Variant, VariantPosition};
use serde::Serialize;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub winner: Option<Color>,
    /// `connection`, `simultaneous connection`, `third repetition`, `time`,
    /// `resignation`, `agreement`...
    pub reason: String,
}

/// Who is asking: the token of the seat they hold. An id lets one watch a game; only a
/// seat's token lets one act in it.
#[derive(Clone, Debug, Default)]
pub struct Caller {
    pub token: Option<String>,
}

#[derive(Clone)]
pub struct LiveGame {
    pub id: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub variant: Variant,
    pub lineup: Lineup,
    pub names: [Option<String>; 2],
    pub online: bool,
    pub game: Game<VariantPosition>,
    /// The position text after each move, the start first (kept, not recomputed: every
    /// view sends them).
    pub texts: Vec<String>,
    /// The seat that made each move.
    pub movers: Vec<Seat>,
    pub clock: Option<Clock>,
    /// When each move was played and the clocks after it.
    pub log: Vec<MoveRow>,
    pub seats: Vec<SeatRow>,
    pub started_at: Option<i64>,
    pub ending: Option<Ending>,
    pub draw_offer: Option<Color>,
    pub takeback_offer: Option<Color>,
    /// The id of the rematch, once one is made.
    pub rematch: Option<String>,
}

/// What an action changed, for the store.
pub struct Changed {
    pub truncate_from: Option<usize>,
    pub new_moves: Vec<MoveRow>,
    pub first_new_ply: usize,
    pub seats: Vec<SeatRow>,
}

impl Changed {
    pub fn nothing_at(ply: usize) -> Changed {
        Changed {
            truncate_from: None,
            new_moves: Vec::new(),
            first_new_ply: ply,
            seats: Vec::new(),
        }
    }

    pub fn as_change(&self) -> Change<'_> {
        Change {
            truncate_from: self.truncate_from,
            new_moves: &self.new_moves,
            first_new_ply: self.first_new_ply,
            seats: &self.seats,
        }
    }
}

impl LiveGame {
    /// A new game from a checked setup, started at `now` unless people must join first.
    pub fn create(setup: GameSetup, now: i64) -> LiveGame {
        let mut game = Game::new(setup.start, setup.rules);
        for &mv in &setup.moves {
            game.play(mv).expect("the setup checked its moves");
        }
        let log = setup
            .moves
            .iter()
            .map(|mv| MoveRow {
                text: mv.to_string(),
                played_at: now,
                clock_ms: None,
            })
            .collect();
        // Every person's seat has a token of its own; an online seat is taken when its
        // person opens the link, the others are the creator's from the start.
        let seats = setup
            .lineup
            .human_slots()
            .into_iter()
            .map(|(slot, _)| SeatRow {
                slot,
                token: random_name(),
                joined: !setup.online,
            })
            .collect();
        let (texts, movers) = replay_line(&game);
        let mut live = LiveGame {
            id: random_name(),
            texts,
            movers,
            created_at: now,
            updated_at: now,
            variant: setup.variant,
            lineup: setup.lineup,
            names: setup.names,
            online: setup.online,
            ending: game.outcome().map(ending_of),
            game,
            clock: setup.clock.map(Clock::new),
            log,
            seats,
            started_at: None,
            draw_offer: None,
            takeback_offer: None,
            rematch: None,
        };
        if !live.online {
            live.start(now);
        }
        live
    }

    /// The game begins. A live clock waits for the first move, so nobody loses time to a
    /// page still loading; a correspondence move's days run at once.
    fn start(&mut self, now: i64) {
        self.started_at = Some(now);
        let first_move_pending = self.log.is_empty();
        if let (Some(clock), None) = (&mut self.clock, &self.ending) {
            if !(first_move_pending && matches!(clock.control, TimeControl::Live { .. })) {
                clock.start(now);
            }
        }
    }

    pub fn rules(&self) -> RuleSet {
        self.game.rules()
    }

    pub fn position(&self) -> &VariantPosition {
        self.game.position()
    }

    pub fn is_over(&self) -> bool {
        self.ending.is_some()
    }

    pub fn seat_to_move(&self) -> Seat {
        self.position().seat_to_move()
    }

    /// The engine's strength if the seat to move is the engine's and the game goes on.
    pub fn engine_to_move(&self) -> Option<Strength> {
        if self.is_over() || self.started_at.is_none() {
            return None;
        }
        match self.lineup.player(self.seat_to_move()) {
            Player::Engine(strength) => Some(strength),
            Player::Human => None,
        }
    }

    /// The place a token holds, if it is one of this game's.
    fn slot_of(&self, token: &str) -> Option<&SeatRow> {
        self.seats.iter().find(|s| s.token == token)
    }

    /// The side of the seat the caller's token holds; `requested`, if given, must be it.
    fn caller_side(&self, caller: &Caller, requested: Option<Color>) -> ApiResult<Color> {
        let side = slot_side(&self.caller_slot(caller)?.slot);
        match requested {
            Some(requested) if requested != side => Err(ApiError::forbidden(format!(
                "that token is {side}'s seat, not {requested}'s"
            ))),
            _ => Ok(side),
        }
    }

    /// The seat the caller's token holds.
    fn caller_slot(&self, caller: &Caller) -> ApiResult<&SeatRow> {
        let token = caller
            .token
            .as_deref()
            .ok_or_else(|| ApiError::forbidden("acting in a game needs your seat's token"))?;
        self.slot_of(token)
            .ok_or_else(|| ApiError::forbidden("that token is not a seat of this game"))
    }

    /// A person at an online game's seat opens it; the game starts once every person
    /// has.
    pub fn join(&mut self, token: &str, now: i64) -> ApiResult<Changed> {
        let index = self
            .seats
            .iter()
            .position(|s| s.token == token)
            .ok_or_else(|| ApiError::forbidden("that token is not a seat of this game"))?;
        let mut changed = Changed::nothing_at(self.game.ply());
        if !self.seats[index].joined {
            self.seats[index].joined = true;
            changed.seats.push(self.seats[index].clone());
            if self.seats.iter().all(|s| s.joined) && self.started_at.is_none() {
                self.start(now);
            }
        }
        Ok(changed)
    }

    /// A person's move. `expected_ply`, when given, must be the number of moves played:
    /// a move sent for a position that has changed since is refused.
    pub fn play_human(
        &mut self,
        caller: &Caller,
        text: &str,
        expected_ply: Option<usize>,
        now: i64,
    ) -> ApiResult<Changed> {
        let slot = self.caller_slot(caller)?.slot.clone();
        self.check_can_move(expected_ply, now)?;
        if let Player::Engine(_) = self.lineup.player(self.seat_to_move()) {
            return Err(ApiError::conflict("it is the engine's turn"));
        }
        let to_move = self.lineup.slot(self.seat_to_move());
        if slot != to_move {
            return Err(ApiError::forbidden(format!(
                "it is not your turn: {to_move} is to move"
            )));
        }
        let mv = self
            .position()
            .parse_move(text)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        Ok(self.play(mv, now))
    }

    /// The engine's move, searched for the position after `ply` moves.
    pub fn play_engine(&mut self, mv: Move, ply: usize, now: i64) -> Option<Changed> {
        if self.game.ply() != ply || self.engine_to_move().is_none() {
            return None;
        }
        if !self.position().is_legal(mv) || self.flag_fallen(now) {
            return None;
        }
        Some(self.play(mv, now))
    }

    fn check_can_move(&self, expected_ply: Option<usize>, now: i64) -> ApiResult<()> {
        if let Some(ending) = &self.ending {
            return Err(ApiError::conflict(format!(
                "the game is over: {}",
                ending.reason
            )));
        }
        if self.started_at.is_none() {
            return Err(ApiError::conflict(
                "the game has not started: waiting for the other player to open their link",
            ));
        }
        if self.flag_fallen(now) {
            return Err(ApiError::conflict("the time is up"));
        }
        if let Some(ply) = expected_ply {
            if ply != self.game.ply() {
                let played = match self.game.ply() {
                    1 => "1 move has".to_string(),
                    n => format!("{n} moves have"),
                };
                return Err(ApiError::conflict(format!(
                    "the move was sent for move {ply}, but {played} been played"
                )));
            }
        }
        Ok(())
    }

    fn play(&mut self, mv: Move, now: i64) -> Changed {
        let mover = self.position().side_to_move();
        let mover_seat = self.seat_to_move();
        let ply = self.game.ply();
        self.game.play(mv).expect("checked legal");
        self.texts.push(self.position().to_string());
        self.movers.push(mover_seat);
        let clock_ms = self.clock.as_mut().map(|clock| {
            clock.press(mover, now);
            clock.remaining_ms.map(to_i64)
        });
        let row = MoveRow {
            text: mv.to_string(),
            played_at: now,
            clock_ms,
        };
        self.log.push(row.clone());
        self.draw_offer = None;
        self.takeback_offer = None;
        if let Some(outcome) = self.game.outcome() {
            self.ending = Some(ending_of(outcome));
        }
        Changed {
            truncate_from: None,
            new_moves: vec![row],
            first_new_ply: ply,
            seats: Vec::new(),
        }
    }

    fn flag_fallen(&self, now: i64) -> bool {
        let to_move = self.position().side_to_move();
        self.clock
            .is_some_and(|c| c.running_since.is_some() && c.left_at(to_move, to_move, now) == 0)
    }

    /// Ends the game on time if the side to move's flag has fallen; whether it did.
    pub fn check_flag(&mut self, now: i64) -> bool {
        if self.is_over() || !self.flag_fallen(now) {
            return false;
        }
        let loser = self.position().side_to_move();
        if let Some(clock) = &mut self.clock {
            clock.remaining_ms[loser.index()] = 0;
        }
        self.ending = Some(Ending {
            winner: Some(!loser),
            reason: "time".into(),
        });
        true
    }

    /// When the side to move's flag falls, if a clock runs.
    pub fn flag_at(&self) -> Option<i64> {
        if self.is_over() {
            return None;
        }
        self.clock?.flag_at(self.position().side_to_move())
    }

    pub fn resign(&mut self, caller: &Caller, side: Option<Color>, now: i64) -> ApiResult<()> {
        self.check_not_over()?;
        let side = self.caller_side(caller, side)?;
        self.stop_clock(now);
        self.ending = Some(Ending {
            winner: Some(!side),
            reason: "resignation".into(),
        });
        Ok(())
    }

    fn check_not_over(&self) -> ApiResult<()> {
        match &self.ending {
            Some(ending) => Err(ApiError::conflict(format!(
                "the game is over: {}",
                ending.reason
            ))),
            None => Ok(()),
        }
    }

    /// Stops the running clock at `now`, keeping the time used.
    fn stop_clock(&mut self, now: i64) {
        let to_move = self.position().side_to_move();
        if let Some(clock) = &mut self.clock {
            let left = clock.left_at(to_move, to_move, now);
            clock.remaining_ms[to_move.index()] = left;
            clock.running_since = None;
        }
    }

    /// Offers a draw, or accepts the other side's offer. The engine declines.
    pub fn offer_draw(&mut self, caller: &Caller, side: Option<Color>, now: i64) -> ApiResult<()> {
        self.check_not_over()?;
        let side = self.caller_side(caller, side)?;
        if self.draw_offer == Some(!side) {
            self.stop_clock(now);
            self.ending = Some(Ending {
                winner: None,
                reason: "agreement".into(),
            });
            self.draw_offer = None;
            return Ok(());
        }
        if self.side_is_engine(!side) {
            return Err(ApiError::conflict("the engine declines the draw"));
        }
        self.draw_offer = Some(side);
        Ok(())
    }

    fn side_is_engine(&self, side: Color) -> bool {
        (0..2).all(|index| matches!(self.lineup.player(Seat { side, index }), Player::Engine(_)))
    }

    /// Withdraws or declines an offer of a draw or a takeback.
    pub fn decline(
        &mut self,
        caller: &Caller,
        side: Option<Color>,
        takeback: bool,
    ) -> ApiResult<()> {
        self.caller_side(caller, side)?;
        if takeback {
            self.takeback_offer = None;
        } else {
            self.draw_offer = None;
        }
        Ok(())
    }

    /// Asks to take back the asking side's last move, or grants the other side's
    /// request. Against the engine, and at one board, it is granted at once.
    pub fn takeback(
        &mut self,
        caller: &Caller,
        side: Option<Color>,
        now: i64,
    ) -> ApiResult<Changed> {
        self.check_not_over()?;
        let side = self.caller_side(caller, side)?;
        let granted_to = if !self.online || self.side_is_engine(!side) {
            Some(side)
        } else if self.takeback_offer == Some(!side) {
            Some(!side)
        } else {
            None
        };
        let Some(asker) = granted_to else {
            self.takeback_offer = Some(side);
            return Ok(Changed::nothing_at(self.game.ply()));
        };
        // Back to before the asker's last move by a person (at one board: the last move).
        let one_board = !self.online && !self.lineup.has_engine();
        let mut back = self.game.clone();
        loop {
            back.undo()
                .ok_or_else(|| ApiError::conflict("there is no move to take back"))?;
            let seat = back.position().seat_to_move();
            if one_board || (seat.side == asker && self.lineup.player(seat) == Player::Human) {
                break;
            }
        }
        let keep = back.ply();
        self.game = back;
        self.log.truncate(keep);
        self.texts.truncate(keep + 1);
        self.movers.truncate(keep);
        if let Some(clock) = &mut self.clock {
            let control = clock.control;
            clock.remaining_ms = self
                .log
                .iter()
                .rev()
                .find_map(|m| m.clock_ms)
                .map_or([control.initial_ms(); 2], |c| {
                    c.map(|ms| u64::try_from(ms).unwrap_or(0))
                });
            clock.running_since = Some(now);
        }
        self.takeback_offer = None;
        self.draw_offer = None;
        Ok(Changed {
            truncate_from: Some(keep),
            new_moves: Vec::new(),
            first_new_ply: keep,
            seats: Vec::new(),
        })
    }

    /// The row to write.
    pub fn row(&self, now: i64) -> GameRow {
        GameRow {
            id: self.id.clone(),
            created_at: self.created_at,
            updated_at: now,
            variant: self.variant.name().into(),
            rules: self.rules().to_string(),
            start: self.game.start().to_string(),
            players: serde_json::to_string(&self.lineup).expect("serializable"),
            names: serde_json::to_string(&self.names).expect("serializable"),
            time_control: self
                .clock
                .map(|c| serde_json::to_string(&c.control).expect("serializable")),
            online: self.online,
            started_at: self.started_at,
            clock_ms: self.clock.map(|c| c.remaining_ms.map(to_i64)),
            running_since: self.clock.and_then(|c| c.running_since),
            result: self
                .ending
                .as_ref()
                .map(|e| result_token(e.winner).to_string()),
            winner: self
                .ending
                .as_ref()
                .and_then(|e| e.winner)
                .map(|c| color_name(c).into()),
            reason: self.ending.as_ref().map(|e| e.reason.clone()),
            draw_offer: self.draw_offer.map(|c| color_name(c).into()),
            takeback_offer: self.takeback_offer.map(|c| color_name(c).into()),
            rematch: self.rematch.clone(),
        }
    }

    /// The game whole, for its first write.
    pub fn stored(&self) -> StoredGame {
        StoredGame {
            row: self.row(self.updated_at),
            seats: self.seats.clone(),
            moves: self.log.clone(),
        }
    }

    /// A game read back from the database.
    pub fn restore(stored: StoredGame) -> Result<LiveGame, String> {
        let row = stored.row;
        let variant: Variant = row.variant.parse().map_err(|e| format!("{e}"))?;
        let rules: RuleSet = row.rules.parse().map_err(|e| format!("{e}"))?;
        let start = VariantPosition::parse(variant, &row.start).map_err(|e| e.to_string())?;
        let mut game = Game::new(start, rules);
        for mv in &stored.moves {
            game.play_text(&mv.text).map_err(|e| e.to_string())?;
        }
        let lineup: Lineup = serde_json::from_str(&row.players).map_err(|e| e.to_string())?;
        let names = serde_json::from_str(&row.names).map_err(|e| e.to_string())?;
        let clock = match &row.time_control {
            None => None,
            Some(json) => {
                let control: TimeControl = serde_json::from_str(json).map_err(|e| e.to_string())?;
                let mut clock = Clock::new(control);
                if let Some(ms) = row.clock_ms {
                    clock.remaining_ms = ms.map(|v| u64::try_from(v).unwrap_or(0));
                }
                clock.running_since = row.running_since;
                Some(clock)
            }
        };
        let parse_color = |name: &Option<String>| match name.as_deref() {
            Some("black") => Some(Color::Black),
            Some("white") => Some(Color::White),
            _ => None,
        };
        let (texts, movers) = replay_line(&game);
        Ok(LiveGame {
            texts,
            movers,
            id: row.id,
            created_at: row.created_at,
            updated_at: row.updated_at,
            variant,
            lineup,
            names,
            online: row.online,
            ending: row.reason.clone().map(|reason| Ending {
                winner: parse_color(&row.winner),
                reason,
            }),
            game,
            clock,
            log: stored.moves,
            seats: stored.seats,
            started_at: row.started_at,
            draw_offer: parse_color(&row.draw_offer),
            takeback_offer: parse_color(&row.takeback_offer),
            rematch: row.rematch,
        })
    }

    /// The game as the API shows it at `now`.
    pub fn view(&self, now: i64) -> GameView {
        let to_move = self.position().side_to_move();
        GameView {
            id: self.id.clone(),
            variant: self.variant.name(),
            rules: self.rules().to_string(),
            online: self.online,
            players: self.lineup,
            names: self.names.clone(),
            start: self.game.start().to_string(),
            moves: self.game.moves().map(|m| m.to_string()).collect(),
            positions: self.texts.clone(),
            movers: self
                .movers
                .iter()
                .map(|&seat| self.lineup.slot(seat))
                .collect(),
            ply: self.game.ply(),
            position: PositionView::of(self.position(), self.rules(), self.is_over()),
            last_move: self.game.last_move().map(MoveView::of),
            to_move_slot: (!self.is_over()).then(|| self.lineup.slot(self.seat_to_move())),
            clock: self.clock.map(|clock| ClockView {
                control: clock.control,
                black_ms: clock.left_at(Color::Black, to_move, now),
                white_ms: clock.left_at(Color::White, to_move, now),
                running: (clock.running_since.is_some() && !self.is_over())
                    .then(|| color_name(to_move)),
                move_clocks: self.log.iter().map(|m| m.clock_ms).collect(),
            }),
            started: self.started_at.is_some(),
            waiting_for: self
                .seats
                .iter()
                .filter(|s| !s.joined)
                .map(|s| s.slot.clone())
                .collect(),
            result: self
                .ending
                .as_ref()
                .map(|e| OutcomeView::new(e.winner, e.reason.clone())),
            draw_offer: self.draw_offer.map(color_name),
            takeback_offer: self.takeback_offer.map(color_name),
            rematch: self.rematch.clone(),
            server_time: now,
            created_at: self.created_at,
        }
    }

    /// The setup of a rematch: the same game from its start, the sides' players swapped.
    /// Only a seat of a finished game asks for one.
    pub fn rematch_setup(&self, caller: &Caller) -> ApiResult<GameSetup> {
        self.caller_slot(caller)?;
        if !self.is_over() {
            return Err(ApiError::conflict("a rematch follows a finished game"));
        }
        Ok(GameSetup {
            variant: self.variant,
            rules: self.rules(),
            start: *self.game.start(),
            moves: Vec::new(),
            lineup: self.lineup.swapped(),
            clock: self.clock.map(|c| c.control),
            online: self.online,
            names: [self.names[1].clone(), self.names[0].clone()],
        })
    }

    /// The slots of the rematch the caller's seats become: Black's seats are White's.
    pub fn rematch_slots(&self, caller: &Caller) -> ApiResult<Vec<String>> {
        let slot = &self.caller_slot(caller)?.slot;
        let mut slots = vec![swap_slot(slot)];
        if !self.online {
            // At one board or against the engine the person holds every person's seat.
            slots = self.seats.iter().map(|s| swap_slot(&s.slot)).collect();
        }
        Ok(slots)
    }

    /// The tokens of every seat, by place: what the creator of the game is given.
    pub fn tokens(&self) -> std::collections::BTreeMap<String, String> {
        self.seats
            .iter()
            .map(|s| (s.slot.clone(), s.token.clone()))
            .collect()
    }

    /// The place a token holds, for the page to know whose seat it is.
    pub fn slot_for_token(&self, token: &str) -> Option<String> {
        self.slot_of(token).map(|s| s.slot.clone())
    }
}

/// The position text after each move of `game`, the start first, and the seat that made
/// each move.
fn replay_line(game: &Game<VariantPosition>) -> (Vec<String>, Vec<Seat>) {
    let mut replay = Game::new(*game.start(), game.rules());
    let mut texts = vec![replay.position().to_string()];
    let mut movers = Vec::new();
    for mv in game.moves() {
        movers.push(replay.position().seat_to_move());
        replay.play(mv).expect("replaying the game");
        texts.push(replay.position().to_string());
    }
    (texts, movers)
}

/// The other side's place of the same rank: `black` and `white`, `black2` and `white2`.
fn swap_slot(slot: &str) -> String {
    match slot.strip_prefix("black") {
        Some(rest) => format!("white{rest}"),
        None => format!("black{}", slot.strip_prefix("white").unwrap_or_default()),
    }
}

/// The side of a place: `black`, `black2` are Black's.
fn slot_side(slot: &str) -> Color {
    if slot.starts_with("black") {
        Color::Black
    } else {
        Color::White
    }
}

fn ending_of(outcome: loa_core::Outcome) -> Ending {
    Ending {
        winner: outcome.winner,
        reason: outcome.reason.to_string(),
    }
}

fn to_i64(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

/// A game as `GET /api/games/{id}` shows it.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    pub id: String,
    pub variant: &'static str,
    pub rules: String,
    pub online: bool,
    pub players: Lineup,
    pub names: [Option<String>; 2],
    /// The start's position text.
    pub start: String,
    pub moves: Vec<String>,
    /// The position text after each move, the start first.
    pub positions: Vec<String>,
    /// The seat (`black`, `white`, `black2`, `white2`) that made each move.
    pub movers: Vec<String>,
    pub ply: usize,
    pub position: PositionView,
    pub last_move: Option<MoveView>,
    /// The place whose turn it is, while the game goes on.
    pub to_move_slot: Option<String>,
    pub clock: Option<ClockView>,
    /// Whether the game has begun (an online game begins when every person has joined).
    pub started: bool,
    /// The places of an online game still to be taken.
    pub waiting_for: Vec<String>,
    pub result: Option<OutcomeView>,
    pub draw_offer: Option<&'static str>,
    pub takeback_offer: Option<&'static str>,
    /// The id of the rematch, once a player asked for one.
    pub rematch: Option<String>,
    /// The server's clock when this was written, in ms since the epoch.
    pub server_time: i64,
    pub created_at: i64,
}

#[derive(Clone, Debug, Serialize)]
pub struct ClockView {
    pub control: TimeControl,
    pub black_ms: u64,
    pub white_ms: u64,
    /// The side whose time runs.
    pub running: Option<&'static str>,
    /// The clocks after each move.
    pub move_clocks: Vec<Option<[i64; 2]>>,
}
