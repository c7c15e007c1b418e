//! A game being played: the rules' game with its clock, seats, offers and ending.
//! Everything that can happen to it is in `actions` (each change made on a copy of what
//! it touches only after every check has passed, and returned as the rows to write);
//! `rows` turns it into the store's rows and back, `view` into what the API shows.
//! Nothing here knows of HTTP: refusals are [`GameError`]s.

mod actions;
mod chat;
mod error;
mod rows;
mod view;

pub use actions::{FORFEIT, INVITATION_LIVE_MS, INVITATION_MS};
pub use error::GameError;
pub use view::GameView;

use crate::clock::{Clock, TimeControl};
use crate::ids::random_name;
use crate::levels::Strength;
use crate::lineup::{Lineup, Player};
use crate::setup::GameSetup;
use crate::store::{Change, ChatRow, MoveRow, RatingUpdate, SeatRow};
use loa_core::record::RecordResult;
use loa_core::{Color, Game, GameState, RuleSet, Seat, Variant, VariantPosition};

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub winner: Option<Color>,
    /// `connection`, `simultaneous connection`, `third repetition`, `time`,
    /// `resignation`, `agreement`, [`ABORTED`]...
    pub reason: String,
}

/// The reason of a game called off before both sides had moved: it has no result and
/// moves no rating.
pub const ABORTED: &str = "aborted";

impl Ending {
    pub fn is_aborted(&self) -> bool {
        self.reason == ABORTED
    }

    /// The result records and lists give: `*` for an aborted game, which nobody won or
    /// drew.
    pub fn result(&self) -> RecordResult {
        if self.is_aborted() {
            RecordResult::Unknown
        } else {
            RecordResult::from_winner(self.winner)
        }
    }
}

/// Who is asking: the token of the seat they hold, or the account signed in (by session
/// or API token). An id lets one watch a game; only a seat's token or its account's
/// session lets one act in it.
#[derive(Clone, Debug, Default)]
pub struct Caller {
    pub token: Option<String>,
    pub account: Option<i64>,
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
    /// Whether the game counts for the players' ratings.
    pub rated: bool,
    /// Black's and White's accounts (a site bot's for the engine), if any.
    pub accounts: [Option<i64>; 2],
    /// What the players said.
    pub chat: Vec<ChatRow>,
    /// Black's and White's rating changes, once a rated game has ended.
    pub rating_changes: Option<[i64; 2]>,
    /// The version of the game's row this was read at or last wrote.
    pub version: i64,
    /// A tournament paired it: it is played or lost, never aborted.
    pub tournament_game: bool,
    /// When a server took the game up after it was held by none (a start, or a server
    /// gone): a first move awaited meanwhile gets its minute from then. Not stored.
    pub resumed_at: Option<i64>,
}

/// What an action changed, for the store.
#[derive(Debug)]
pub struct Changed {
    pub truncate_from: Option<usize>,
    pub new_moves: Vec<MoveRow>,
    pub first_new_ply: usize,
    pub seats: Vec<SeatRow>,
    /// The ratings a rated game's end moved.
    pub ratings: Vec<RatingUpdate>,
    /// Lines said.
    pub chat: Vec<ChatRow>,
    /// The game ended with this change and is to be reported on.
    pub queue_report: bool,
}

impl Changed {
    pub fn nothing_at(ply: usize) -> Changed {
        Changed {
            truncate_from: None,
            new_moves: Vec::new(),
            first_new_ply: ply,
            seats: Vec::new(),
            ratings: Vec::new(),
            chat: Vec::new(),
            queue_report: false,
        }
    }

    pub fn as_change(&self) -> Change<'_> {
        Change {
            truncate_from: self.truncate_from,
            new_moves: &self.new_moves,
            first_new_ply: self.first_new_ply,
            seats: &self.seats,
            ratings: &self.ratings,
            chat: &self.chat,
            queue_report: self.queue_report,
        }
    }
}

impl LiveGame {
    /// A new game from a checked setup, started at `now` unless people must join first.
    pub fn create(setup: GameSetup, now: i64) -> LiveGame {
        // Every person's seat has a token of its own; an online seat is taken when its
        // person opens the link (or at once, for an account named in the setup), the
        // others are the creator's from the start.
        let (online, accounts) = (setup.online, setup.accounts);
        LiveGame::create_with(setup, now, |_, side| {
            !online || accounts[side.index()].is_some()
        })
    }

    /// A rematch: the seats of the person who asked for it (`asked`) are taken, and a
    /// bot's (a bot plays what it is given); another person's only when they ask too:
    /// nobody is put in a game they did not ask for, rated or on a running
    /// correspondence clock.
    pub fn create_rematch(
        setup: GameSetup,
        asked: &[String],
        bots: [bool; 2],
        now: i64,
    ) -> LiveGame {
        LiveGame::create_with(setup, now, |slot, side| {
            bots[side.index()] || asked.iter().any(|s| s == slot)
        })
    }

