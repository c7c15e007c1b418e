// @ts-check
// The home page: the games waiting for the signed-in player's move, the lobby (quick
// pairing, open seeks, the new game form for the computer or a friend), the games being
// played, the games this browser or account plays, an import, the saved games.

import { api, describe, errorMessage } from './api.js';
import { app, h, modal, nameLink } from './dom.js';
import { accountOf, dateAndTime, formatClock, gameTitle, playerOf, sameName, shortDate, sideName } from './format.js';
import { Lobby } from './lobby.js';
import { navigate } from './navigate.js';
import { newGameForm } from './new-game.js';
import { showTurn } from './notify.js';
import { Playing } from './playing.js';
import { heldGames, tokensOf } from './seats.js';
import { signedIn } from './session.js';
import { onWaiting } from './waiting.js';

/**
 * @typedef {import('./types.js').GameSummary} GameSummary
 * @typedef {import('./types.js').GameView} GameView
 * @typedef {import('./types.js').Meta} Meta
 * @typedef {import('./types.js').RecordGame} RecordGame
 * @typedef {import('./types.js').WaitingGame} WaitingGame
 */

export class HomePage {
  /** @param {Meta} meta */
  constructor(meta) {
    this.meta = meta;
    this.lobby = new Lobby(meta, (opponent) => this.openNewGame(opponent));
    this.playing = new Playing(meta);
    this.waiting = new WaitingList();
  }

  start() {
    const gamesList = h('div', { 'data-testid': 'games' }, h('p', { class: 'muted' }, 'Loading…'));
    const myGames = h('div', { 'data-testid': 'my-games' });
    app.replaceChildren(
      h('h1', { class: 'visually-hidden' }, 'Play'),
      h('p', { class: 'newcomer muted', 'data-testid': 'newcomer' }, 'Lines of Action: bring all your pieces together into one group before your opponent does. New to it? ',
        h('a', { href: '/rules' }, 'How to play')),
      this.waiting.el,
      this.lobby.el,
      this.playing.el,
      myGames,
      h('h2', {}, 'Import'),
      importForm(this.meta),
      h('h2', { id: 'games' }, 'Games on this site'),
      gamesList);
    this.waiting.start();
    this.lobby.start();
    // The site's games (/#games) are scrolled to once what comes above it is drawn: at once,
    // the lists still loading would push it down.
    Promise.allSettled([this.playing.start(), loadMyGames(this.meta, myGames), loadGames(this.meta, gamesList)])
      .then(() => {
        if (location.hash === '#games' && app.contains(gamesList)) document.getElementById('games')?.scrollIntoView();
      });
  }

  dispose() {
    this.waiting.dispose();
    this.lobby.dispose();
    this.playing.dispose();
    document.querySelector('[data-testid=new-game-dialog]')?.remove();
  }

  /**
   * The new game form in a dialog.
   * @param {string} opponent `engine`, `online` or `local`
   */
  openNewGame(opponent) {
    modal(opponent === 'engine' ? 'Play the computer' : opponent === 'online' ? 'Play a friend' : 'New game',
      'new-game-dialog', newGameForm(this.meta, opponent));
  }
}

/**
 * The games waiting for the signed-in player's move (waiting.js asks for them), each a
 * link with its opponent and the time left; hidden while there are none.
 */
class WaitingList {
  constructor() {
    this.list = h('ul', { class: 'waiting-list' });
    this.el = h('section', { class: 'waiting hidden', 'data-testid': 'waiting' }, h('h2', {}, 'Games waiting for you'), this.list);
    /** The times left shown, each with the time it had and when it began to run down (a clock stopped for a vacation begins when it ends). @type {{ el: HTMLElement, left: number, from: number }[]} */
    this.clocks = [];
    this.stopHearing = () => {};
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.timer = undefined;
  }

  start() {
    this.stopHearing = onWaiting((games, askedAt) => this.draw(games, askedAt));
    this.timer = setInterval(() => this.tick(), 1000);
  }

  dispose() {
    this.stopHearing();
    clearInterval(this.timer);
  }

