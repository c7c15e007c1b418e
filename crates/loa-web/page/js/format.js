// @ts-check
// Text for what the page shows: clocks, scores, a game's name and its players.

/**
 * @typedef {import('./types.js').BlackScore} BlackScore
 * @typedef {import('./types.js').Lineup} Lineup
 * @typedef {import('./types.js').Meta} Meta
 * @typedef {import('./types.js').Player} Player
 * @typedef {import('./types.js').RatingView} RatingView
 * @typedef {import('./types.js').Speed} Speed
 * @typedef {import('./types.js').TimeControl} TimeControl
 * @typedef {import('./types.js').VariantMeta} VariantMeta
 */

/**
 * A clock's time: `4:59`, `1:02:03`, `2d 3h`, and tenths under ten seconds.
 * @param {number} ms
 */
export function formatClock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86400);
  if (days >= 1) return `${days}d ${Math.floor((total % 86400) / 3600)}h`;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, '0')}:${seconds}`;
  if (ms < 10000) return `${minutes}:${seconds}.${Math.floor((Math.max(ms, 0) % 1000) / 100)}`;
  return `${minutes}:${seconds}`;
}

/** @param {BlackScore | null | undefined} score */
export function scoreText(score) {
  if (!score) return '';
  if (score.result) return score.result;
  if (score.mate !== undefined) {
    return score.mate > 0 ? `Black connects in ${score.mate}` : `White connects in ${-score.mate}`;
  }
  const pawns = (score.cp ?? 0) / 100;
  return (pawns > 0 ? '+' : '') + pawns.toFixed(2);
}

/**
 * The score in a few characters, for the evaluation bar: +1.2, -0.4, #3, #-2, 1-0.
 * @param {BlackScore | null | undefined} score
 */
export function shortScore(score) {
  if (!score) return '';
  if (score.result) return score.result;
  if (score.mate !== undefined) return `#${score.mate}`;
  const pawns = (score.cp ?? 0) / 100;
  return (pawns > 0 ? '+' : '') + pawns.toFixed(1);
}

/**
 * Black's share of the evaluation bar, 0 to 1.
 * @param {BlackScore | null | undefined} score
 */
export function blackShare(score) {
  if (!score) return 0.5;
  if (score.result === '1-0') return 1;
  if (score.result === '0-1') return 0;
  if (score.result) return 0.5;
  if (score.mate !== undefined) return score.mate > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-(score.cp ?? 0) / 250));
}

/**
 * What the server says of a variant, if it knows it.
 * @param {Meta} meta
 * @param {string} variant its id
 * @returns {VariantMeta | undefined}
 */
export function variantOf(meta, variant) {
  return meta.variants.find((v) => v.id === variant);
}

/**
 * A game's name: its variant, and its board when it is not 8x8 ("Standard 6×6"). A
 * variant the server does not name is called by its id.
 * @param {Meta} meta
 * @param {string} variant
 * @param {number} [size]
 */
export function gameTitle(meta, variant, size) {
  const name = variantOf(meta, variant)?.title ?? variant;
  return size && size !== 8 ? `${name} ${size}×${size}` : name;
}

/**
 * Who plays a seat (`black`, `white`, `black2`, `white2`).
 * @param {Lineup} players
 * @param {string} slot
 * @returns {Player}
 */
export function playerOf(players, slot) {
  const side = slot.startsWith('black') ? players.black : players.white;
  if (Array.isArray(side)) return side[slot.endsWith('2') ? 1 : 0];
  return side;
}

/** @param {Player} player */
function describePlayer(player) {
  if (player === 'human') return 'Human';
  if (player && player.engine) {
    const e = player.engine;
    return e.level ? `loa level ${e.level}` : `loa ${(e.movetime_ms ?? 0) / 1000} s a move`;
  }
  return '?';
}

/**
 * @param {Lineup} players
 * @param {'black' | 'white'} side
 */
export function sideLabel(players, side) {
  const p = players[side];
  if (Array.isArray(p)) return p.map(describePlayer).join(' + ');
  return describePlayer(p);
}

/** What a person new to AmbiLOA needs told of its pieces. */
export const AMBILOA_KINDS = 'Each side has two kinds of piece: plain (B, W) and ringed (b, w). Turns go B, W, b, w; '
  + 'in the four-player game B and b are partners against W and w.';

/** The speeds a rating is kept for, fastest first. @type {Speed[]} */
export const SPEEDS = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence'];