    fn create_with(setup: GameSetup, now: i64, taken: impl Fn(&str, Color) -> bool) -> LiveGame {
        let game = setup.game;
        let log = game
            .moves()
            .map(|mv| MoveRow {
                text: mv.to_string(),
                played_at: now,
                clock_ms: None,
            })
            .collect();
        let seats = setup
            .lineup
            .human_slots()
            .into_iter()
            .map(|(slot, side)| SeatRow {
                joined: taken(&slot, side),
                slot,
                token: random_name(),
                account: setup.accounts[side.index()],
            })
            .collect();
        let (texts, movers) = line_of(&game);
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
            rated: setup.rated,
            accounts: setup.accounts,
            chat: Vec::new(),
            rating_changes: None,
            version: 0,
            tournament_game: false,
            resumed_at: None,
        };
        if live.seats.iter().all(|s| s.joined) {
            live.start(now);
        }
        live
    }

    /// A game two people agreed on (a seek taken, a challenge accepted): both seats are
    /// taken from the start, and the game begins.
    pub fn create_paired(setup: GameSetup, now: i64) -> LiveGame {
        let mut live = LiveGame::create(setup, now);
        for seat in &mut live.seats {
            seat.joined = true;
        }
        if live.started_at.is_none() {
            live.start(now);
        }
        live
    }

    /// Runs the clock now, without waiting for the first move: a tournament's player who
    /// does not come loses on time.
    pub fn start_clock(&mut self, now: i64) {
        if let (Some(clock), None) = (&mut self.clock, &self.ending) {
            clock.start(now);
        }
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

    /// Where in `seats` the caller's `token` sits. A link passed on does not let someone
    /// signed in as another act for the account that took the seat.
    fn seat_index(&self, token: &str, caller: &Caller) -> Result<usize, GameError> {
        let index = self
            .seats
            .iter()
            .position(|s| s.token == token)
            .ok_or(GameError::NotASeat)?;
        match (self.seats[index].account, caller.account) {
            (Some(owner), Some(account)) if owner != account => Err(GameError::AnotherPlayersSeat),
            _ => Ok(index),
        }
    }

    /// The side of the seat the caller holds; `requested`, if given, must be it.
    fn caller_side(&self, caller: &Caller, requested: Option<Color>) -> Result<Color, GameError> {
        let preferred = requested.map(|side| side.id().to_string());
        let side = slot_side(&self.caller_slot(caller, preferred.as_deref())?.slot);
        match requested {
            Some(requested) if requested != side => Err(GameError::WrongSide {
                seat: side,
                asked: requested,
            }),
            _ => Ok(side),
        }
    }

    /// The seat the caller's token holds, or else one of their account's: `preferred`
    /// when the account holds it (at one board an account holds both sides).
    fn caller_slot(&self, caller: &Caller, preferred: Option<&str>) -> Result<&SeatRow, GameError> {
        if let Some(token) = caller.token.as_deref() {
            return Ok(&self.seats[self.seat_index(token, caller)?]);
        }
        let account = caller.account.ok_or(GameError::NoToken)?;
        let mut held = self.seats.iter().filter(|s| s.account == Some(account));
        let first = held.clone().next().ok_or(GameError::NotASeat)?;
        Ok(held
            .find(|s| Some(s.slot.as_str()) == preferred)
            .unwrap_or(first))
    }

    /// Whether the game is played by correspondence (days a move or a time bank).
    pub fn is_correspondence(&self) -> bool {
        self.clock.is_some_and(|c| c.control.is_correspondence())
    }

    /// Whether the game is played on a live clock (minutes and an increment).
    pub fn has_live_clock(&self) -> bool {
        self.clock.is_some() && !self.is_correspondence()
    }

    /// The side to move and its account, while the game goes on and a person with an
    /// account is to move against someone else (not the engine, not themselves at one
    /// board): whose move a game waits for.
    pub fn account_to_move(&self) -> Option<(Color, i64)> {
        if self.is_over() || self.started_at.is_none() {
            return None;
        }
        if !matches!(self.lineup.player(self.seat_to_move()), Player::Human) {
            return None;
        }
        let side = self.position().side_to_move();
        let account = self.account_of(side)?;
        (self.account_of(!side) != Some(account)).then_some((side, account))
    }

    /// The account that plays `side`, if any.
    pub fn account_of(&self, side: Color) -> Option<i64> {
        self.accounts[side.index()]
    }

    /// The tokens of every seat, by place: what the creator of the game is given.
    pub fn tokens(&self) -> std::collections::BTreeMap<String, String> {
        self.seats
            .iter()
            .map(|s| (s.slot.clone(), s.token.clone()))
            .collect()
    }

    /// The place the caller holds (by token, or by account: the seat to move first),
    /// for the page to know whose seat it is.
    pub fn slot_for(&self, caller: &Caller) -> Option<String> {
        let to_move = self.lineup.slot(self.seat_to_move());
        self.caller_slot(caller, Some(&to_move))
            .ok()
            .map(|s| s.slot.clone())
    }
}

/// The position text after each move of `game`, the start first, and the seat that made
/// each move: read from the game's own history, not replayed.
fn line_of(game: &Game<VariantPosition>) -> (Vec<String>, Vec<Seat>) {
    let (mut texts, movers): (Vec<String>, Vec<Seat>) = game
        .line()
        .map(|(pos, _)| (pos.to_string(), pos.seat_to_move()))
        .unzip();
    texts.push(game.position().to_string());
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
