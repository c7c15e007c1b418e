// @ts-check
// The form that makes a game: the opponent, the variant and its board, the rule set, the
// clock and a start, bounded by what the server offers (GET /api/meta).

import { api, errorMessage } from './api.js';
import { h } from './dom.js';
import { AMBILOA_KINDS, variantOf } from './format.js';
import { navigate } from './navigate.js';
import { keepLinks, keepTokens } from './seats.js';
import { signedIn } from './session.js';
import { RULES_WORDS } from './terms-form.js';

/**
 * @typedef {import('./types.js').Created} Created
 * @typedef {import('./types.js').Meta} Meta
 * @typedef {import('./types.js').Player} Player
 * @typedef {import('./types.js').SidePlayers} SidePlayers
 * @typedef {import('./types.js').TimeControl} TimeControl
 */

/** The level the form offers first. */
const DEFAULT_LEVEL = 4;

/**
 * The first field out of its range, focused, and what to say of it.
 * @param {[boolean, HTMLInputElement, number, number, string][]} checks
 *   whether it applies, the field, its least and greatest value, the message
 */
function formProblem(checks) {
  for (const [applies, input, min, max, message] of checks) {
    const value = Number(input.value);
    if (applies && (input.value.trim() === '' || !Number.isFinite(value) || value < min || value > max)) {
      input.focus();
      return message;
    }
  }
  return null;
}

/**
 * The API's messages name its fields; the form names what the person filled in.
 * @param {string} message
 */
function formWords(message) {
  /** @type {[RegExp, string][]} */
  const words = [
    [/\binitial_s\b/g, 'the minutes (in seconds)'], [/\bincrement_s\b/g, 'the increment'],
    [/\bmovetime_ms\b/g, 'the time a move'], [/\bdays\b/g, 'the days a move'],
    [/^position\b/, 'The start position'], [/\bposition:/g, 'start position:'],
  ];
  return words.reduce((text, [pattern, word]) => text.replace(pattern, word), message);
}

/**
 * The board sizes a variant is played on, the largest first.
 * @param {Meta} meta
 * @param {string} variant
 */
function boardsOf(meta, variant) {
  return [...(variantOf(meta, variant)?.boards ?? [8])].sort((a, b) => b - a);
}

/**
 * The new game form.
 * @param {Meta} meta
 * @param {string} [against] the opponent chosen first: `engine`, `local` or `online`
 */