/**
 * The speed of a clock, as the server rates it: a live game by its initial time plus 40
 * increments (under 3 minutes bullet, under 8 blitz, under 25 rapid, classical beyond).
 * @param {TimeControl} clock
 * @returns {Speed}
 */
export function speedOf(clock) {
  if (clock.kind === 'correspondence') return 'correspondence';
  const estimate = clock.initial_s + 40 * clock.increment_s;
  return estimate < 180 ? 'bullet' : estimate < 480 ? 'blitz' : estimate < 1500 ? 'rapid' : 'classical';
}

/** @param {string} word */
export function capitalized(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * A clock in a few characters: `5+3` (minutes and seconds of increment), `3 days`, or a
 * time bank and what a move adds to it, `10d bank +1d`.
 * @param {TimeControl} clock
 */
export function clockLabel(clock) {
  if (clock.kind === 'correspondence') {
    if (clock.bank_days !== undefined) return `${clock.bank_days}d bank +${clock.days}d`;
    return `${clock.days} ${clock.days === 1 ? 'day' : 'days'}`;
  }
  const minutes = clock.initial_s / 60;
  const shown = Number.isInteger(minutes) ? String(minutes) : { 0.25: '¼', 0.5: '½', 0.75: '¾' }[minutes] ?? minutes.toFixed(1);
  return `${shown}+${clock.increment_s}`;
}

/**
 * Whether two clocks are the same.
 * @param {TimeControl} a
 * @param {TimeControl} b
 */
export function sameClock(a, b) {
  if (a.kind === 'live' && b.kind === 'live') return a.initial_s === b.initial_s && a.increment_s === b.increment_s;
  if (a.kind === 'correspondence' && b.kind === 'correspondence') {
    // Days a move and a bank of as many days differ: a bank keeps what a move leaves.
    return a.days === b.days && (a.bank_days ?? null) === (b.bank_days ?? null);
  }
  return false;
}

/**
 * A rating as shown: `1662`, or `1662?` while it is provisional.
 * @param {{ rating: number, provisional: boolean | null }} r
 */
export function ratingText(r) {
  return `${r.rating}${r.provisional ? '?' : ''}`;
}

/**
 * A rating change with its sign: `+12`, `-12`, `±0`.
 * @param {number} change
 */
export function changeText(change) {
  return change > 0 ? `+${change}` : change < 0 ? `-${-change}` : '±0';
}

/**
 * Whether two account names are the same name (case is ignored).
 * @param {string | null | undefined} a
 * @param {string | null | undefined} b
 */
export function sameName(a, b) {
  return Boolean(a && b && a.toLowerCase() === b.toLowerCase());
}

/**
 * A date, short: `3 Mar 2025`.
 * @param {number} ms
 */
export function shortDate(ms) {
  return new Date(ms).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
}

/**
 * A moment to the minute: `3 Mar, 14:05`, the year added when it is not this one.
 * @param {number} ms
 */
export function dateAndTime(ms) {
  const when = new Date(ms);
  const year = when.getFullYear() === new Date().getFullYear() ? undefined : 'numeric';
  return when.toLocaleString(undefined, { day: 'numeric', month: 'short', year, hour: '2-digit', minute: '2-digit' });
}

/** What an account's name may be: 2 to 20 letters, digits, `_` and `-`. */
const ACCOUNT_NAME = /^[A-Za-z0-9_-]{2,20}$/;

/**
 * The account that plays a side, if one does. A game's names are its accounts' in an
 * online game between accounts, and an imported record's otherwise; the API does not
 * say which, so only an online game's names that can be accounts' are taken for them.
 * @param {{ online: boolean, names: [string | null, string | null] }} g
 * @param {'black' | 'white'} side
 * @returns {string | null}
 */
export function accountOf(g, side) {
  const name = g.names[side === 'black' ? 0 : 1];
  return name && g.online && ACCOUNT_NAME.test(name) ? name : null;
}

/**
 * Who plays a side, in a word or two: the name the game holds (an account's or a
 * record's), "Anonymous" for a person online without an account, else the kind of
 * player ("Human", "loa level 4").
 * @param {{ online: boolean, names: [string | null, string | null], players: Lineup }} g
 * @param {'black' | 'white'} side
 */
export function sideName(g, side) {
  const name = g.names[side === 'black' ? 0 : 1];
  if (name) return name;
  return g.online && g.players[side] === 'human' ? 'Anonymous' : sideLabel(g.players, side);
}

/** The marks players write after a slip. */
export const SLIP_MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };
