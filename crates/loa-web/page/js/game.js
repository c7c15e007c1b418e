// @ts-check
// A game being played or replayed: its players and clocks, the actions of the seats this
// browser holds, and the game's socket, which sends every change.

import { api, errorMessage, setReachable, socketUrl } from './api.js';
import { app, h } from './dom.js';
import { AMBILOA_KINDS, capitalized, changeText, dateAndTime, formatClock, gameTitle, playerOf, variantOf } from './format.js';
import { GameChat } from './chat.js';
import { GamePlayers } from './game-players.js';
import { navigate } from './navigate.js';
import { askToNotify, canAskToNotify, setSound, showTurn, soundOn, yourMoveNow } from './notify.js';
import { GameReportPanel } from './report.js';
import { GameScreen } from './screen.js';
import { keepLinks, keepTokens, linksOf, tokensOf } from './seats.js';

/**
 * @typedef {import('./types.js').Created} Created
 * @typedef {import('./types.js').GameAnswer} GameAnswer
 * @typedef {import('./types.js').GameView} GameView
 * @typedef {import('./types.js').Meta} Meta
 * @typedef {'black' | 'white'} Side
 */

/** @type {Side[]} */
const SIDES = ['black', 'white'];

/**
 * @param {string} label
 * @param {string} testid
 * @param {() => void} onclick
 * @param {string} [title]
 */
function button(label, testid, onclick, title) {
  return h('button', { 'data-testid': testid, onclick, title }, label);
}

export class GamePage extends GameScreen {
  /**
   * @param {Meta} meta
   * @param {string} id
   * @param {string | null} linkToken the token of a seat's link, if the page was opened by one
   */
  constructor(meta, id, linkToken) {
    super();
    this.meta = meta;
    this.id = id;
    // A seat's link carries its token; the seats this browser holds are kept.
    this.linkToken = linkToken;
    /** Whether the link opened was an invitation someone else took already. */
    this.seatTaken = false;
    this.tokens = tokensOf(id);
    /** The seats the signed-in account holds here without a token: the session acts. @type {Set<string>} */
    this.sessionSlots = new Set();
    this.players = new GamePlayers();
    this.chat = new GameChat(id, () => {
      const side = this.mySides()[0];
      return side ? { token: this.tokenFor(side) } : null;
    });
    /** @type {GameView | null} */
    this.game = null;
    /** The tournament that paired the game, if any. @type {import('./types.js').GameTournament | null} */
    this.tournament = null;
    /** @type {WebSocket | null} */
    this.socket = null;
    this.closed = false;
    /** The server's clock less this one's, in ms. */
    this.serverOffset = 0;
    this.clockEls = { black: h('span', { class: 'clock', 'data-testid': 'clock-black' }), white: h('span', { class: 'clock', 'data-testid': 'clock-white' }) };
    // What stops a side's clock: its player's vacation.
    this.vacationEls = { black: h('span', { class: 'vacation muted', 'data-testid': 'vacation-black' }), white: h('span', { class: 'vacation muted', 'data-testid': 'vacation-white' }) };
    this.topPlayer = h('div', { class: 'player' });
    this.bottomPlayer = h('div', { class: 'player' });
    this.offerEl = h('div', { class: 'offer hidden', 'data-testid': 'offer' });
    this.linksEl = h('div', { class: 'links' });
    // While people are still to join, the maker's links to send them, under the status.
    this.inviteEl = h('section', { class: 'invite hidden', 'data-testid': 'invite' });
    this.reserveEl = h('div', { class: 'reserve' });
    // The sound and notification choices: for the players, while the game goes on.
    this.alertsRow = h('div', { class: 'row hidden', 'data-testid': 'alerts' });
    this.passButton = button('Pass', 'pass', () => this.tryMove('pass'));
    // Until both sides have moved, a game is called off instead: no result, no rating.
    this.resignButton = button('Resign', 'resign', () => (this.mayAbort()
      ? this.confirmAct('abort', 'Abort this game? It will count for nobody.')
      : this.confirmAct('resign', 'Resign this game?')));
    this.drawButton = button('Offer draw', 'draw', () => this.act('draw'));
    this.takebackButton = button('Takeback', 'takeback', () => this.act('takeback'));
    this.analysisButton = button('Analysis', 'analysis-toggle', () => this.setAnalysis(!this.analysisOn));
    this.rematchButton = button('Rematch', 'rematch', () => this.rematch(), 'The same game again, colours swapped');
    // No engine beside an online game under way: the analysis waits for its end.
    this.analysisLink = h('a', { href: '#', 'data-testid': 'open-analysis', onclick: (/** @type {Event} */ e) => { e.preventDefault(); this.openInAnalysis(); } }, 'Open in analysis board');
    this.newGameLink = h('a', { href: '/', class: 'button primary hidden', 'data-testid': 'new-game' }, 'New game');
    // A finished game's report; its slips are marked in the move list.
    this.report = new GameReportPanel(id, (ply) => this.goTo(ply), (report) => {
      this.marks = new Map(report.moves.flatMap((m) => (m.judgement ? [[m.ply, m.judgement]] : [])));
      this.drawMoves();
    });
    this.timer = setInterval(() => this.tickClocks(), 100);
  }