export function newGameForm(meta, against = 'engine') {
  const limits = meta.limits;
  const [minMovetime, maxMovetime] = limits.movetime_ms.map((ms) => ms / 1000);
  const maxMinutes = limits.live_initial_s / 60;
  const [minDays, maxDays] = limits.correspondence_days;
  const variantSelect = h('select', { id: 'variant', 'data-testid': 'variant' },
    meta.variants.map((v) => h('option', { value: v.id }, v.title)));
  const boardSelect = h('select', { id: 'board', 'data-testid': 'board-size' });
  const rulesSelect = h('select', { id: 'rules', 'data-testid': 'rules' },
    meta.rules.map((rules) => h('option', { value: rules }, RULES_WORDS[rules] ?? rules)));
  const opponent = h('select', { id: 'opponent', 'data-testid': 'opponent' },
    h('option', { value: 'engine', selected: against === 'engine' }, 'The engine'),
    h('option', { value: 'local', selected: against === 'local' }, 'Two people at this board'),
    h('option', { value: 'online', selected: against === 'online' }, 'A friend online (a link to send them)'));
  const levelSelect = h('select', { id: 'level', 'data-testid': 'level' },
    meta.levels.map(({ level, description, elo, beginner }) => h('option', { value: level, selected: level === DEFAULT_LEVEL, title: `${description}; about ${elo} Elo above random moves` }, beginner ? `Level ${level} (beginner)` : `Level ${level}`)),
    h('option', { value: 'time' }, 'Time a move…'));
  const movetime = h('input', { id: 'movetime', type: 'number', min: minMovetime, max: maxMovetime, step: 'any', value: 2, size: 5, class: 'hidden', 'aria-label': 'seconds a move' });
  const colorSelect = h('select', { id: 'color', 'data-testid': 'color' },
    h('option', { value: 'black' }, 'Black (moves first)'),
    h('option', { value: 'white' }, 'White'),
    h('option', { value: 'random' }, 'Random'));
  const clockSelect = h('select', { id: 'clock', 'data-testid': 'clock' },
    h('option', { value: 'none' }, 'No clock'),
    h('option', { value: 'live' }, 'Live: minutes + increment'),
    h('option', { value: 'correspondence' }, 'Correspondence: days a move'));
  const minutes = h('input', { type: 'number', min: 0, max: maxMinutes, step: 'any', value: 5, size: 4, 'aria-label': 'minutes', 'data-testid': 'minutes' });
  const increment = h('input', { type: 'number', min: 0, max: limits.live_increment_s, value: 3, size: 3, 'aria-label': 'increment seconds', 'data-testid': 'increment' });
  const days = h('input', { type: 'number', min: minDays, max: maxDays, value: 3, size: 3, 'aria-label': 'days a move' });
  const liveRow = h('span', { class: 'hidden' }, minutes, ' min + ', increment, ' s');
  const daysRow = h('span', { class: 'hidden' }, days, ' days');
  const partnership = h('input', { type: 'checkbox', id: 'partnership', 'data-testid': 'partnership' });
  const partnershipLabel = h('label', { class: 'hidden' }, partnership, 'Four players (partnership)');
  const seatSelects = ['Black, plain (B)', 'White, plain (W)', 'Black, ringed (b)', 'White, ringed (w)'].map((label) => h('select', { 'data-seat': label },
    h('option', { value: 'human' }, 'Person'),
    meta.levels.map(({ level }) => h('option', { value: level }, `loa level ${level}`))));
  const partnershipRow = h('div', { class: 'row hidden' }, h('p', { class: 'muted' }, AMBILOA_KINDS),
    seatSelects.map((select) => h('label', {}, select.dataset.seat, select)));
  const positionInput = h('input', { id: 'position', placeholder: 'start position text (optional)', style: 'flex:1; min-width: 14rem', 'data-testid': 'position' });
  const error = h('p', { class: 'error', 'data-testid': 'error', role: 'alert' });
  const rated = h('input', { type: 'checkbox', id: 'rated', 'data-testid': 'rated' });
  const ratedLabel = h('label', { class: 'hidden', title: "Your rating and the level's bot account's move with the result; no takebacks" }, rated, ' Rated');
  const engineRow = h('span', {}, levelSelect, movetime);
  const colorRow = h('span', {}, ' You play ', colorSelect);

  // AmbiLOA's partnership game: four seats, chosen one by one.
  const fourPlayers = () => Boolean(variantOf(meta, variantSelect.value)?.partnership) && partnership.checked;
  // Rated against a level: signed in, one person against the level, with a clock.
  const ratable = () => Boolean(signedIn()) && opponent.value === 'engine' && !fourPlayers()
    && levelSelect.value !== 'time' && clockSelect.value !== 'none';
  const sync = () => {
    const variant = variantSelect.value;
    // The variant's boards, the one chosen kept where it can be.
    const boards = boardsOf(meta, variant);
    const chosen = Number(boardSelect.value);
    boardSelect.replaceChildren(...boards.map((n) => h('option', { value: n, selected: n === chosen }, `${n}×${n}`)));
    boardSelect.disabled = boards.length < 2;
    const four = fourPlayers();
    partnershipLabel.classList.toggle('hidden', !variantOf(meta, variant)?.partnership);
    partnershipRow.classList.toggle('hidden', !four);
    engineRow.classList.toggle('hidden', opponent.value !== 'engine' || four);
    colorRow.classList.toggle('hidden', opponent.value === 'local' || four);
    movetime.classList.toggle('hidden', levelSelect.value !== 'time');
    liveRow.classList.toggle('hidden', clockSelect.value !== 'live');
    daysRow.classList.toggle('hidden', clockSelect.value !== 'correspondence');
    ratedLabel.classList.toggle('hidden', !ratable());
  };
  for (const el of [variantSelect, opponent, levelSelect, clockSelect, partnership]) el.addEventListener('change', sync);

  /** @param {Event} event */
  const create = async (event) => {
    event.preventDefault();
    error.textContent = '';
    /** @type {{ variant: string, rules: string, board?: number, position?: string, black?: SidePlayers, white?: SidePlayers, online?: boolean, clock?: TimeControl, rated?: boolean }} */
    const body = { variant: variantSelect.value, rules: rulesSelect.value };
    // The creator's colour, against the engine or a friend online.
    let onlineColor = colorSelect.value;
    if (onlineColor === 'random') onlineColor = Math.random() < 0.5 ? 'black' : 'white';
    if (!boardSelect.disabled) body.board = Number(boardSelect.value);
    if (positionInput.value.trim()) {
      body.position = positionInput.value.trim();
      delete body.board;
    }
    /** @type {Player} */
    const engine = levelSelect.value === 'time'
      ? { engine: { movetime_ms: Math.round(Number(movetime.value) * 1000) } }
      : { engine: { level: Number(levelSelect.value) } };
    if (fourPlayers()) {
      /** @returns {Player} */
      const seat = (/** @type {number} */ i) => (seatSelects[i].value === 'human' ? 'human' : { engine: { level: Number(seatSelects[i].value) } });
      body.black = [seat(0), seat(2)];
      body.white = [seat(1), seat(3)];
    } else if (opponent.value === 'engine') {
      body.black = onlineColor === 'black' ? 'human' : engine;
      body.white = onlineColor === 'white' ? 'human' : engine;
    } else {
      body.black = 'human';
      body.white = 'human';
    }
    body.online = opponent.value === 'online';
    // The form's own words for what is out of range, before anything is sent.
    const problem = formProblem([
      [levelSelect.value === 'time' && opponent.value === 'engine', movetime, minMovetime, maxMovetime, `The time a move is from ${minMovetime} to ${maxMovetime} seconds`],
      [clockSelect.value === 'live', minutes, 0, maxMinutes, `The minutes are from 0 to ${maxMinutes}`],
      [clockSelect.value === 'live', increment, 0, limits.live_increment_s, `The increment is from 0 to ${limits.live_increment_s} seconds`],
      [clockSelect.value === 'correspondence', days, minDays, maxDays, `The days a move are from ${minDays} to ${maxDays}`],
    ]);
    if (problem) {
      error.textContent = problem;
      return;
    }
    if (clockSelect.value === 'live' && Number(minutes.value) === 0 && Number(increment.value) === 0) {
      error.textContent = 'A live clock needs some minutes or an increment';
      return;
    }
    if (clockSelect.value === 'live') {
      body.clock = { kind: 'live', initial_s: Math.round(Number(minutes.value) * 60), increment_s: Math.round(Number(increment.value)) };
    } else if (clockSelect.value === 'correspondence') {
      body.clock = { kind: 'correspondence', days: Math.round(Number(days.value)) };
    }
    if (rated.checked && ratable()) body.rated = true;
    try {
      /** @type {Created} */
      const created = await api('POST', '/api/games', body);
      const slots = Object.keys(created.tokens);
      if (body.online) {
        // The creator takes the seat of their colour; the other links are theirs to send.
        const own = slots.find((slot) => slot.startsWith(onlineColor)) || slots[0];
        keepTokens(created.id, { [own]: created.tokens[own] });
        /** @type {Record<string, string>} */
        const links = {};
        for (const slot of slots) {
          if (slot !== own) links[slot] = `${location.origin}/game/${created.id}?token=${created.tokens[slot]}`;
        }
        links.spectators = `${location.origin}/game/${created.id}`;
        keepLinks(created.id, links);
      } else {
        keepTokens(created.id, created.tokens);
      }
      navigate(`/game/${created.id}`);
    } catch (err) {
      error.textContent = formWords(errorMessage(err));
    }
  };

  const form = h('form', { onsubmit: create, novalidate: true, 'data-testid': 'new-game' },
    h('div', { class: 'row' }, h('label', {}, 'Opponent ', opponent), engineRow, colorRow),
    h('div', { class: 'row' }, h('label', {}, 'Variant ', variantSelect), h('label', {}, 'Board ', boardSelect), partnershipLabel),
    partnershipRow,
    h('div', { class: 'row' }, h('label', {}, 'Rules ', rulesSelect)),
    h('div', { class: 'row' }, h('label', {}, 'Clock ', clockSelect), liveRow, daysRow, ratedLabel),
    h('div', { class: 'row' }, positionInput),
    h('div', { class: 'row' }, h('button', { class: 'primary', type: 'submit', 'data-testid': 'start' }, 'Start the game')),
    error);
  sync();
  return form;
}
