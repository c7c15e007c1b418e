// @ts-check
// The terms of a game two people agree on, as a seek or a challenge offers them: the
// variant, the rule set, the clock (live, or correspondence: days a move or a time bank),
// rated or casual, and the maker's colour; bounded by what the server offers (GET /api/meta).

import { h } from './dom.js';
import { capitalized, speedOf } from './format.js';
import { signedIn } from './session.js';

/**
 * @typedef {import('./types.js').ColorChoice} ColorChoice
 * @typedef {import('./types.js').Meta} Meta
 * @typedef {import('./types.js').Terms} Terms
 * @typedef {import('./types.js').TimeControl} TimeControl
 */

/** @type {Record<string, string>} */
export const RULES_WORDS = {
  draw: 'Simultaneous connection: draw',
  'mover-wins': 'Simultaneous connection: mover wins',
};

/**
 * The fields, and what they say: the terms, or what is wrong with them.
 * @param {Meta} meta
 * @param {{ rated?: boolean, color?: boolean }} [start] `color: false` leaves the colour out (a
 *   tournament gives it)
 * @returns {{ el: HTMLElement, read: () => Terms | string }}
 */
export function termsForm(meta, start = {}) {
  const limits = meta.limits;
  const [minDays, maxDays] = limits.correspondence_days;
  const maxMinutes = limits.live_initial_s / 60;
  const variant = h('select', { 'data-testid': 'terms-variant' },
    meta.variants.map((v) => h('option', { value: v.id }, v.title)));
  const rules = h('select', { 'data-testid': 'terms-rules' },
    meta.rules.map((r) => h('option', { value: r }, RULES_WORDS[r] ?? r)));
  const kind = h('select', { 'data-testid': 'terms-clock' },
    h('option', { value: 'live' }, 'Live: minutes + increment'),
    h('option', { value: 'correspondence' }, 'Correspondence: days a move'),
    h('option', { value: 'bank' }, 'Correspondence: time bank'));
  const minutes = h('input', { type: 'number', min: 0, max: maxMinutes, step: 'any', value: 5, size: 4, 'aria-label': 'minutes', 'data-testid': 'terms-minutes' });
  const increment = h('input', { type: 'number', min: 0, max: limits.live_increment_s, value: 3, size: 3, 'aria-label': 'increment seconds', 'data-testid': 'terms-increment' });
  const days = h('input', { type: 'number', min: minDays, max: maxDays, value: 3, size: 3, 'aria-label': 'days a move', 'data-testid': 'terms-days' });
  const bankSize = h('input', { type: 'number', min: minDays, max: maxDays, value: 10, size: 3, 'aria-label': 'days in the bank', 'data-testid': 'terms-bank' });
  const bankAdds = h('input', { type: 'number', min: minDays, max: maxDays, value: 1, size: 3, 'aria-label': 'days a move adds', 'data-testid': 'terms-bank-adds' });
  const liveRow = h('span', {}, minutes, ' min + ', increment, ' s');
  const daysRow = h('span', {}, days, ' days');
  const bankRow = h('span', { title: 'Each side starts with the bank; each move adds its days, never above the bank' },
    bankSize, ' days bank + ', bankAdds, ' a move');
  const speed = h('span', { class: 'muted', 'data-testid': 'terms-speed' });
  const me = signedIn();
  const rated = h('input', { type: 'checkbox', checked: Boolean(me) && start.rated !== false, disabled: !me, 'data-testid': 'terms-rated' });
  const color = h('select', { 'data-testid': 'terms-color' },
    h('option', { value: 'random' }, 'Random'),
    h('option', { value: 'black' }, 'Black (moves first)'),
    h('option', { value: 'white' }, 'White'));

  /** @returns {TimeControl | string} */
  const clock = () => {
    if (kind.value === 'correspondence') {
      const d = Number(days.value);
      if (!Number.isInteger(d) || d < minDays || d > maxDays) return `The days a move are from ${minDays} to ${maxDays}`;
      return { kind: 'correspondence', days: d };
    }
    if (kind.value === 'bank') {
      const adds = Number(bankAdds.value);
      const bank = Number(bankSize.value);
      if (!Number.isInteger(adds) || adds < minDays || adds > maxDays) return `The days a move adds are from ${minDays} to ${maxDays}`;
      if (!Number.isInteger(bank) || bank < adds || bank > maxDays) return `The bank is from ${adds} (the days a move adds) to ${maxDays} days`;
      return { kind: 'correspondence', days: adds, bank_days: bank };
    }
    const m = Number(minutes.value);
    const i = Number(increment.value);
    if (minutes.value.trim() === '' || !(m >= 0 && m <= maxMinutes)) return `The minutes are from 0 to ${maxMinutes}`;
    if (increment.value.trim() === '' || !Number.isInteger(i) || i < 0 || i > limits.live_increment_s) return `The increment is from 0 to ${limits.live_increment_s} seconds`;
    if (m === 0 && i === 0) return 'A live clock needs some minutes or an increment';
    return { kind: 'live', initial_s: Math.round(m * 60), increment_s: i };
  };
  const sync = () => {
    liveRow.classList.toggle('hidden', kind.value !== 'live');
    daysRow.classList.toggle('hidden', kind.value !== 'correspondence');
    bankRow.classList.toggle('hidden', kind.value !== 'bank');
    const c = clock();
    speed.textContent = typeof c === 'string' ? '' : capitalized(speedOf(c));
  };
  for (const el of [kind, minutes, increment, days, bankSize, bankAdds]) el.addEventListener('input', sync);
  sync();

  const el = h('div', { class: 'terms' },
    h('div', { class: 'row' }, h('label', {}, 'Variant ', variant), h('label', {}, 'Rules ', rules)),
    h('div', { class: 'row' }, h('label', {}, 'Clock ', kind), liveRow, daysRow, bankRow, speed),
    h('div', { class: 'row' },
      h('label', { title: me ? 'Counts for both players\' ratings' : 'Rated games need an account: sign in' }, rated, 'Rated'),
      start.color === false ? null : h('label', {}, 'Your colour ', color)));
  return {
    el,
    read() {
      const c = clock();
      if (typeof c === 'string') return c;
      return {
        variant: variant.value,
        rules: rules.value,
        clock: c,
        rated: rated.checked,
        color: /** @type {ColorChoice} */ (color.value),
      };
    },
  };
}
