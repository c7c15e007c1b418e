// @ts-check
// The board: an SVG drawing of a position the server described, its pieces moved by
// click, drag or keyboard among the legal moves the server listed.

import { h, s } from './dom.js';

/**
 * @typedef {import('./types.js').MoveView} MoveView
 * @typedef {import('./types.js').PieceView} PieceView
 * @typedef {import('./types.js').PositionView} PositionView
 */

export class Board {
  /** @param {(text: string) => void} onMove called with the move's text */
  constructor(onMove) {
    this.onMove = onMove;
    /** Called after the board is turned round. @type {(() => void) | null} */
    this.onFlip = null;
    this.flipped = false;
    /** @type {PositionView | null} */
    this.view = null;
    /** The square of the piece picked up. @type {string | null} */
    this.selected = null;
    /** The moves of a step made, told apart by their placement. @type {MoveView[] | null} */
    this.dropChoices = null;
    /** Where the piece picked up steps while its placement is chosen. @type {string | null} */
    this.pendingTo = null;
    /** @type {MoveView | null} */
    this.lastMove = null;
    /** The engine's best move. @type {MoveView | null} */
    this.arrow = null;
    this.interactive = false;
    this.el = s('svg', { class: 'board', role: 'img', 'aria-label': 'board', 'data-testid': 'board' });
    // What the board waits for, when it is more than a click on a piece.
    this.hintEl = h('div', { class: 'hint hidden', 'data-testid': 'hint', 'aria-live': 'polite' });
    /** @type {string | null} */
    this.dragFrom = null;
    /** @type {{ x: number, y: number } | null} */
    this.dragPoint = null;
    /** The square under the keyboard's cursor. @type {string | null} */
    this.cursor = null;
    this.el.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.el.addEventListener('pointermove', (e) => this.pointerMove(e));
    this.el.addEventListener('pointerup', (e) => this.pointerUp(e));
    // The keyboard: Tab to the board, the arrows move a cursor, Enter or Space presses
    // the square under it, Escape lets go.
    this.el.setAttribute('tabindex', '0');
    this.el.addEventListener('keydown', (e) => this.keyDown(e));
    this.el.addEventListener('blur', () => { this.cursor = null; this.draw(); });
  }

  /** @param {KeyboardEvent} event */
  keyDown(event) {
    if (!this.view) return;
    const n = this.view.size;
    const dir = this.flipped ? -1 : 1;
    /** @type {Record<string, [number, number]>} */
    const steps = { ArrowLeft: [-dir, 0], ArrowRight: [dir, 0], ArrowUp: [0, dir], ArrowDown: [0, -dir] };
    if (event.key in steps) {
      event.preventDefault();
      event.stopPropagation();
      const [df, dr] = steps[event.key];
      const [file, rank] = this.cursor
        ? [this.cursor.charCodeAt(0) - 97, Number(this.cursor.slice(1)) - 1]
        : [this.flipped ? n - 1 : 0, this.flipped ? n - 1 : 0];
      const clamp = (/** @type {number} */ v) => Math.max(0, Math.min(n - 1, v));
      this.cursor = this.cursor ? String.fromCharCode(97 + clamp(file + df)) + (clamp(rank + dr) + 1) : String.fromCharCode(97 + file) + (rank + 1);
      this.draw();
    } else if ((event.key === 'Enter' || event.key === ' ') && this.cursor) {
      event.preventDefault();
      event.stopPropagation();
      if (this.interactive) this.press(this.cursor);
    } else if (event.key === 'Escape') {
      this.selected = null;
      this.dropChoices = null;
      this.draw();
    }
  }

  /**
   * The board's coordinates (10 a square) under a pointer event.
   * @param {PointerEvent} event
   * @param {number} n the board's size
   */
  pointAt(event, n) {
    const rect = this.el.getBoundingClientRect();
    return { x: ((event.clientX - rect.left) / rect.width) * n * 10, y: ((event.clientY - rect.top) / rect.height) * n * 10 };
  }

  /** @param {PointerEvent} event */
  pointerMove(event) {
    if (!this.dragFrom || !this.view) return;
    // The piece follows the pointer while it is dragged.
    this.dragPoint = this.pointAt(event, this.view.size);
    this.draw();
  }

  /** @param {PointerEvent} event */
  squareAt(event) {
    if (!this.view) return null;
    const n = this.view.size;
    const rect = this.el.getBoundingClientRect();
    const x = Math.floor(((event.clientX - rect.left) / rect.width) * n);
    const y = Math.floor(((event.clientY - rect.top) / rect.height) * n);
    if (x < 0 || y < 0 || x >= n || y >= n) return null;
    const file = this.flipped ? n - 1 - x : x;
    const rank = this.flipped ? y : n - 1 - y;
    return String.fromCharCode(97 + file) + (rank + 1);
  }

