// @ts-check
// The home page: a new game, the games this browser plays, an import, the saved games.

import { api, describe, errorMessage } from './api.js';
import { app, h } from './dom.js';
import { gameTitle, playerOf, sideLabel } from './format.js';
import { navigate } from './navigate.js';
import { newGameForm } from './new-game.js';
import { showTurn } from './notify.js';
import { heldGames, tokensOf } from './seats.js';

/**
 * @typedef {import('./types.js').GameSummary} GameSummary
 * @typedef {import('./types.js').GameView} GameView
 * @typedef {import('./types.js').Meta} Meta
 * @typedef {import('./types.js').RecordGame} RecordGame
 */

/**
 * @param {Meta} meta
 */
export function homePage(meta) {
  const gamesList = h('div', { 'data-testid': 'games' }, h('p', { class: 'muted' }, 'Loading…'));
  const myGames = h('div', { 'data-testid': 'my-games' });
  app.replaceChildren(
    h('h1', {}, 'New game'),
    newGameForm(meta),
    myGames,
    h('h2', {}, 'Import'),
    importForm(meta),
    h('h2', { id: 'games' }, 'Saved games'),
    gamesList);
  loadMyGames(meta, myGames);
  loadGames(meta, gamesList);
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
    if (!text) return;
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
  if (ids.length === 0) return;
  /** @type {(GameView | null)[]} */
  const found = await Promise.all(ids.map((id) => api('GET', `/api/games/${id}`).catch(() => null)));
  const games = found.filter((g) => g !== null);
  if (games.length === 0) return;
  const mineToMove = (/** @type {GameView} */ g) => Boolean(!g.result && g.started && g.to_move_slot
    && tokensOf(g.id)[g.to_move_slot] && playerOf(g.players, g.to_move_slot) === 'human');
  // Games waiting for this person first, then those in progress, then finished ones.
  const rank = (/** @type {GameView} */ g) => (mineToMove(g) ? 0 : g.result ? 2 : 1);
  games.sort((a, b) => rank(a) - rank(b));
  const waiting = games.filter(mineToMove).length;
  showTurn(waiting > 0, waiting > 1 ? `${waiting} games` : undefined);
  const state = (/** @type {GameView} */ g) => {
    if (g.result) return `${g.result.result} ${g.result.reason}`;
    if (!g.started) return `waiting for ${g.waiting_for.join(' and ')}`;
    if (mineToMove(g)) return h('strong', {}, 'Your move');
    return `${g.to_move_slot?.startsWith('black') ? 'Black' : 'White'} to move`;
  };
  container.replaceChildren(h('h2', {}, 'My games'), h('table', {},
    h('thead', {}, h('tr', {}, ['Game', 'Variant', 'Black', 'White', 'Moves', 'State'].map((t) => h('th', { class: t === 'Variant' ? 'wide' : null }, t)))),
    h('tbody', {}, games.map((g) => h('tr', { 'data-testid': 'my-game' },
      h('td', {}, h('a', { href: `/game/${g.id}` }, g.id.slice(0, 8))),
      h('td', { class: 'wide' }, gameTitle(meta, g.variant, g.position.size)),
      h('td', {}, sideLabel(g.players, 'black')),
      h('td', {}, sideLabel(g.players, 'white')),
      h('td', {}, g.moves.length),
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
      h('thead', {}, h('tr', {}, ['Game', 'Variant', 'Black', 'White', 'Moves', 'Result', 'Last change'].map((t) => h('th', { class: t === 'Variant' || t === 'Last change' ? 'wide' : null }, t)))),
      h('tbody', {}, games.map((g) => h('tr', {},
        h('td', {}, h('a', { href: `/game/${g.id}` }, g.id.slice(0, 8))),
        h('td', { class: 'wide' }, gameTitle(meta, g.variant)),
        h('td', {}, sideLabel(g.players, 'black')),
        h('td', {}, sideLabel(g.players, 'white')),
        h('td', {}, g.moves),
        h('td', {}, g.result ? `${g.result} ${g.reason}` : (g.online ? 'in progress (online)' : 'in progress')),
        h('td', { class: 'wide' }, new Date(g.updated_at).toLocaleString()))))));
  } catch (err) {
    container.replaceChildren(h('p', { class: 'error' }, errorMessage(err)));
  }
}