  /**
   * @param {WaitingGame[]} games
   * @param {number} askedAt when the times left were
   */
  draw(games, askedAt) {
    this.el.classList.toggle('hidden', games.length === 0);
    this.clocks = [];
    this.list.replaceChildren(...games.map((g) => {
      const left = h('span', { 'data-testid': 'waiting-time' }, 'no clock');
      // A clock standing still for a vacation runs again from `resumes_at`.
      if (g.time_left_ms !== null) this.clocks.push({ el: left, left: g.time_left_ms, from: g.resumes_at ?? askedAt });
      return h('li', { 'data-testid': 'waiting-game' },
        h('a', { href: `/game/${g.id}` }, 'Your move against ', h('strong', { 'data-testid': 'waiting-opponent' }, g.against)),
        h('span', { class: 'muted' }, left, ` · ${g.moves} ${g.moves === 1 ? 'move' : 'moves'}`));
    }));
    this.tick();
  }

  tick() {
    const now = Date.now();
    for (const { el, left, from } of this.clocks) {
      // Standing still for a vacation: said, with when it runs again.
      el.textContent = from > now
        ? `${formatClock(left)} left, standing still until ${shortDate(from)} (vacation)`
        : `${formatClock(left - Math.max(0, now - from))} left`;
    }
  }
}

/**
 * Who plays a side: the account (a link to its profile), or the kind of player.
 * @param {GameView | GameSummary} g
 * @param {'black' | 'white'} side
 */
function playerCell(g, side) {
  const account = accountOf(g, side);
  return account ? nameLink(account) : h('span', { class: 'name-cut' }, sideName(g, side));
}

/**
 * A record (SGF, PGN) or a position text, pasted or from a file, opened on the analysis
 * board.
 * @param {Meta} meta
 */
function importForm(meta) {
  const importText = h('textarea', { id: 'import', placeholder: 'Paste an SGF or PGN record, or a position text', 'data-testid': 'import-text' });
  const importFile = h('input', { type: 'file', accept: '.sgf,.pgn,.txt', 'aria-label': 'record file', 'data-testid': 'import-file' });
  const importVariant = h('select', { 'aria-label': 'variant of the position text' },
    meta.variants.map((v) => h('option', { value: v.id }, v.title)));
  const importError = h('p', { class: 'error', role: 'alert', 'data-testid': 'import-error' });
  importFile.addEventListener('change', async () => {
    const file = importFile.files?.[0];
    if (file) importText.value = await file.text();
  });
  /** @param {Event} event */
  const doImport = async (event) => {
    event.preventDefault();
    importError.textContent = '';
    const text = importText.value.trim();
    if (!text) {
      importError.textContent = 'Paste a record or a position text, or choose a file: there is nothing to open.';
      return;
    }
    try {
      if (text.startsWith('(') || text.startsWith('[') || /^\s*1\./.test(text)) {
        /** @type {RecordGame[]} */
        const games = await api('POST', '/api/records', { record: text });
        // A game that breaks the rules is named, never imported cut short; the first
        // whole game opens, at an address of its own.
        const bad = games.filter((g) => g.error);
        importError.replaceChildren(...bad.map((g) => h('span', { class: 'import-bad' }, `Not imported: ${g.error}`)));
        const g = games.find((game) => !game.error && game.variant && game.start && game.rules);
        if (!g || !g.variant || !g.start || !g.rules) return;
        const title = `${g.black || 'Black'} – ${g.white || 'White'} · ${g.result}${g.termination ? ` (${g.termination})` : ''}`
          + (games.length > 1 ? ` · game ${g.number} of the record` : '')
          + (g.reflected ? ' · on the reflected array' : '');
        const params = new URLSearchParams({ variant: g.variant, rules: g.rules, position: g.start, moves: g.moves.join(' '), ply: '0', title });
        if (bad.length > 0) {
          // The errors stay in sight; the game opens from a link.
          importError.append(h('a', { href: `/analysis?${params}`, 'data-testid': 'import-open' }, `Open game ${g.number}`));
          return;
        }
        navigate(`/analysis?${params}`);
      } else {
        const view = await describe(importVariant.value, 'draw', text);
        const params = new URLSearchParams({ variant: importVariant.value, position: view.position });
        navigate(`/analysis?${params}`);
      }
    } catch (err) {
      importError.textContent = errorMessage(err);
    }
  };
  return h('form', { onsubmit: doImport },
    importText,
    h('div', { class: 'row' }, importFile, h('label', {}, 'Position text is of ', importVariant),
      h('button', { type: 'submit', 'data-testid': 'import' }, 'Open')),
    importError);
}

/**
 * The games this browser plays, with whose move it is: the way back to one's seat.
 * @param {Meta} meta
 * @param {HTMLElement} container
 */