  dispose() {
    super.dispose();
    showTurn({});
    this.closed = true;
    clearInterval(this.timer);
    this.report.dispose();
    if (this.socket) this.socket.close();
  }

  async start() {
    if (this.linkToken) {
      /** @type {GameAnswer} */
      const seen = await api('GET', `/api/games/${this.id}?token=${encodeURIComponent(this.linkToken)}`);
      // An invitation is taken once: a link opened after its seat was taken (passed on,
      // posted for anyone) lets one watch, unless this browser took the seat itself.
      if (seen.you) {
        const held = tokensOf(this.id)[seen.you] === this.linkToken;
        const free = !seen.online || seen.waiting_for.includes(seen.you);
        if (held || free) keepTokens(this.id, { [seen.you]: this.linkToken });
        else this.seatTaken = true;
      }
      this.tokens = tokensOf(this.id);
      // The token leaves the address bar: an address copied from it lets others watch,
      // not play.
      history.replaceState(null, '', `/game/${this.id}`);
    }
    /** @type {GameAnswer} */
    let answer = await api('GET', `/api/games/${this.id}`);
    this.tournament = answer.tournament ?? null;
    // Asked with no token, `you` is the signed-in account's seat.
    if (answer.you && !this.tokens[answer.you]) this.sessionSlots.add(answer.you);
    for (const slot of Object.keys(this.tokens)) {
      if (answer.online && answer.waiting_for.includes(slot)) {
        answer = await api('POST', `/api/games/${this.id}/join`, { token: this.tokens[slot] });
      }
    }
    if (Object.keys(this.tokens).length > 0) keepTokens(this.id, {});
    this.layout(answer);
    if (this.seatTaken) {
      this.status.before(h('p', { class: 'offer', role: 'status', 'data-testid': 'seat-taken' },
        'This invitation was taken already by the player it was for: you are watching the game.'));
    }
    this.update(answer, true);
    this.connect();
    await this.players.load(answer);
    if (!this.closed && this.game) this.drawPlayers(this.game, this.mySidesOf(this.game));
  }

  /** The tournament that paired the game, linked; nothing for another game. */
  tournamentLine() {
    const t = this.tournament;
    if (!t) return '';
    return h('p', { 'data-testid': 'game-tournament' }, `Round ${t.round} of `,
      h('a', { href: `/tournament/${encodeURIComponent(t.id)}` }, t.name));
  }

  /** @param {number} ply */
  onShown(ply) {
    this.report.setPly(ply);
  }

  /** @param {string} slot */
  holds(slot) {
    return Boolean(this.tokens[slot]) || this.sessionSlots.has(slot);
  }