  /** @param {PointerEvent} event */
  pointerDown(event) {
    const square = this.squareAt(event);
    if (!square || !this.interactive) return;
    event.preventDefault();
    this.press(square);
    if (this.selected === square) {
      this.dragFrom = square;
      try { this.el.setPointerCapture(event.pointerId); } catch { /* a synthetic event */ }
    }
  }

  /**
   * A click (or Enter) on a square: select a piece, play to a target, choose a placement.
   * @param {string} square
   */
  press(square) {
    this.dragFrom = null;
    this.dragPoint = null;
    if (this.dropChoices) {
      this.clickDrop(square);
      return;
    }
    if (this.selected && this.targets().has(square)) {
      this.clickTarget(square);
      return;
    }
    this.selected = this.movesFrom(square).length > 0 ? square : null;
    this.draw();
  }

  /** @param {PointerEvent} event */
  pointerUp(event) {
    const square = this.squareAt(event);
    const from = this.dragFrom;
    this.dragFrom = null;
    if (this.dragPoint) {
      this.dragPoint = null;
      this.draw();
    }
    if (!from || !square || square === from) return;
    // A piece dragged onto a square: the same as clicking it there.
    if (this.targets().has(square)) this.clickTarget(square);
  }

  /** @param {string | null} square */
  movesFrom(square) {
    return this.view ? this.view.moves.filter((m) => m.from === square) : [];
  }

  targets() {
    return new Set(this.movesFrom(this.selected).map((m) => m.to));
  }

  // The placements of a turn with no step (Parachute: a pass and a placement).
  passDrops() {
    return this.view ? this.view.moves.filter((m) => !m.from && m.drop) : [];
  }

  /** @param {string} square */
  clickTarget(square) {
    const choices = this.movesFrom(this.selected).filter((m) => m.to === square);
    if (choices.length === 1 && !choices[0].drop) {
      this.play(choices[0].text);
    } else if (choices.length > 0) {
      this.dropChoices = choices;
      this.pendingTo = square;
      this.draw();
    }
  }

  /** @param {string} square */
  clickDrop(square) {
    const choice = this.dropChoices?.find((m) => m.drop === square);
    if (choice) {
      this.play(choice.text);
    } else {
      this.dropChoices = null;
      this.selected = null;
      this.draw();
    }
  }

  /** @param {string} text */
  play(text) {
    this.selected = null;
    this.dropChoices = null;
    this.onMove(text);
  }

  /**
   * Shows a position.
   * @param {PositionView} view
   * @param {{ lastMove?: MoveView | null, arrow?: MoveView | null, interactive?: boolean }} [options]
   */
  set(view, options = {}) {
    const samePosition = this.view && this.view.position === view.position;
    this.view = view;
    this.lastMove = options.lastMove || null;
    this.arrow = options.arrow || null;
    this.interactive = Boolean(options.interactive) && view.moves.length > 0;
    if (!samePosition || !this.interactive) {
      this.selected = null;
      this.dropChoices = null;
    }
    if (this.interactive && !this.dropChoices && this.passDrops().length > 0
      && view.moves.every((m) => !m.from)) {
      this.dropChoices = this.passDrops();
    }
    this.draw();
  }

  flip() {
    this.flipped = !this.flipped;
    this.draw();
    if (this.onFlip) this.onFlip();
  }

  /**
   * A square's column and row on the drawing.
   * @param {string} square
   * @param {number} n the board's size
   * @returns {[number, number]}
   */
  xy(square, n) {
    const file = square.charCodeAt(0) - 97;
    const rank = Number(square.slice(1)) - 1;
    const x = this.flipped ? n - 1 - file : file;
    const y = this.flipped ? rank : n - 1 - rank;
    return [x, y];
  }