async function loadMyGames(meta, container) {
  const ids = heldGames().slice(0, 30);
  const me = signedIn();
  if (me) {
    // The account's games in progress, played from any browser.
    /** @type {GameSummary[]} */
    const mine = await api('GET', '/api/me/games?limit=50').catch(() => []);
    for (const g of mine) if (!g.result && !ids.includes(g.id)) ids.push(g.id);
  }
  if (ids.length === 0) return;
  /** @type {(GameView | null)[]} */
  const found = await Promise.all(ids.map((id) => api('GET', `/api/games/${id}`).catch(() => null)));
  const games = found.filter((g) => g !== null);
  // Another page may be shown by now: the title is its own.
  if (games.length === 0 || !container.isConnected) return;
  // A seat is this person's by its token here, or by the account's name on it.
  const holds = (/** @type {GameView} */ g, /** @type {string} */ slot) => Boolean(tokensOf(g.id)[slot]
    || (me && sameName(accountOf(g, slot.startsWith('black') ? 'black' : 'white'), me.name)));
  const mineToMove = (/** @type {GameView} */ g) => Boolean(!g.result && g.started && g.to_move_slot
    && holds(g, g.to_move_slot) && playerOf(g.players, g.to_move_slot) === 'human');
  // Games waiting for this person first, then those in progress, then finished ones.
  const rank = (/** @type {GameView} */ g) => (mineToMove(g) ? 0 : g.result ? 2 : 1);
  games.sort((a, b) => rank(a) - rank(b));
  showTurn(Object.fromEntries(games.map((g) => [g.id, mineToMove(g)])));
  const state = (/** @type {GameView} */ g) => {
    if (g.result) return g.result.reason === 'aborted' ? 'aborted' : `${g.result.result} ${g.result.reason}`;
    if (!g.started) return `waiting for ${g.waiting_for.join(' and ')}`;
    if (mineToMove(g)) return h('strong', {}, 'Your move');
    return `${g.to_move_slot?.startsWith('black') ? 'Black' : 'White'} to move`;
  };
  container.replaceChildren(h('h2', {}, 'My games'), h('table', {},
    h('thead', {}, h('tr', {}, ['Game', 'Variant', 'Black', 'White', 'Moves', 'State'].map((t) => h('th', { class: t === 'Variant' || t === 'Moves' ? 'wide' : null }, t)))),
    h('tbody', {}, games.map((g) => h('tr', { 'data-testid': 'my-game' },
      h('td', {}, h('a', { href: `/game/${g.id}` }, g.id.slice(0, 8))),
      h('td', { class: 'wide' }, gameTitle(meta, g.variant, g.position.size)),
      h('td', {}, playerCell(g, 'black')),
      h('td', {}, playerCell(g, 'white')),
      h('td', { class: 'wide' }, g.moves.length),
      h('td', {}, state(g)))))));
}

/**
 * The saved games, the most recently changed first.
 * @param {Meta} meta
 * @param {HTMLElement} container
 */
async function loadGames(meta, container) {
  try {
    /** @type {GameSummary[]} */
    const games = await api('GET', '/api/games?limit=100');
    if (games.length === 0) {
      container.replaceChildren(h('p', { class: 'muted' }, 'No games yet.'));
      return;
    }
    container.replaceChildren(h('table', {},
      h('thead', {}, h('tr', {}, ['Game', 'Variant', 'Black', 'White', 'Moves', 'Result', 'Last change'].map((t) => h('th', { class: t === 'Variant' || t === 'Moves' || t === 'Last change' ? 'wide' : null }, t)))),
      h('tbody', {}, games.map((g) => h('tr', {},
        h('td', {}, h('a', { href: `/game/${g.id}` }, g.id.slice(0, 8))),
        h('td', { class: 'wide' }, gameTitle(meta, g.variant)),
        h('td', {}, playerCell(g, 'black')),
        h('td', {}, playerCell(g, 'white')),
        h('td', { class: 'wide' }, g.moves),
        h('td', {}, g.result ? (g.reason === 'aborted' ? 'aborted' : `${g.result} ${g.reason}`) : ['in progress', g.online ? h('span', { class: 'wide' }, ' (online)') : '']),
        h('td', { class: 'wide' }, dateAndTime(g.updated_at)))))));
  } catch (err) {
    container.replaceChildren(h('p', { class: 'error' }, errorMessage(err)));
  }
}
