//! A game as the API shows it.

use super::LiveGame;
use crate::clock::TimeControl;
use crate::lineup::Lineup;
use crate::view::{MoveView, OutcomeView, PositionView};
use loa_core::{Color, GameState};
use serde::Serialize;

impl LiveGame {
    /// What a side is called: its account's name, else `loa level N` for the engine or
    /// `Anonymous`, both players of an AmbiLOA partnership joined by `&`.
    pub fn side_title(&self, side: Color) -> String {
        use crate::lineup::Player;
        if let Some(name) = &self.names[side.index()] {
            return name.clone();
        }
        let name = |seat| match self.lineup.player(seat) {
            Player::Human => "Anonymous".to_string(),
            Player::Engine(strength) => format!("loa {}", strength.describe()),
        };
        let first = name(loa_core::Seat { side, index: 0 });
        let second = loa_core::Seat { side, index: 1 };
        if self.lineup.slot(second).ends_with('2') {
            format!("{first} & {}", name(second))
        } else {
            first
        }
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
            clock: self.clock.map(|mut clock| {
                // A game over shows the time its end left, whatever its row says (games
                // won by a move were once stored with the loser's clock still running).
                if self.is_over() {
                    clock.running_since = None;
                }
                ClockView {
                    control: clock.control,
                    black_ms: clock.left_at(Color::Black, to_move, now),
                    white_ms: clock.left_at(Color::White, to_move, now),
                    running: clock
                        .running_since
                        .is_some_and(|since| since <= now)
                        .then(|| to_move.id()),
                    resumes_at: clock.running_since.filter(|&since| since > now),
                    move_clocks: self.log.iter().map(|m| m.clock_ms).collect(),
                }
            }),
            started: self.started_at.is_some(),
            first_move_by: self.unplayed_until(),
            first_move_missed: self.unplayed_until().map(|_| {
                if self.tournament_game {
                    super::FORFEIT
                } else {
                    super::ABORTED
                }
            }),
            waiting_for: self
                .seats
                .iter()
                .filter(|s| !s.joined)
                .map(|s| s.slot.clone())
                .collect(),
            result: self
                .ending
                .as_ref()
                .map(|e| OutcomeView::of_ending(e.result(), e.winner, e.reason.clone())),
            draw_offer: self.draw_offer.map(Color::id),
            takeback_offer: self.takeback_offer.map(Color::id),
            rematch: self.rematch.clone(),
            rated: self.rated,
            rating_changes: self.rating_changes,
            chat: self.chat.iter().map(ChatLine::of).collect(),
            server_time: now,
            created_at: self.created_at,
        }
    }
}

/// A chat line as shown: `name` is the account's, or none (then the seat's `slot`).
#[derive(Clone, Debug, Serialize)]
pub struct ChatLine {
    pub at: i64,
    pub slot: String,
    pub name: Option<String>,
    pub text: String,
}

impl ChatLine {
    fn of(row: &crate::store::ChatRow) -> ChatLine {
        ChatLine {
            at: row.at,
            slot: row.slot.clone(),
            name: row.name.clone(),
            text: row.text.clone(),
        }
    }
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
    /// When the game ends unless the side to move makes its first move (ms since 1970;
    /// an online game between people on a live clock).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_move_by: Option<i64>,
    /// What happens then: `aborted`, or `forfeit` (a tournament's game, lost by the side
    /// to move). Given with `first_move_by`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_move_missed: Option<&'static str>,
    /// The places of an online game still to be taken.
    pub waiting_for: Vec<String>,
    pub result: Option<OutcomeView>,
    pub draw_offer: Option<&'static str>,
    pub takeback_offer: Option<&'static str>,
    /// The id of the rematch, once a player asked for one.
    pub rematch: Option<String>,
    /// Whether the game counts for the players' ratings.
    pub rated: bool,
    /// Black's and White's rating changes once a rated game has ended: `[12, -12]`.
    pub rating_changes: Option<[i64; 2]>,
    /// What the players said, oldest first.
    pub chat: Vec<ChatLine>,
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
    /// When the side to move's time starts to run again, while it stands still for a
    /// vacation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resumes_at: Option<i64>,
    /// The clocks after each move.
    pub move_clocks: Vec<Option<[i64; 2]>>,
}
