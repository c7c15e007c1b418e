// @ts-check
// Text for what the page shows: clocks, scores, a game's name and its players.

/**
 * @typedef {import('./types.js').BlackScore} BlackScore
 * @typedef {import('./types.js').Lineup} Lineup
 * @typedef {import('./types.js').Meta} Meta
 * @typedef {import('./types.js').Player} Player
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

/** @param {string} word */
export function capitalized(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