  connect(delay = 1000) {
    if (this.closed) return;
    const socket = new WebSocket(socketUrl(`/api/games/${this.id}/socket`));
    this.socket = socket;
    let opened = false;
    socket.onopen = () => { opened = true; setReachable(true); };
    // The socket sends the game as it is when it opens: back in the game after a lost
    // connection.
    socket.onmessage = (e) => this.update(JSON.parse(e.data), false);
    socket.onclose = () => {
      if (this.closed) return;
      setReachable(false);
      // Retried at once after a drop, then less and less often while the server is away.
      const next = opened ? 500 : Math.min(delay * 2, 10000);
      setTimeout(() => this.connect(next), opened ? 0 : delay);
    };
  }

  /** @param {GameView} game */
  layout(game) {
    const mine = this.mySidesOf(game);
    const flipTo = mine.length === 1 && mine[0] === 'white';
    if (flipTo) this.board.flipped = true;
    const controls = h('div', { class: 'row' },
      button('Flip (f)', 'flip', () => this.board.flip()),
      this.passButton, this.resignButton, this.drawButton, this.takebackButton,
      this.analysisButton, this.rematchButton, this.newGameLink);
    const sound = h('input', { type: 'checkbox', checked: soundOn(), 'data-testid': 'sound' });
    sound.addEventListener('change', () => setSound(sound.checked));
    const notifyButton = h('button', { 'data-testid': 'notify', title: 'A notification when it is your move and this tab is hidden' }, 'Notify me');
    notifyButton.addEventListener('click', async () => {
      await askToNotify();
      notifyButton.remove();
    });
    this.alertsRow.replaceChildren(
      h('label', {}, sound, ' Sound on your move'),
      canAskToNotify() ? notifyButton : '');
    const exportRow = h('div', { class: 'row' },
      h('a', { href: `/api/games/${this.id}/record?format=pgn`, download: `loa-${this.id}.pgn` }, 'PGN'),
      h('a', { href: `/api/games/${this.id}/record?format=sgf`, download: `loa-${this.id}.sgf` }, 'SGF'),
      h('button', { onclick: () => this.copyPosition(), 'data-testid': 'copy-position' }, 'Copy position'),
      this.analysisLink,
      this.moveInput,
    );
    // Where connection does not decide (Fields of Action), the rule set says nothing.
    const rules = variantOf(this.meta, game.variant)?.connection === false ? ''
      : ` · ${game.rules === 'draw' ? 'simultaneous connection draws' : 'mover wins a simultaneous connection'}`;
    app.replaceChildren(
      h('h1', { 'data-testid': 'title' }, this.title(game) + rules),
      this.players.termsEl,
      this.tournamentLine(),
      h('div', { class: 'play' },
        h('div', {},
          this.topPlayer,
          h('div', { class: 'board-area' }, this.evalBar, this.board.el),
          this.board.hintEl,
          this.bottomPlayer,
          this.reserveEl),
        h('div', { class: 'side' },
          this.status, this.inviteEl, this.offerEl, controls, this.movesEl, this.analysisEl, this.graphEl, this.report.el, exportRow,
          this.alertsRow, this.linksEl, this.chat.el)));
  }

