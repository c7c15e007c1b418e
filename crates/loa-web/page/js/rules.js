// @ts-check
// How to play (/rules): Lines of Action's rules as the site applies them, with pictures
// of the start and of a piece's moves, then the variants and the site's own customs.

import { app, h, s } from './dom.js';
import { showTurn } from './notify.js';
import { miniBoard } from './playing.js';

/**
 * @typedef {import('./types.js').Meta} Meta
 * @typedef {import('./types.js').PositionView} PositionView
 */

/** The standard start: Black on the first and last ranks, White on the side files. */
const START = {
  black: ['b1', 'c1', 'd1', 'e1', 'f1', 'g1', 'b8', 'c8', 'd8', 'e8', 'f8', 'g8'],
  white: ['a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7'],
};

/** What each variant changes, by its id. */
const VARIANTS = {
  standard: 'The game above, on 8x8, 7x7 or 6x6 (the smaller boards keep the corners empty).',
  'scrambled-eggs': 'The same rules from a start with Black and White alternating along every edge.',
  parachute: 'Six pieces each start on the board and six in reserve: after each move, the opponent\'s reserve piece is dropped on an empty square, until the reserves are empty.',
  ambiloa: 'Each side has two kinds of piece, moved in strict turn (Black\'s first kind, White\'s first, Black\'s second, White\'s second); it may be played by four, two to a side.',
  neighbors: 'A piece moves as many squares as it has neighbours, and may leap over any piece.',
  'fields-of-action': 'Numbered pieces move as many squares as they have neighbours; the first to capture five enemy pieces numbered in a row wins. There is no connection goal.',
};

/**
 * A small board with its coordinates and pieces, a ring around the piece that moves and
 * dots on the squares it reaches.
 * @param {{ black: string[], white: string[] }} pieces
 * @param {string[]} dots
 * @param {string} label what the picture shows, for a screen reader
 * @param {string} [ring] the piece that moves
 */
function diagram(pieces, dots, label, ring) {
  /** @type {PositionView} */
  const view = /** @type {PositionView} */ ({
    size: 8,
    pieces: [...pieces.black.map((square) => ({ square, color: 'black' })), ...pieces.white.map((square) => ({ square, color: 'white' }))],
  });
  const board = miniBoard(view);
  /**
   * @param {string} square
   * @param {number} r
   * @param {string} kind
   */
  const circle = (square, r, kind) => s('circle', {
    cx: (square.charCodeAt(0) - 97) * 10 + 5, cy: (8 - Number(square.slice(1))) * 10 + 5, r, class: kind,
  });
  for (const square of dots) board.append(circle(square, 1.8, 'rules-dot'));
  if (ring) board.append(circle(ring, 4.6, 'rules-ring'));
  for (let i = 0; i < 8; i++) {
    board.append(s('text', { x: 0.5, y: (7 - i) * 10 + 3, class: 'coord' }, String(i + 1)));
    board.append(s('text', { x: i * 10 + 7.6, y: 79.4, class: 'coord' }, String.fromCharCode(97 + i)));
  }
  board.removeAttribute('aria-hidden');
  board.setAttribute('role', 'img');
  board.setAttribute('aria-label', label);
  return h('figure', { class: 'rules-figure' }, board, h('figcaption', { class: 'muted small' }, label));
}

export class RulesPage {
  /** @param {Meta} meta */
  constructor(meta) {
    this.meta = meta;
  }

  start() {
    showTurn({}, 'How to play');
    app.replaceChildren(h('article', { class: 'rules', 'data-testid': 'rules' },
      h('h1', {}, 'How to play Lines of Action'),
      h('p', { class: 'lead' }, 'Two players, Black and White, each try to bring all of their pieces together into one connected group. Black moves first; then the players take turns.'),
      h('div', { class: 'rules-figures' },
        diagram(START, [], 'The start: Black\'s twelve pieces on the top and bottom edges, White\'s on the left and right.'),
        diagram(START, ['b3', 'd3', 'h1'], 'From the start, Black\'s b1 can go to b3, d3 or h1.', 'b1')),
      h('h2', {}, 'Moving'),
      h('ul', {},
        h('li', {}, 'A piece moves in a straight line: along its rank, its file or a diagonal.'),
        h('li', {}, h('strong', {}, 'It moves exactly as many squares as there are pieces on that whole line'), ', of both colours, counting itself and those behind it. On b1 at the start, the b-file holds two pieces (b1, b8): b1 goes two squares, to b3. The diagonal b1-h7 holds two: b1 goes to d3. The first rank holds six: b1 goes six squares, to h1.'),
        h('li', {}, 'It may jump over its own pieces, never over the opponent\'s.'),
        h('li', {}, 'It may land on an opponent\'s piece, which is captured and leaves the board; never on its own.'),
        h('li', {}, 'A player who has no legal move passes.')),
      h('h2', {}, 'Winning'),
      h('ul', {},
        h('li', {}, 'Pieces are connected when they touch, by a side or a corner. A player whose pieces are all in one group wins: a single piece left is a group too, so capturing is not always wise.'),
        h('li', {}, 'After every move both players are looked at. A capture that leaves the opponent\'s pieces in one group wins for the opponent.'),
        h('li', {}, 'If a move connects both players at once, the rule set chosen for the game decides: a draw (the tournament rule, used unless a game says otherwise) or a win for the player who moved.'),
        h('li', {}, 'The same position coming up for the third time, with the same player to move, is a draw. Players may also agree to a draw.')),
      h('h2', {}, 'Variants'),
      h('dl', { class: 'rules-variants' }, this.meta.variants.flatMap((v) => [
        h('dt', {}, v.title),
        h('dd', {}, /** @type {Record<string, string>} */ (VARIANTS)[v.id] ?? ''),
      ])),
      h('h2', {}, 'On this site'),
      h('ul', {},
        h('li', {}, 'Click a piece, then one of the squares it can reach; or type the move, such as ', h('code', {}, 'b1-b3'), ' (a capture ', h('code', {}, 'd1xa4'), ').'),
        h('li', {}, 'On a live clock, a game between two people is called off if a player does not make a first move within a minute. Until each side has moved, either may abort the game: it counts for nobody.'),
        h('li', {}, 'A tournament scores every game it pairs: nothing is called off there. A player who does not make a first move within a minute of the pairing (or of the opponent\'s first move) loses by forfeit, without a change of rating; two forfeits withdraw a player from a Swiss.'),
        h('li', {}, 'A player whose clock runs out loses. Ratings are Glicko-2, one for each variant and speed; a rating marked ? is still provisional.')),
      h('p', {}, h('a', { href: '/', class: 'button primary' }, 'Play a game'), ' ', h('a', { href: '/puzzles', class: 'button' }, 'Try a puzzle'))));
  }

  dispose() {}
}