  draw() {
    const el = this.el;
    el.replaceChildren();
    const view = this.view;
    if (!view) return;
    const n = view.size;
    const xy = (/** @type {string} */ square) => this.xy(square, n);
    el.setAttribute('viewBox', `0 0 ${n * 10} ${n * 10}`);
    el.append(s('defs', {}, s('marker', {
      id: 'arrowhead', markerWidth: 4, markerHeight: 4, refX: 2.2, refY: 2, orient: 'auto',
    }, s('path', { d: 'M0,0 L4,2 L0,4 z', fill: 'rgba(42,122,176,.9)' }))));
    /** @type {Map<string, string>} */
    const marks = new Map();
    if (this.lastMove) {
      const { from, to, drop } = this.lastMove;
      for (const sq of [from, to, drop]) if (sq) marks.set(sq, 'last');
    }
    if (this.selected) marks.set(this.selected, 'selected');
    const targets = this.selected && !this.dropChoices ? this.targets() : new Set();
    const drops = new Set((this.dropChoices || []).flatMap((m) => (m.drop ? [m.drop] : [])));
    if (this.dropChoices && this.pendingTo) marks.set(this.pendingTo, 'selected');
    // The coordinates, drawn over the pieces below.
    /** @type {SVGElement[]} */
    const coords = [];
    for (let rank = 0; rank < n; rank++) {
      for (let file = 0; file < n; file++) {
        const square = String.fromCharCode(97 + file) + (rank + 1);
        const [x, y] = xy(square);
        const light = (file + rank) % 2 === 1;
        el.append(s('rect', {
          x: x * 10, y: y * 10, width: 10, height: 10,
          class: light ? 'sq-light' : 'sq-dark', 'data-square': square,
        }));
        const mark = marks.get(square);
        if (mark) el.append(s('rect', { x: x * 10, y: y * 10, width: 10, height: 10, class: mark }));
        if (x === 0) coords.push(s('text', { x: 0.4, y: y * 10 + 3, class: 'coord' }, String(rank + 1)));
        if (y === n - 1) coords.push(s('text', { x: x * 10 + 7.6, y: n * 10 - 0.6, class: 'coord' }, String.fromCharCode(97 + file)));
      }
    }
    let pieces = view.pieces;
    if (this.dropChoices && this.pendingTo && this.selected) {
      // The step is made on the board while its placement is chosen.
      const moving = pieces.find((p) => p.square === this.selected);
      pieces = pieces.filter((p) => p.square !== this.selected && p.square !== this.pendingTo);
      if (moving) pieces.push({ ...moving, square: this.pendingTo });
    }
    const occupied = new Set(pieces.map((p) => p.square));
    // A dragged piece is drawn last, over the others.
    if (this.dragPoint) pieces = [...pieces].sort((a, b) => Number(a.square === this.dragFrom) - Number(b.square === this.dragFrom));
    for (const piece of pieces) {
      const [x, y] = xy(piece.square);
      const dragged = piece.square === this.dragFrom ? this.dragPoint : null;
      const cx = dragged ? dragged.x : x * 10 + 5;
      const cy = dragged ? dragged.y : y * 10 + 5;
      const g = s('g', { 'data-piece': piece.square, 'data-color': piece.color });
      g.append(s('circle', { cx, cy, r: 3.9, class: `piece-${piece.color}` }));
      if (view.variant === 'ambiloa') {
        // The second kind (b, w) carries a ring.
        if (piece.seat === 1) {
          g.append(s('circle', {
            cx, cy, r: 2.2, class: 'kind', stroke: piece.color === 'black' ? '#ddd' : '#333',
          }));
        }
      }
      if (piece.number !== undefined) {
        g.append(s('text', {
          x: cx, y: cy + 0.2, class: 'number', fill: piece.color === 'black' ? '#fff' : '#111',
        }, String(piece.number)));
      }
      el.append(g);
    }
    // Over the pieces, each with a pale halo: readable on a dark piece too.
    el.append(...coords);
    for (const square of targets) {
      const [x, y] = xy(square);
      // A capture rings the piece taken; a step to an empty square is a dot.
      el.append(occupied.has(square)
        ? s('circle', { cx: x * 10 + 5, cy: y * 10 + 5, r: 4.5, class: 'capture-target', 'data-target': square })
        : s('circle', { cx: x * 10 + 5, cy: y * 10 + 5, r: 1.6, class: 'target', 'data-target': square }));
    }
    for (const square of drops) {
      const [x, y] = xy(square);
      el.append(s('rect', { x: x * 10 + 1.5, y: y * 10 + 1.5, width: 7, height: 7, rx: 1.5, class: 'drop-target', 'data-drop': square }));
    }
    if (this.cursor) {
      const [x, y] = xy(this.cursor);
      el.append(s('rect', { x: x * 10 + 0.4, y: y * 10 + 0.4, width: 9.2, height: 9.2, class: 'cursor', 'data-cursor': this.cursor }));
    }
    const underCursor = view.pieces.find((p) => p.square === this.cursor);
    this.el.setAttribute('aria-label', this.cursor ? `board, ${this.cursor}${underCursor ? ` (${underCursor.color})` : ''}` : 'board');
    this.hintEl.textContent = this.dropChoices
      ? `Now place a piece from your reserve: click a marked square${this.pendingTo ? ' (elsewhere to choose another step)' : ''}`
      : '';
    this.hintEl.classList.toggle('hidden', !this.dropChoices);
    if (this.arrow) {
      const { from, to } = this.arrow;
      if (from && to) {
        const [x1, y1] = xy(from);
        const [x2, y2] = xy(to);
        el.append(s('line', {
          x1: x1 * 10 + 5, y1: y1 * 10 + 5, x2: x2 * 10 + 5, y2: y2 * 10 + 5, class: 'arrow',
        }));
      }
    }
  }
}