  /**
   * Shows the game as the server sent it.
   * @param {GameView} game
   * @param {boolean} first whether it is the first the page sees
   */
  update(game, first) {
    const previous = this.game;
    const wasMine = Boolean(previous) && this.isMyMove(previous);
    this.game = game;
    const nowMine = this.isMyMove(game);
    showTurn({ [this.id]: nowMine }, this.title(game));
    if (nowMine && !wasMine && !first) yourMoveNow(`Your move in ${this.title(game)}`);
    this.serverOffset = game.server_time - Date.now();
    this.setLine({
      variant: game.variant, rules: game.rules, start: game.start, moves: game.moves,
      positions: game.positions, current: game.position, lastMove: game.last_move,
    }, first);
    const mine = this.mySidesOf(game);
    this.drawPlayers(game, mine);
    this.drawOffer(game, mine, previous);
    this.drawLinks(game);
    this.chat.update(game);
    const over = Boolean(game.result);
    // The report is asked for when the game is seen over: at once, or when it ends.
    if (over && (first || !previous?.result)) this.report.load();
    const onlineInProgress = game.online && !over;
    this.analysisButton.disabled = onlineInProgress;
    this.analysisLink.classList.toggle('hidden', onlineInProgress);
    if (onlineInProgress && this.analysisOn) this.setAnalysis(false);
    this.resignButton.disabled = over || mine.length === 0;
    this.resignButton.textContent = this.mayAbort() ? 'Abort' : 'Resign';
    this.drawButton.disabled = over || mine.length === 0 || !game.started;
    // A takeback is asked for one's own move: none yet, nothing to ask.
    this.takebackButton.disabled = over || !(game.movers || []).some((slot) => this.holds(slot));
    // The players' actions are shown to the players while the game goes on, to nobody else.
    const playing = !over && mine.length > 0;
    this.resignButton.classList.toggle('hidden', !playing);
    this.drawButton.classList.toggle('hidden', !playing);
    // A rated game against the engine has no takebacks.
    const ratedAgainstEngine = game.rated && ['black', 'white'].some((slot) => playerOf(game.players, slot) !== 'human');
    this.takebackButton.classList.toggle('hidden', ratedAgainstEngine || !playing);
    this.newGameLink.classList.toggle('hidden', !over || mine.length === 0);
    // A tournament pairs its own games: a rematch would be a game outside it.
    this.rematchButton.classList.toggle('hidden', !over || (mine.length === 0 && !game.rematch) || Boolean(this.tournament));
    this.alertsRow.classList.toggle('hidden', over || mine.length === 0);
    // A move is typed only by a player, while the game goes on.
    this.moveInput.classList.toggle('hidden', over || mine.length === 0);
    this.rematchButton.textContent = game.rematch ? (mine.length > 0 ? 'Play the rematch' : 'Watch the rematch') : 'Rematch';
    this.passButton.classList.toggle('hidden', !(this.canMove() && game.position.moves.length === 1 && game.position.moves[0].text === 'pass'));
    if (this.analysisOn && (!previous || previous.positions.length !== game.positions.length)) this.loadGraph();
    this.refresh();
  }

  /**
   * The sides whose seats this browser holds.
   * @param {GameView | null} game
   * @returns {Side[]}
   */
  mySidesOf(game) {
    const held = [...Object.keys(this.tokens), ...this.sessionSlots];
    const slots = held.filter((slot) => game && playerOf(game.players, slot) === 'human');
    return SIDES.filter((side) => slots.some((slot) => slot.startsWith(side)));
  }

  mySides() {
    return this.mySidesOf(this.game);
  }

  /**
   * The token to act with as `side` (the first seat of it this browser holds).
   * @param {Side} side
   */
  tokenFor(side) {
    const slot = Object.keys(this.tokens).find((seat) => seat.startsWith(side));
    // A seat the account holds acts with the session: no token.
    return slot ? this.tokens[slot] : undefined;
  }

  /** Whether the game goes on with one side at most having moved, outside a tournament. */
  mayAbort() {
    const g = this.game;
    if (!g || g.result || this.tournament) return false;
    const moved = (/** @type {Side} */ side) => (g.movers || []).some((slot) => slot.startsWith(side));
    return !(moved('black') && moved('white'));
  }

  /** @param {GameView | null} game */
  isMyMove(game) {
    return Boolean(game && !game.result && game.started && game.to_move_slot
      && playerOf(game.players, game.to_move_slot) === 'human' && this.holds(game.to_move_slot));
  }

  /** @param {GameView} game */
  title(game) {
    return gameTitle(this.meta, game.variant, game.position.size);
  }

  canMove() {
    return this.isMyMove(this.game) && this.atEnd();
  }

