//! What can happen to a game: joining, a move (a person's or the engine's), a flag,
//! resigning or aborting, draw offers, takebacks, and the setup of a rematch.

use super::{
    ending_of, slot_side, swap_slot, to_i64, Caller, Changed, Ending, GameError, LiveGame,
};
use crate::lineup::Player;
use crate::setup::GameSetup;
use crate::store::MoveRow;
use loa_core::{Color, GameState, Move, Seat};

type GameResult<T> = Result<T, GameError>;

/// How long a live game waits for a player's first move before calling the game off.
pub const FIRST_MOVE_MS: i64 = 60_000;
/// The reason a tournament's game ends when its side to move never made a first move.
pub const FORFEIT: &str = "forfeit";
/// How long an online game waits for the people it invited: an hour on a live clock, two
/// weeks otherwise (as a seek waits in the lobby).
pub const INVITATION_LIVE_MS: i64 = crate::clock::HOUR;
pub const INVITATION_MS: i64 = 14 * crate::clock::DAY;

impl LiveGame {
    /// A person at an online game's seat opens it; the game starts once every person
    /// has. Signed in, they play it as their account, under `name`.
    pub fn join(&mut self, caller: &Caller, name: Option<&str>, now: i64) -> GameResult<Changed> {
        let token = caller.token.as_deref().ok_or(GameError::NoToken)?;
        let index = self.seat_index(token, caller)?;
        let mut changed = Changed::nothing_at(self.game.ply());
        if !self.seats[index].joined {
            self.seats[index].joined = true;
            // A person signed in takes the seat for their account.
            if self.seats[index].account.is_none() {
                if let Some(account) = caller.account {
                    self.seats[index].account = Some(account);
                    let side = slot_side(&self.seats[index].slot);
                    self.accounts[side.index()].get_or_insert(account);
                    if let Some(name) = name {
                        self.names[side.index()].get_or_insert_with(|| name.to_string());
                    }
                }
            }
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
    ) -> GameResult<Changed> {
        let to_move = self.lineup.slot(self.seat_to_move());
        let slot = self.caller_slot(caller, Some(&to_move))?.slot.clone();
        self.check_can_move(expected_ply, now)?;
        if let Player::Engine(_) = self.lineup.player(self.seat_to_move()) {
            return Err(GameError::EngineTurn);
        }
        let to_move = self.lineup.slot(self.seat_to_move());
        if slot != to_move {
            return Err(GameError::NotYourTurn { to_move });
        }
        let mv = self
            .position()
            .parse_move(text)
            .map_err(|e| GameError::IllegalMove(e.to_string()))?;
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

    fn check_can_move(&self, expected_ply: Option<usize>, now: i64) -> GameResult<()> {
        self.check_not_over()?;
        if self.started_at.is_none() {
            return Err(GameError::NotStarted);
        }
        if self.flag_fallen(now) {
            return Err(GameError::TimeUp);
        }
        if let Some(ply) = expected_ply {
            if ply != self.game.ply() {
                return Err(GameError::StalePly {
                    sent: ply,
                    played: self.game.ply(),
                });
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
            // The opponent's time, started by the press, stops with the game.
            self.stop_clock(now);
            self.ending = Some(ending_of(outcome));
        }
        Changed {
            truncate_from: None,
            new_moves: vec![row],
            ..Changed::nothing_at(ply)
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

    /// A vacation of `account` until `until`: the clock of its correspondence move stands
    /// still with the time it has, and runs again from `until`. Whether it changed.
    pub fn pause_for(&mut self, account: i64, until: i64, now: i64) -> bool {
        let Some(side) = self.correspondence_side_to_move(account) else {
            return false;
        };
        let Some(clock) = &mut self.clock else {
            return false;
        };
        match clock.running_since {
            Some(since) if since < until => {
                clock.remaining_ms[side.index()] = clock.left_at(side, side, now);
                clock.running_since = Some(until.max(now));
                true
            }
            _ => false,
        }
    }

    /// `account`'s vacation ended at `now`: a clock it stopped runs again from now.
    pub fn resume_for(&mut self, account: i64, now: i64) -> bool {
        if self.correspondence_side_to_move(account).is_none() {
            return false;
        }
        match &mut self.clock {
            Some(clock) if clock.running_since.is_some_and(|since| since > now) => {
                clock.running_since = Some(now);
                true
            }
            _ => false,
        }
    }

    /// The side `account` plays, if it is to move in this correspondence game with a
    /// running clock.
    fn correspondence_side_to_move(&self, account: i64) -> Option<Color> {
        let running = self.clock.is_some_and(|c| c.running_since.is_some());
        match self.account_to_move() {
            Some((side, to_move)) if to_move == account && running && self.is_correspondence() => {
                Some(side)
            }
            _ => None,
        }
    }

    /// When the side to move's flag falls, if a clock runs.
    pub fn flag_at(&self) -> Option<i64> {
        if self.is_over() {
            return None;
        }
        self.clock?.flag_at(self.position().side_to_move())
    }

    pub fn resign(&mut self, caller: &Caller, side: Option<Color>, now: i64) -> GameResult<()> {
        self.check_not_over()?;
        let side = self.caller_side(caller, side)?;
        self.stop_clock(now);
        self.ending = Some(Ending {
            winner: Some(!side),
            reason: "resignation".into(),
        });
        Ok(())
    }

    /// Calls the game off before both sides have moved: no result, no rating. (Once both
    /// have, a player leaves by resigning.)
    pub fn abort(&mut self, caller: &Caller, side: Option<Color>, now: i64) -> GameResult<()> {
        self.check_not_over()?;
        self.caller_side(caller, side)?;
        if self.tournament_game {
            return Err(GameError::TournamentNotAborted);
        }
        if !self.may_abort() {
            return Err(GameError::TooLateToAbort);
        }
        // A fallen flag is a loss on time, not a way out (the flag's watch may not have
        // ended the game yet).
        if self.flag_fallen(now) {
            return Err(GameError::TimeUp);
        }
        self.end_aborted(now);
        Ok(())
    }

    fn end_aborted(&mut self, now: i64) {
        self.end_off_the_board(now, None, super::ABORTED);
    }

    /// Ends the game by no move (called off, a forfeit): the clock stops where it is,
    /// and offers lapse.
    fn end_off_the_board(&mut self, now: i64, winner: Option<Color>, reason: &str) {
        self.stop_clock(now);
        self.draw_offer = None;
        self.takeback_offer = None;
        self.ending = Some(Ending {
            winner,
            reason: reason.into(),
        });
    }

    /// When the game ends unless its side to move moves: an online game between people
    /// on a live clock, begun, whose seat to move (a person's) belongs to a side that has
    /// not moved in it yet. Outside a tournament the game is called off then: a player
    /// who never comes costs the other a minute, not a rating, and leaves no game
    /// "playing" for ever. A tournament scores every game it pairs: there the absent side
    /// loses by forfeit, and the other is not kept waiting the whole clock. (At one board,
    /// or against the engine, the person waits for nobody; an engine's seat is never
    /// hurried.)
    pub fn unplayed_until(&self) -> Option<i64> {
        let people_on_both_sides = !Color::ALL.iter().any(|&side| self.side_is_engine(side));
        if self.is_over()
            || !self.online
            || !self.has_live_clock()
            || !people_on_both_sides
            || !matches!(self.lineup.player(self.seat_to_move()), Player::Human)
        {
            return None;
        }
        let begun = self.started_at?;
        if self.has_moved(self.position().side_to_move()) {
            return None;
        }
        // From the turn's start: when the clock last started (the last move, or a
        // takeback), or the game's beginning (a live clock waits for the first move); or,
        // if no server held the game meanwhile, when one took it up again: nobody could
        // move while it was away.
        let turn_began = self.clock.and_then(|c| c.running_since);
        let waiting_since = turn_began.map_or(begun, |since| since.max(begun));
        let waiting_since = self
            .resumed_at
            .map_or(waiting_since, |at| waiting_since.max(at));
        Some(waiting_since.saturating_add(FIRST_MOVE_MS))
    }

    /// Ends the game if its side to move let the first move's wait pass (called off, or
    /// in a tournament lost by forfeit); whether it did.
    pub fn end_unplayed(&mut self, now: i64) -> bool {
        if !self.tournament_game {
            return self.abort_when_due(self.unplayed_until(), now);
        }
        if self.unplayed_until().is_none_or(|at| at > now) {
            return false;
        }
        let absent = self.position().side_to_move();
        self.end_off_the_board(now, Some(!absent), FORFEIT);
        true
    }

    /// Whether the game was lost by a side that never moved in it: by forfeit, or on time
    /// before two plies (only the side to move loses on time).
    pub fn lost_without_moving(&self) -> bool {
        self.ending
            .as_ref()
            .is_some_and(|e| e.reason == FORFEIT || (e.reason == "time" && self.game.ply() < 2))
    }

    /// Calls the game off if `due` has come by `now`; whether it did.
    fn abort_when_due(&mut self, due: Option<i64>, now: i64) -> bool {
        if due.is_none_or(|at| at > now) {
            return false;
        }
        self.end_aborted(now);
        true
    }

    /// When the game is called off unless its invited players come: for a game not begun
    /// (a link not opened, a rematch not taken), which would otherwise be "playing" for
    /// ever.
    pub fn invitation_expires_at(&self) -> Option<i64> {
        if self.is_over() || self.started_at.is_some() {
            return None;
        }
        let wait = if self.has_live_clock() {
            INVITATION_LIVE_MS
        } else {
            INVITATION_MS
        };
        Some(self.created_at.saturating_add(wait))
    }

    /// Calls the game off if its invitation ran out; whether it did.
    pub fn expire_invitation(&mut self, now: i64) -> bool {
        self.abort_when_due(self.invitation_expires_at(), now)
    }

    /// Whether the game goes on and one side at most has moved in it.
    pub fn may_abort(&self) -> bool {
        !self.is_over() && (!self.has_moved(Color::Black) || !self.has_moved(Color::White))
    }

    /// Whether `side` has made a move in this game.
    fn has_moved(&self, side: Color) -> bool {
        self.movers.iter().any(|seat| seat.side == side)
    }

    fn check_not_over(&self) -> GameResult<()> {
        match &self.ending {
            Some(ending) => Err(GameError::Over(ending.reason.clone())),
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
    pub fn offer_draw(&mut self, caller: &Caller, side: Option<Color>, now: i64) -> GameResult<()> {
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
            return Err(GameError::EngineDeclines);
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
    ) -> GameResult<()> {
        self.caller_side(caller, side)?;
        if takeback {
            self.takeback_offer = None;
        } else {
            self.draw_offer = None;
        }
        Ok(())
    }

    /// Asks to take back the asking side's last move, or grants the other side's
    /// request. Against the engine, and at one board, it is granted at once; in a rated
    /// game against the engine, never (a rating must not be won by taking moves back).
    pub fn takeback(
        &mut self,
        caller: &Caller,
        side: Option<Color>,
        now: i64,
    ) -> GameResult<Changed> {
        self.check_not_over()?;
        let side = self.caller_side(caller, side)?;
        if self.rated && self.side_is_engine(!side) {
            return Err(GameError::NoTakebackRated);
        }
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
            back.undo().ok_or(GameError::NothingToTakeBack)?;
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
            ..Changed::nothing_at(keep)
        })
    }

    /// The setup of a rematch: the same game from its start, the sides' players swapped.
    /// Only a seat of a finished game asks for one.
    pub fn rematch_setup(&self, caller: &Caller) -> GameResult<GameSetup> {
        self.caller_slot(caller, None)?;
        if !self.is_over() {
            return Err(GameError::RematchBeforeEnd);
        }
        Ok(GameSetup {
            variant: self.variant,
            game: loa_core::Game::new(*self.game.start(), self.rules()),
            lineup: self.lineup.swapped(),
            clock: self.clock.map(|c| c.control),
            online: self.online,
            names: [self.names[1].clone(), self.names[0].clone()],
            accounts: [self.account_of(Color::White), self.account_of(Color::Black)],
            rated: self.rated,
        })
    }

    /// The slots of the rematch the caller's seats become: Black's seats are White's.
    pub fn rematch_slots(&self, caller: &Caller) -> GameResult<Vec<String>> {
        let slot = &self.caller_slot(caller, None)?.slot;
        let mut slots = vec![swap_slot(slot)];
        if !self.online {
            // At one board or against the engine the person holds every person's seat.
            slots = self.seats.iter().map(|s| swap_slot(&s.slot)).collect();
        }
        Ok(slots)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::TimeControl;
    use crate::lineup::{Lineup, SidePlayers};
    use loa_core::{Game, Position, RuleSet, Variant};

    /// A game between two people on a minute each, its clock running from `0` as a
    /// tournament's does; and Black's caller.
    fn running_game() -> (LiveGame, Caller) {
        let human = SidePlayers::One(Player::Human);
        running_game_of(human, human)
    }

    fn running_game_of(black: SidePlayers, white: SidePlayers) -> (LiveGame, Caller) {
        running_game_from(Position::startpos().into(), black, white)
    }

    fn running_game_from(
        start: loa_core::VariantPosition,
        black: SidePlayers,
        white: SidePlayers,
    ) -> (LiveGame, Caller) {
        let setup = GameSetup {
            variant: Variant::Standard,
            game: Game::new(start, RuleSet::Draw),
            lineup: Lineup::new(Variant::Standard, black, white).unwrap(),
            clock: Some(TimeControl::Live {
                initial_s: 60,
                increment_s: 0,
            }),
            online: true,
            names: [None, None],
            accounts: [None, None],
            rated: false,
        };
        let mut live = LiveGame::create_paired(setup, 0);
        live.start_clock(0);
        let black = Caller {
            token: live.tokens().get("black").cloned(),
            account: None,
        };
        (live, black)
    }

    #[test]
    fn a_first_move_not_made_within_a_minute_calls_the_game_off() {
        let (mut live, black) = running_game();
        // Black's first move is awaited from the start; then White's from Black's move.
        assert_eq!(live.unplayed_until(), Some(FIRST_MOVE_MS));
        assert!(!live.clone().end_unplayed(FIRST_MOVE_MS - 1));
        live.play_human(&black, "b1-b3", None, 10_000).unwrap();
        assert_eq!(live.unplayed_until(), Some(10_000 + FIRST_MOVE_MS));
        let mut late = live.clone();
        assert!(late.end_unplayed(10_000 + FIRST_MOVE_MS));
        assert_eq!(late.ending.as_ref().map(Ending::is_aborted), Some(true));
        assert_eq!(late.clock.unwrap().running_since, None);
        assert_eq!(late.unplayed_until(), None);
        // Once both have moved, nothing is awaited but the flag.
        let white = Caller {
            token: Some(live.tokens()["white"].clone()),
            account: None,
        };
        live.play_human(&white, "a2-c2", None, 20_000).unwrap();
        assert_eq!(live.unplayed_until(), None);
        assert!(!live.end_unplayed(i64::MAX));
        // A takeback back to before White's first move: White's wait starts anew then.
        live.play_human(&black, "b3-b5", None, 30_000).unwrap();
        live.takeback(&white, None, 32_000).unwrap();
        live.takeback(&black, None, 35_000).unwrap();
        assert_eq!(live.game.ply(), 1);
        assert_eq!(live.unplayed_until(), Some(35_000 + FIRST_MOVE_MS));
        // A tournament's game is never called off: the absent side loses by forfeit, at
        // the same time, its clock stopped with the time it had.
        let (mut paired, black) = running_game();
        paired.tournament_game = true;
        if let Some(clock) = &mut paired.clock {
            clock.remaining_ms = [300_000; 2];
        }
        paired.play_human(&black, "b1-b3", None, 10_000).unwrap();
        assert_eq!(paired.unplayed_until(), Some(10_000 + FIRST_MOVE_MS));
        assert!(!paired.end_unplayed(10_000 + FIRST_MOVE_MS - 1));
        assert!(!paired.lost_without_moving());
        assert!(paired.end_unplayed(10_000 + FIRST_MOVE_MS));
        assert!(paired.lost_without_moving());
        let ending = paired.ending.clone().unwrap();
        assert_eq!(
            (ending.winner, ending.reason.as_str()),
            (Some(Color::Black), FORFEIT)
        );
        let clock = paired.clock.unwrap();
        assert_eq!(
            (clock.running_since, clock.remaining_ms[1]),
            (None, 240_000)
        );
        // Taken up again by a server after none held it (a restart): the minute runs from
        // then, not from a turn that began while nobody could move.
        let (mut back, _) = running_game();
        back.resumed_at = Some(500_000);
        assert_eq!(back.unplayed_until(), Some(500_000 + FIRST_MOVE_MS));
        assert!(!back.end_unplayed(500_000 + FIRST_MOVE_MS - 1));
        // Against the engine, the person waits for nobody, and the engine is not hurried.
        let engine = SidePlayers::One(Player::Engine(crate::levels::Strength::level(2)));
        let (mut against, _) = running_game_of(engine, SidePlayers::One(Player::Human));
        assert_eq!(against.unplayed_until(), None);
        assert!(!against.end_unplayed(i64::MAX));
    }

    #[test]
    fn an_abort_stops_the_clock_and_a_fallen_flag_is_no_way_out() {
        let (mut live, black) = running_game();
        let mut late = live.clone();
        assert_eq!(late.abort(&black, None, 60_001), Err(GameError::TimeUp));
        assert!(!late.is_over());
        live.abort(&black, None, 1_500).unwrap();
        let clock = live.clock.unwrap();
        assert_eq!(clock.remaining_ms, [58_500, 60_000]);
        assert_eq!(clock.running_since, None);
        assert_eq!(live.ending.as_ref().map(Ending::is_aborted), Some(true));
    }

    #[test]
    fn a_game_won_by_a_move_stops_both_clocks() {
        let human = SidePlayers::One(Player::Human);
        let start =
            loa_core::VariantPosition::parse(Variant::Standard, "8/8/8/8/8/7w/8/b1b4w b").unwrap();
        let (mut live, black) = running_game_from(start, human, human);
        live.play_human(&black, "a1-d1", None, 4_000).unwrap();
        assert!(live.is_over());
        let clock = live.clock.unwrap();
        assert_eq!(clock.remaining_ms, [56_000, 60_000]);
        assert_eq!(clock.running_since, None);
        // Read an hour later, the clocks show what they showed at the end.
        let later = live.view(3_600_000).clock.unwrap();
        assert_eq!((later.black_ms, later.white_ms), (56_000, 60_000));
    }

    #[test]
    fn an_invitation_nobody_takes_runs_out() {
        let human = SidePlayers::One(Player::Human);
        let invited = |clock| {
            LiveGame::create(
                GameSetup {
                    variant: Variant::Standard,
                    game: Game::new(Position::startpos().into(), RuleSet::Draw),
                    lineup: Lineup::new(Variant::Standard, human, human).unwrap(),
                    clock,
                    online: true,
                    names: [None, None],
                    accounts: [None, None],
                    rated: false,
                },
                1_000,
            )
        };
        let live = TimeControl::Live {
            initial_s: 300,
            increment_s: 3,
        };
        let mut game = invited(Some(live));
        assert_eq!(game.started_at, None);
        assert_eq!(
            game.invitation_expires_at(),
            Some(1_000 + INVITATION_LIVE_MS)
        );
        assert!(!game.expire_invitation(INVITATION_LIVE_MS));
        assert!(game.expire_invitation(1_000 + INVITATION_LIVE_MS));
        assert_eq!(game.ending.as_ref().map(Ending::is_aborted), Some(true));
        assert_eq!(game.invitation_expires_at(), None);
        // By correspondence, or without a clock, a friend has two weeks to open the link.
        let days = TimeControl::Correspondence {
            days: 3,
            bank_days: None,
        };
        for clock in [Some(days), None] {
            let mut game = invited(clock);
            assert_eq!(game.invitation_expires_at(), Some(1_000 + INVITATION_MS));
            assert!(!game.expire_invitation(1_000 + INVITATION_LIVE_MS));
        }
        // A game begun waits for nobody.
        let (mut begun, _) = running_game();
        assert_eq!(begun.invitation_expires_at(), None);
        assert!(!begun.expire_invitation(i64::MAX));
    }
}