  /**
   * @param {GameView} g
   * @param {Side[]} mine
   */
  drawPlayers(g, mine) {
    const label = (/** @type {Side} */ side) => this.players.label(g, side, mine.includes(side) && mine.length === 1);
    this.players.drawTerms(g);
    const top = this.board.flipped ? 'black' : 'white';
    const bottom = this.board.flipped ? 'white' : 'black';
    const clockOf = (/** @type {Side} */ side) => (g.clock ? [this.vacationEls[side], this.clockEls[side]] : []);
    this.topPlayer.replaceChildren(label(top), ...clockOf(top));
    this.bottomPlayer.replaceChildren(label(bottom), ...clockOf(bottom));
    this.reserveEl.textContent = g.position.reserves
      ? `In reserve: Black ${g.position.reserves[0]}, White ${g.position.reserves[1]}`
      : g.variant === 'ambiloa' ? AMBILOA_KINDS : '';
    this.tickClocks();
  }

  tickClocks() {
    const g = this.game;
    if (!g || !g.clock) return;
    // The first move's countdown is in the status line.
    if (g.first_move_by !== undefined) this.updateStatus();
    const clock = g.clock;
    const now = Date.now() + this.serverOffset;
    // A clock stopped for a vacation stands still until it resumes, and then runs from
    // then: the server says nothing at that moment.
    const resumesAt = clock.resumes_at;
    const standing = resumesAt !== undefined && now < resumesAt;
    const resumed = resumesAt !== undefined && !standing;
    const running = resumed ? g.position.to_move : clock.running;
    const runningSince = resumed ? resumesAt : g.server_time;
    for (const side of SIDES) {
      let ms = side === 'black' ? clock.black_ms : clock.white_ms;
      if (running === side) ms -= now - runningSince;
      const el = this.clockEls[side];
      el.textContent = formatClock(ms);
      el.classList.toggle('running', running === side);
      el.classList.toggle('low', ms < 10000 && clock.control.kind === 'live');
      const away = standing && g.position.to_move === side ? `on vacation until ${dateAndTime(resumesAt)}` : '';
      const note = this.vacationEls[side];
      if (note.textContent !== away) note.textContent = away;
      note.classList.toggle('hidden', !away);
    }
  }

  /**
   * The draw offer and takeback request standing, and the answer to one's own.
   * @param {GameView} g
   * @param {Side[]} mine
   * @param {GameView | null} previous the game as shown before
   */
  drawOffer(g, mine, previous) {
    this.offerEl.replaceChildren();
    /** @type {[string, Side | null, Side | null | undefined, string, string, string][]} */
    const offers = [
      ['draw', g.draw_offer, previous?.draw_offer, 'offers a draw', 'You offered a draw', 'Your draw offer was declined.'],
      ['takeback', g.takeback_offer, previous?.takeback_offer, 'asks to take back a move', 'You asked to take back your move', 'Your takeback request was declined.'],
    ];
    let shown = false;
    for (const [kind, by, before, asks, asked, declined] of offers) {
      if (g.result) continue;
      if (!by) {
        // One's own offer gone with nothing else changed: the other side said no.
        if (before && mine.includes(before) && previous && previous.ply === g.ply) {
          shown = true;
          this.offerEl.append(h('span', { 'data-testid': `${kind}-declined` }, declined));
        }
        continue;
      }
      shown = true;
      const other = by === 'black' ? 'white' : 'black';
      const offerer = `${by === 'black' ? 'Black' : 'White'} ${asks}`;
      if (mine.includes(other)) {
        this.offerEl.append(h('span', {}, `${offerer}. `),
          h('button', { 'data-testid': `accept-${kind}`, onclick: () => this.act(kind, other) }, 'Accept'),
          h('button', { 'data-testid': `decline-${kind}`, onclick: () => this.act(`${kind}/decline`, other) }, 'Decline'));
      } else if (mine.includes(by)) {
        // "You" only to the seat that offered; spectators see who offers.
        this.offerEl.append(h('span', {}, `${asked}; waiting for an answer.`));
      } else {
        this.offerEl.append(h('span', {}, `${offerer}.`));
      }
    }
    this.offerEl.classList.toggle('hidden', !shown);
  }

  /** @param {GameView} g */
  drawLinks(g) {
    this.linksEl.replaceChildren();
    this.drawInvite(g);
    if (!g.online) return;
    // The seats' links are the maker's to send; anyone may be sent the one to watch.
    const invites = linksOf(g.id) ?? { spectators: `${location.origin}/game/${g.id}` };
    this.linksEl.append(h('h2', {}, 'Links'));
    for (const [slot, url] of Object.entries(invites)) {
      const link = h('input', { readonly: true, value: url, 'data-testid': `link-${slot}` });
      link.addEventListener('click', () => link.select());
      this.linksEl.append(h('label', {}, slot), link);
    }
  }

  /**
   * The links still to send, first thing under the status, each with a button that copies
   * it (and one that shares it, where the device can).
   * @param {GameView} g
   */
  drawInvite(g) {
    const links = linksOf(g.id);
    const unsent = g.started || !links ? [] : g.waiting_for.filter((slot) => links[slot]);
    // Drawn again only when it changes: a field being copied from keeps its selection.
    const key = unsent.join(' ');
    if (key === this.inviteEl.dataset.slots) return;
    this.inviteEl.dataset.slots = key;
    this.inviteEl.classList.toggle('hidden', unsent.length === 0);
    if (unsent.length === 0) {
      this.inviteEl.replaceChildren();
      return;
    }
    this.inviteEl.replaceChildren(h('h2', {}, 'Invite your opponent'),
      ...unsent.map((slot) => {
        const url = /** @type {Record<string, string>} */ (links)[slot];
        const said = h('span', { class: 'muted small', role: 'status' });
        const field = h('input', { readonly: true, value: url, 'aria-label': `link for ${slot}`, 'data-testid': `invite-${slot}` });
        field.addEventListener('click', () => field.select());
        const copy = h('button', {
          type: 'button', class: 'primary', 'data-testid': `copy-${slot}`,
          onclick: async () => {
            try {
              await navigator.clipboard.writeText(url);
              said.textContent = 'Copied';
            } catch {
              field.select();
              said.textContent = 'Selected: copy it with your keyboard or menu';
            }
          },
        }, 'Copy');
        const share = typeof navigator.share === 'function'
          ? h('button', { type: 'button', onclick: () => navigator.share({ title: 'A game of Lines of Action', url }).catch(() => {}) }, 'Share')
          : null;
        const side = slot.startsWith('black') ? 'Black' : 'White';
        return h('div', { class: 'invite-seat' },
          h('p', {}, `Send this link to the person who plays ${side}: the game starts when they open it.`),
          h('div', { class: 'row' }, field, copy, share, said));
      }));
  }

  updateStatus() {
    const g = this.game;
    if (!g) return;
    let text;
    if (g.result?.reason === 'aborted') {
      text = 'Game aborted: it counts for nobody';
    } else if (g.result) {
      const who = g.result.winner ? `${g.result.winner === 'black' ? 'Black' : 'White'} wins` : 'Draw';
      text = `${who} (${g.result.result}) by ${g.result.reason}`;
      const mine = this.mySides();
      if (g.rating_changes && mine.length === 1) text += ` · your rating ${changeText(g.rating_changes[mine[0] === 'black' ? 0 : 1])}`;
      if (g.rematch && mine.length > 0) text += ' · a rematch is waiting';
    } else if (!g.started || !g.to_move_slot) {
      text = `Waiting for ${g.waiting_for.map(capitalized).join(' and ')} to open their link`;
    } else {
      const slot = g.to_move_slot;
      const player = playerOf(g.players, slot);
      const kind = g.variant === 'ambiloa' ? ` (kind ${slot.startsWith('black') ? (g.position.seat ? 'b' : 'B') : (g.position.seat ? 'w' : 'W')})` : '';
      const side = slot.startsWith('black') ? 'Black' : 'White';
      text = player === 'human'
        ? (this.canMove() ? `Your move: ${side}${kind}` : `${side}${kind} to move`)
        : `${side}${kind}: loa is thinking…`;
      if (g.first_move_by !== undefined) {
        const left = Math.max(0, Math.ceil((g.first_move_by - Date.now() - this.serverOffset) / 1000));
        text += g.first_move_missed === 'forfeit'
          ? ` · ${left} s for a first move, or ${side} loses by forfeit`
          : ` · ${left} s for a first move, or the game is aborted`;
      }
    }
    if (!this.atEnd()) text += ` · viewing move ${this.viewPly} of ${g.moves.length}`;
    if (this.errorText) text += ` · ${this.errorText}`;
    this.status.textContent = text;
  }

  /** @param {string} text */
  async tryMove(text) {
    const before = this.game;
    if (!before || !before.to_move_slot || !this.canMove()) return;
    this.errorText = null;
    try {
      const token = this.tokens[before.to_move_slot];
      /** @type {GameView} */
      const game = await api('POST', `/api/games/${this.id}/moves`, { move: text, token, ply: before.moves.length });
      if (game.moves.length >= (this.game ?? before).moves.length) this.update(game, false);
    } catch (err) {
      this.errorText = errorMessage(err);
      this.refresh();
    }
  }

  /**
   * @param {string} kind
   * @param {string} question
   */
  confirmAct(kind, question) {
    if (window.confirm(question)) this.act(kind);
  }

  /**
   * Acts as `side`, or as the side it falls to: the person's one side, or at one board
   * the side to move (a takeback: the side that moved last).
   * @param {string} kind the action's path: `resign`, `draw`, `takeback/decline`, ...
   * @param {Side} [side]
   */
  async act(kind, side) {
    const g = this.game;
    if (!g) return;
    this.errorText = null;
    const mine = this.mySides();
    let acting = side;
    if (!acting && mine.length === 1) acting = mine[0];
    if (!acting) {
      const toMove = g.position.to_move;
      acting = kind === 'takeback' ? (toMove === 'black' ? 'white' : 'black') : toMove;
    }
    const body = { token: this.tokenFor(acting) };
    try {
      /** @type {GameView} */
      const game = await api('POST', `/api/games/${this.id}/${kind}`, body);
      this.update(game, false);
    } catch (err) {
      this.errorText = errorMessage(err);
      this.updateStatus();
    }
  }

  /** Asks for the rematch, or takes one's seat in the one the other player asked for. */
  async rematch() {
    const g = this.game;
    if (!g) return;
    const own = Object.values(this.tokens)[0];
    if (!own && this.sessionSlots.size === 0) {
      if (g.rematch) navigate(`/game/${g.rematch}`);
      return;
    }
    try {
      /** @type {Created} */
      const next = await api('POST', `/api/games/${this.id}/rematch`, own ? { token: own } : {});
      keepTokens(next.id, next.tokens);
      if (next.game.online && Object.keys(next.tokens).length === 1) {
        // The other player is told on this page; spectators may still want the link.
        keepLinks(next.id, { spectators: `${location.origin}/game/${next.id}` });
      }
      navigate(`/game/${next.id}`);
    } catch (err) {
      this.errorText = errorMessage(err);
      this.updateStatus();
    }
  }

  async copyPosition() {
    if (!this.line) return;
    const text = this.line.positions[this.viewPly];
    try { await navigator.clipboard.writeText(text); } catch { window.prompt('Position text', text); }
  }

  /** The whole game on the analysis board, at the move shown. */
  openInAnalysis() {
    const l = this.line;
    if (!l) return;
    const params = new URLSearchParams({ variant: l.variant, rules: l.rules, position: l.start, moves: l.moves.join(' '), ply: String(this.viewPly) });
    navigate(`/analysis?${params}`);
  }
}
