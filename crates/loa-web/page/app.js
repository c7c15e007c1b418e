// The page of `loa serve`: a new game, a game being played or replayed, the analysis
// board and the saved games. It reads and changes games only through the JSON API
// (docs/web.md) and hears a game's changes on its WebSocket.

import { heldGames, keepLinks, keepTokens, linksOf, tokensOf } from './js/seats.js';
import { addChild, depthOf, lineThrough, onMainLine, promote, remove, treeOf } from './js/tree.js';
import { askToNotify, canAskToNotify, setSound, showTurn, soundOn, yourMoveNow } from './js/notify.js';

const VARIANTS = [
  ['standard', 'Standard'],
  ['scrambled-eggs', 'Scrambled Eggs'],
  ['parachute', 'Parachute'],
  ['ambiloa', 'AmbiLOA'],
  ['neighbors', 'Neighbors'],
  ['fields-of-action', 'Fields of Action'],
];
const STANDARD_RULES = ['standard', 'scrambled-eggs'];
const AMBILOA_KINDS = 'Each side has two kinds of piece: plain (B, W) and ringed (b, w). Turns go B, W, b, w; '
  + 'in the four-player game B and b are partners against W and w.';
const SVG = 'http://www.w3.org/2000/svg';
const app = document.getElementById('app');

// ---------------------------------------------------------------- small helpers

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else el.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) el.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// A banner while the server cannot be reached; the game's socket keeps trying, and
// "Retry now" opens the page again.
const offlineBanner = h('div', { class: 'banner hidden', role: 'alert', 'data-testid': 'offline' },
  'The server cannot be reached; trying again… ',
  h('button', { onclick: () => route() }, 'Retry now'));
document.body.prepend(offlineBanner);

function setReachable(reachable) {
  offlineBanner.classList.toggle('hidden', reachable);
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers['content-type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    setReachable(false);
    throw new Error('the server cannot be reached; nothing was sent');
  }
  setReachable(true);
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  if (!response.ok) {
    throw new Error((data && data.error) || `${response.status} ${response.statusText}`);
  }
  return data;
}

function socketUrl(path) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${path}`;
}

function formatClock(ms) {
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

function scoreText(score) {
  if (!score) return '';
  if (score.result) return score.result;
  if (score.mate !== undefined) {
    return score.mate > 0 ? `Black connects in ${score.mate}` : `White connects in ${-score.mate}`;
  }
  const pawns = score.cp / 100;
  return (pawns > 0 ? '+' : '') + pawns.toFixed(2);
}

// The score in a few characters, for the evaluation bar: +1.2, -0.4, #3, #-2, 1-0.
function shortScore(score) {
  if (!score) return '';
  if (score.result) return score.result;
  if (score.mate !== undefined) return `#${score.mate}`;
  const pawns = score.cp / 100;
  return (pawns > 0 ? '+' : '') + pawns.toFixed(1);
}

// Black's share of the evaluation bar, 0 to 1.
function blackShare(score) {
  if (!score) return 0.5;
  if (score.result === '1-0') return 1;
  if (score.result === '0-1') return 0;
  if (score.result) return 0.5;
  if (score.mate !== undefined) return score.mate > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-score.cp / 250));
}

function moveSquares(text) {
  const m = /^([a-h][1-8])[-x]([a-h][1-8])/.exec(text || '');
  const drop = /@([a-h][1-8])$/.exec(text || '');
  return { from: m && m[1], to: m && m[2], drop: drop && drop[1] };
}

// The first field out of its range: [applies, input, min, max, message].
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

// The API's messages name its fields; the form names what the person filled in.
function formWords(message) {
  const words = [
    [/\binitial_s\b/g, 'the minutes (in seconds)'], [/\bincrement_s\b/g, 'the increment'],
    [/\bmovetime_ms\b/g, 'the time a move'], [/\bdays\b/g, 'the days a move'],
    [/^position\b/, 'The start position'], [/\bposition:/g, 'start position:'],
  ];
  return words.reduce((text, [pattern, word]) => text.replace(pattern, word), message);
}

// A game's name: its variant, and its board when it is not 8x8 ("Standard 6×6").
function gameTitle(variant, size) {
  const name = (VARIANTS.find((v) => v[0] === variant) || [0, variant])[1];
  return size && size !== 8 ? `${name} ${size}×${size}` : name;
}

function playerOf(players, slot) {
  const side = slot.startsWith('black') ? players.black : players.white;
  if (Array.isArray(side)) return side[slot.endsWith('2') ? 1 : 0];
  return side;
}

function describePlayer(player) {
  if (player === 'human') return 'Human';
  if (player && player.engine) {
    const e = player.engine;
    return e.level ? `loa level ${e.level}` : `loa ${e.movetime_ms / 1000} s a move`;
  }
  return '?';
}

function sideLabel(players, side) {
  const p = players[side];
  if (Array.isArray(p)) return p.map(describePlayer).join(' + ');
  return describePlayer(p);
}

const positionCache = new Map();

async function describe(variant, rules, position) {
  const key = `${variant}|${rules}|${position}`;
  if (!positionCache.has(key)) {
    positionCache.set(key, api('POST', '/api/position', { variant, rules, position }));
  }
  try {
    return await positionCache.get(key);
  } catch (err) {
    positionCache.delete(key);
    throw err;
  }
}

// ---------------------------------------------------------------- the board

class Board {
  constructor(onMove) {
    this.onMove = onMove;
    this.flipped = false;
    this.view = null;
    this.selected = null;
    this.dropChoices = null;
    this.interactive = false;
    this.el = s('svg', { class: 'board', role: 'img', 'aria-label': 'board', 'data-testid': 'board' });
    // What the board waits for, when it is more than a click on a piece.
    this.hintEl = h('div', { class: 'hint hidden', 'data-testid': 'hint', 'aria-live': 'polite' });
    this.dragFrom = null;
    this.dragPoint = null;
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

  keyDown(event) {
    if (!this.view) return;
    const n = this.view.size;
    const dir = this.flipped ? -1 : 1;
    const steps = { ArrowLeft: [-dir, 0], ArrowRight: [dir, 0], ArrowUp: [0, dir], ArrowDown: [0, -dir] };
    if (event.key in steps) {
      event.preventDefault();
      event.stopPropagation();
      const [df, dr] = steps[event.key];
      const [file, rank] = this.cursor
        ? [this.cursor.charCodeAt(0) - 97, Number(this.cursor.slice(1)) - 1]
        : [this.flipped ? n - 1 : 0, this.flipped ? n - 1 : 0];
      const clamp = (v) => Math.max(0, Math.min(n - 1, v));
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

  // The board's coordinates (10 a square) under a pointer event.
  pointAt(event) {
    const rect = this.el.getBoundingClientRect();
    const n = this.view.size;
    return { x: ((event.clientX - rect.left) / rect.width) * n * 10, y: ((event.clientY - rect.top) / rect.height) * n * 10 };
  }

  pointerMove(event) {
    if (!this.dragFrom) return;
    // The piece follows the pointer while it is dragged.
    this.dragPoint = this.pointAt(event);
    this.draw();
  }

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

  pointerDown(event) {
    const square = this.squareAt(event);
    if (!square || !this.interactive) return;
    event.preventDefault();
    this.press(square);
    if (this.selected === square && this.el.setPointerCapture) {
      this.dragFrom = square;
      try { this.el.setPointerCapture(event.pointerId); } catch { /* a synthetic event */ }
    }
  }

  // A click (or Enter) on a square: select a piece, play to a target, choose a placement.
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

  clickDrop(square) {
    const choice = this.dropChoices.find((m) => m.drop === square);
    if (choice) {
      this.play(choice.text);
    } else {
      this.dropChoices = null;
      this.selected = null;
      this.draw();
    }
  }

  play(text) {
    this.selected = null;
    this.dropChoices = null;
    this.onMove(text);
  }

  set(view, options = {}) {
    const samePosition = this.view && view && this.view.position === view.position;
    this.view = view;
    this.lastMove = options.lastMove || null;
    this.arrow = options.arrow || null;
    this.interactive = Boolean(options.interactive) && view && view.moves.length > 0;
    if (!samePosition || !this.interactive) {
      this.selected = null;
      this.dropChoices = null;
    }
    if (this.interactive && !this.dropChoices && this.passDrops().length > 0
      && this.view.moves.every((m) => !m.from)) {
      this.dropChoices = this.passDrops();
    }
    this.draw();
  }

  flip() {
    this.flipped = !this.flipped;
    this.draw();
    if (this.onFlip) this.onFlip();
  }

  xy(square) {
    const n = this.view.size;
    const file = square.charCodeAt(0) - 97;
    const rank = Number(square.slice(1)) - 1;
    const x = this.flipped ? n - 1 - file : file;
    const y = this.flipped ? rank : n - 1 - rank;
    return [x, y];
  }

  draw() {
    const el = this.el;
    el.replaceChildren();
    if (!this.view) return;
    const n = this.view.size;
    el.setAttribute('viewBox', `0 0 ${n * 10} ${n * 10}`);
    el.append(s('defs', {}, s('marker', {
      id: 'arrowhead', markerWidth: 4, markerHeight: 4, refX: 2.2, refY: 2, orient: 'auto',
    }, s('path', { d: 'M0,0 L4,2 L0,4 z', fill: 'rgba(42,122,176,.9)' }))));
    const marks = new Map();
    if (this.lastMove) {
      const { from, to, drop } = moveSquares(this.lastMove);
      for (const sq of [from, to, drop]) if (sq) marks.set(sq, 'last');
    }
    if (this.selected) marks.set(this.selected, 'selected');
    const targets = this.selected && !this.dropChoices ? this.targets() : new Set();
    const drops = new Set((this.dropChoices || []).map((m) => m.drop));
    if (this.dropChoices && this.pendingTo) marks.set(this.pendingTo, 'selected');
    for (let rank = 0; rank < n; rank++) {
      for (let file = 0; file < n; file++) {
        const square = String.fromCharCode(97 + file) + (rank + 1);
        const [x, y] = this.xy(square);
        const light = (file + rank) % 2 === 1;
        el.append(s('rect', {
          x: x * 10, y: y * 10, width: 10, height: 10,
          class: light ? 'sq-light' : 'sq-dark', 'data-square': square,
        }));
        const mark = marks.get(square);
        if (mark) el.append(s('rect', { x: x * 10, y: y * 10, width: 10, height: 10, class: mark }));
        if (x === 0) {
          el.append(s('text', { x: 0.4, y: y * 10 + 3, class: 'coord' }, String(rank + 1)));
        }
        if (y === n - 1) {
          el.append(s('text', { x: x * 10 + 7.6, y: n * 10 - 0.6, class: 'coord' }, String.fromCharCode(97 + file)));
        }
      }
    }
    let pieces = this.view.pieces;
    if (this.dropChoices && this.pendingTo && this.selected) {
      // The step is made on the board while its placement is chosen.
      const moving = pieces.find((p) => p.square === this.selected);
      pieces = pieces.filter((p) => p.square !== this.selected && p.square !== this.pendingTo);
      if (moving) pieces.push({ ...moving, square: this.pendingTo });
    }
    const occupied = new Set(pieces.map((p) => p.square));
    // A dragged piece is drawn last, over the others.
    if (this.dragPoint) pieces = [...pieces].sort((a, b) => (a.square === this.dragFrom) - (b.square === this.dragFrom));
    for (const piece of pieces) {
      const [x, y] = this.xy(piece.square);
      const dragged = this.dragPoint && piece.square === this.dragFrom;
      const cx = dragged ? this.dragPoint.x : x * 10 + 5;
      const cy = dragged ? this.dragPoint.y : y * 10 + 5;
      const g = s('g', { 'data-piece': piece.square, 'data-color': piece.color });
      g.append(s('circle', { cx, cy, r: 3.9, class: `piece-${piece.color}` }));
      if (this.view.variant === 'ambiloa') {
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
    for (const square of targets) {
      const [x, y] = this.xy(square);
      // A capture rings the piece taken; a step to an empty square is a dot.
      el.append(occupied.has(square)
        ? s('circle', { cx: x * 10 + 5, cy: y * 10 + 5, r: 4.5, class: 'capture-target', 'data-target': square })
        : s('circle', { cx: x * 10 + 5, cy: y * 10 + 5, r: 1.6, class: 'target', 'data-target': square }));
    }
    for (const square of drops) {
      const [x, y] = this.xy(square);
      el.append(s('rect', { x: x * 10 + 1.5, y: y * 10 + 1.5, width: 7, height: 7, rx: 1.5, class: 'drop-target', 'data-drop': square }));
    }
    if (this.cursor) {
      const [x, y] = this.xy(this.cursor);
      el.append(s('rect', { x: x * 10 + 0.4, y: y * 10 + 0.4, width: 9.2, height: 9.2, class: 'cursor', 'data-cursor': this.cursor }));
    }
    this.el.setAttribute('aria-label', this.cursor ? `board, ${this.cursor}${this.view.pieces.some((p) => p.square === this.cursor) ? ` (${this.view.pieces.find((p) => p.square === this.cursor).color})` : ''}` : 'board');
    this.hintEl.textContent = this.dropChoices
      ? `Now place a piece from your reserve: click a marked square${this.pendingTo ? ' (elsewhere to choose another step)' : ''}`
      : '';
    this.hintEl.classList.toggle('hidden', !this.dropChoices);
    if (this.arrow) {
      const { from, to } = moveSquares(this.arrow);
      if (from && to) {
        const [x1, y1] = this.xy(from);
        const [x2, y2] = this.xy(to);
        el.append(s('line', {
          x1: x1 * 10 + 5, y1: y1 * 10 + 5, x2: x2 * 10 + 5, y2: y2 * 10 + 5, class: 'arrow',
        }));
      }
    }
  }
}

// ---------------------------------------------------------------- analysis

// The analysis socket: one search at a time, replaced by each new request.
class Analysis {
  constructor(onInfo) {
    this.onInfo = onInfo;
    this.socket = null;
    this.queued = null;
    this.key = null;
  }

  request(body) {
    const key = JSON.stringify(body);
    if (key === this.key) return;
    this.key = key;
    this.send(body);
  }

  send(body) {
    if (!this.socket || this.socket.readyState > 1) {
      this.socket = new WebSocket(socketUrl('/api/analysis'));
      this.socket.onmessage = (e) => this.onInfo(JSON.parse(e.data));
      this.socket.onclose = () => { this.socket = null; this.key = null; };
    }
    if (this.socket.readyState === 0) {
      this.queued = body;
      this.socket.onopen = () => { if (this.queued) this.socket.send(JSON.stringify(this.queued)); this.queued = null; };
    } else {
      this.socket.send(JSON.stringify(body));
    }
  }

  stop() {
    this.key = null;
    if (this.socket) {
      this.socket.close();
      this.socket = null;
    }
  }
}

// ---------------------------------------------------------------- a game or a line

// What the game page and the analysis board share: the board, the move list, stepping
// through it, the evaluation bar, the best line and the graph.
class GameScreen {
  constructor() {
    this.board = new Board((text) => this.tryMove(text));
    this.viewPly = 0;
    this.line = null; // { variant, rules, start, moves, positions }
    this.analysisOn = false;
    this.lastInfo = null;
    this.graph = null;
    this.analysis = new Analysis((msg) => this.onAnalysis(msg));
    // Black's share of the bar sits on Black's side of the board, and the score is
    // written on it with its sign (+ good for Black).
    this.evalFill = h('div', { class: 'black', style: 'height:50%' });
    this.evalLabel = h('span', { class: 'evallabel', 'data-testid': 'eval-label' }, '');
    this.evalBar = h('div', { class: 'evalbar hidden', title: 'evaluation: + is good for Black', 'data-testid': 'evalbar' }, this.evalFill, this.evalLabel);
    this.board.onFlip = () => this.orientEvalBar();
    this.movesEl = h('div', { class: 'moves', 'data-testid': 'moves', 'aria-label': 'moves' });
    this.analysisEl = h('div', { class: 'analysis hidden', 'data-testid': 'analysis', 'aria-live': 'polite' });
    this.graphEl = s('svg', { class: 'graph hidden', viewBox: '0 0 200 60', preserveAspectRatio: 'none', 'data-testid': 'graph' });
    this.graphEl.addEventListener('click', (e) => this.clickGraph(e));
    this.status = h('div', { class: 'status', 'data-testid': 'status', 'aria-live': 'polite' });
    this.moveInput = h('input', {
      'aria-label': 'type a move', placeholder: 'move, e.g. b1-d3', size: 14, 'data-testid': 'move-input',
      onkeydown: (e) => {
        if (e.key === 'Enter' && this.moveInput.value.trim()) {
          this.tryMove(this.moveInput.value.trim());
          this.moveInput.value = '';
        }
        e.stopPropagation();
      },
    });
    this.keyHandler = (e) => this.onKey(e);
    document.addEventListener('keydown', this.keyHandler);
  }

  dispose() {
    document.removeEventListener('keydown', this.keyHandler);
    this.analysis.stop();
  }

  onKey(e) {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement
      || e.target instanceof HTMLSelectElement) return;
    if (!this.line) return;
    const last = this.line.moves.length;
    const steps = { ArrowLeft: this.viewPly - 1, ArrowRight: this.viewPly + 1, Home: 0, End: last, ArrowUp: 0, ArrowDown: last };
    if (e.key in steps) {
      e.preventDefault();
      this.goTo(Math.max(0, Math.min(last, steps[e.key])));
    } else if (e.key === 'f') {
      this.board.flip();
    }
  }

  async goTo(ply) {
    this.viewPly = ply;
    await this.refresh();
  }

  atEnd() {
    return this.line && this.viewPly === this.line.moves.length;
  }

  async viewAt(ply) {
    const l = this.line;
    if (ply === l.moves.length && l.current) return l.current;
    return describe(l.variant, l.rules, l.positions[ply]);
  }

  async refresh() {
    const l = this.line;
    if (!l) return;
    const ply = this.viewPly;
    let view;
    try {
      view = await this.viewAt(ply);
    } catch (err) {
      this.status.textContent = err.message;
      return;
    }
    if (ply !== this.viewPly || l !== this.line) return;
    this.shown = view;
    this.board.set(view, {
      lastMove: ply > 0 ? l.moves[ply - 1] : null,
      interactive: this.canMove(),
      arrow: this.analysisOn && this.lastInfo && this.lastInfo.position === view.position && this.lastInfo.best
        ? this.lastInfo.best.text : null,
    });
    this.drawMoves();
    this.drawGraph();
    this.updateStatus();
    if (this.analysisOn) this.analyse();
  }

  drawMoves() {
    const l = this.line;
    const buttons = [];
    const start = h('button', { class: this.viewPly === 0 ? 'current' : '', onclick: () => this.goTo(0) }, 'start');
    buttons.push(start);
    l.moves.forEach((text, i) => {
      if (i % 2 === 0) buttons.push(h('span', { class: 'num' }, `${i / 2 + 1}.`));
      buttons.push(h('button', {
        class: this.viewPly === i + 1 ? 'current' : '', 'data-ply': i + 1,
        onclick: () => this.goTo(i + 1),
      }, text));
    });
    this.movesEl.replaceChildren(...buttons);
    const current = this.movesEl.querySelector('.current');
    if (current && current.scrollIntoView) current.scrollIntoView({ block: 'nearest' });
  }

  orientEvalBar() {
    // Black plays up the board unless it is flipped: its share grows from the bottom.
    this.evalBar.classList.toggle('black-top', this.board.flipped);
  }

  setAnalysis(on) {
    this.analysisOn = on;
    this.analysisEl.classList.toggle('hidden', !on);
    this.evalBar.classList.toggle('hidden', !on);
    this.graphEl.classList.toggle('hidden', !on);
    if (on) {
      this.loadGraph();
      this.analyse();
    } else {
      this.analysis.stop();
      this.lastInfo = null;
    }
    this.refresh();
  }

  analyse() {
    const l = this.line;
    // A game ended by resignation, time or agreement still has moves to analyse: only a
    // position the rules end is past searching.
    if (!this.shown || this.shown.outcome) {
      this.analysis.stop();
      this.analysisEl.textContent = this.shown && this.shown.outcome ? `Game over: ${this.shown.outcome.result}` : '';
      return;
    }
    this.analysis.request({
      variant: l.variant, rules: l.rules, position: l.start, moves: l.moves.slice(0, this.viewPly),
    });
  }

  onAnalysis(msg) {
    if (msg.type === 'error') {
      this.analysisEl.textContent = msg.error;
      return;
    }
    if (!this.shown || msg.position !== this.shown.position) return;
    if (msg.type === 'info') {
      this.lastInfo = msg;
      this.evalFill.style.height = `${(blackShare(msg.score) * 100).toFixed(1)}%`;
      this.evalLabel.textContent = shortScore(msg.score);
      this.orientEvalBar();
      this.analysisEl.replaceChildren(
        h('span', { class: 'score', 'data-testid': 'score' }, scoreText(msg.score)),
        h('span', { class: 'muted' }, `depth ${msg.depth} · ${Math.round(msg.nps / 1000)} kn/s`),
        h('div', { 'data-testid': 'pv' }, msg.pv.join(' ')),
      );
      this.board.arrow = msg.best ? msg.best.text : null;
      this.board.draw();
    }
  }

  async loadGraph() {
    const l = this.line;
    if (!l || l.positions.length < 2) {
      this.graph = null;
      return;
    }
    const key = l.positions.join('|');
    if (this.graphKey === key) return;
    this.graphKey = key;
    try {
      const scores = await api('POST', '/api/evaluate', {
        variant: l.variant, rules: l.rules, positions: l.positions, depth: 2,
      });
      if (this.graphKey === key) {
        this.graph = scores;
        this.drawGraph();
      }
    } catch (err) {
      this.graph = null;
    }
  }

  drawGraph() {
    const el = this.graphEl;
    el.replaceChildren(s('line', { x1: 0, y1: 30, x2: 200, y2: 30, class: 'zero' }));
    if (!this.graph || this.graph.length < 2) return;
    const n = this.graph.length - 1;
    const points = this.graph.map((score, i) => `${(i / n) * 200},${60 - blackShare(score) * 60}`);
    el.append(s('polyline', { points: points.join(' '), class: 'line' }));
    const x = (this.viewPly / n) * 200;
    el.append(s('line', { x1: x, y1: 0, x2: x, y2: 60, class: 'here' }));
  }

  clickGraph(e) {
    if (!this.graph || !this.line) return;
    const rect = this.graphEl.getBoundingClientRect();
    const n = this.graph.length - 1;
    const ply = Math.round(((e.clientX - rect.left) / rect.width) * n);
    this.goTo(Math.max(0, Math.min(this.line.moves.length, ply)));
  }
}

// ---------------------------------------------------------------- the game page

class GamePage extends GameScreen {
  constructor(id, linkToken) {
    super();
    this.id = id;
    // A seat's link carries its token; the seats this browser holds are kept.
    this.linkToken = linkToken;
    this.tokens = tokensOf(id);
    this.game = null;
    this.socket = null;
    this.closed = false;
    this.clockEls = { black: h('span', { class: 'clock', 'data-testid': 'clock-black' }), white: h('span', { class: 'clock', 'data-testid': 'clock-white' }) };
    this.timer = setInterval(() => this.tickClocks(), 100);
  }

  dispose() {
    super.dispose();
    showTurn(false);
    this.closed = true;
    clearInterval(this.timer);
    if (this.socket) this.socket.close();
  }

  async start() {
    if (this.linkToken) {
      const seen = await api('GET', `/api/games/${this.id}?token=${encodeURIComponent(this.linkToken)}`);
      if (seen.you) keepTokens(this.id, { [seen.you]: this.linkToken });
      this.tokens = tokensOf(this.id);
      // The token leaves the address bar: an address copied from it lets others watch,
      // not play.
      history.replaceState(null, '', `/game/${this.id}`);
    }
    let answer = await api('GET', `/api/games/${this.id}`);
    for (const slot of Object.keys(this.tokens)) {
      if (answer.online && answer.waiting_for.includes(slot)) {
        answer = await api('POST', `/api/games/${this.id}/join`, { token: this.tokens[slot] });
      }
    }
    if (Object.keys(this.tokens).length > 0) keepTokens(this.id, {});
    this.layout(answer);
    this.update(answer, true);
    this.connect();
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

  layout(game) {
    const mine = this.mySidesOf(game);
    const flipTo = mine.length === 1 && mine[0] === 'white';
    if (flipTo) this.board.flipped = true;
    this.topPlayer = h('div', { class: 'player' });
    this.bottomPlayer = h('div', { class: 'player' });
    this.offerEl = h('div', { class: 'offer hidden', 'data-testid': 'offer' });
    this.linksEl = h('div', { class: 'links' });
    this.reserveEl = h('div', { class: 'reserve' });
    const button = (label, testid, onclick, title) => h('button', { 'data-testid': testid, onclick, title }, label);
    this.controls = h('div', { class: 'row' },
      button('Flip (f)', 'flip', () => this.board.flip()),
      this.passButton = button('Pass', 'pass', () => this.tryMove('pass')),
      this.resignButton = button('Resign', 'resign', () => this.confirmAct('resign', 'Resign this game?')),
      this.drawButton = button('Offer draw', 'draw', () => this.act('draw')),
      this.takebackButton = button('Takeback', 'takeback', () => this.act('takeback')),
      this.analysisButton = button('Analysis', 'analysis-toggle', () => this.setAnalysis(!this.analysisOn)),
      this.rematchButton = button('Rematch', 'rematch', () => this.rematch(), 'The same game again, colours swapped'),
    );
    const sound = h('input', { type: 'checkbox', checked: soundOn(), 'data-testid': 'sound', onchange: (e) => setSound(e.target.checked) });
    const notifyButton = h('button', { 'data-testid': 'notify', title: 'A notification when it is your move and this tab is hidden' }, 'Notify me');
    notifyButton.addEventListener('click', async () => {
      await askToNotify();
      notifyButton.remove();
    });
    this.alertsRow = h('div', { class: 'row' },
      h('label', {}, sound, ' Sound on your move'),
      canAskToNotify() ? notifyButton : null);
    const exportRow = h('div', { class: 'row' },
      h('a', { href: `/api/games/${this.id}/record?format=pgn`, download: `loa-${this.id}.pgn` }, 'PGN'),
      h('a', { href: `/api/games/${this.id}/record?format=sgf`, download: `loa-${this.id}.sgf` }, 'SGF'),
      h('button', { onclick: () => this.copyPosition(), 'data-testid': 'copy-position' }, 'Copy position'),
      h('a', { href: '#', onclick: (e) => { e.preventDefault(); this.openInAnalysis(); } }, 'Open in analysis board'),
      this.moveInput,
    );
    app.replaceChildren(
      h('h1', { 'data-testid': 'title' }, gameTitle(game.variant, game.position.size)
        + (game.variant === 'fields-of-action' ? '' : ` · ${game.rules === 'draw' ? 'simultaneous connection draws' : 'mover wins a simultaneous connection'}`)),
      h('div', { class: 'play' },
        h('div', {},
          this.topPlayer,
          h('div', { class: 'board-area' }, this.evalBar, this.board.el),
          this.board.hintEl,
          this.bottomPlayer,
          this.reserveEl),
        h('div', { class: 'side' },
          this.status, this.offerEl, this.controls, this.movesEl, this.analysisEl, this.graphEl, exportRow,
          this.mySides().length > 0 && !game.result ? this.alertsRow : null, this.linksEl)));
  }

  update(game, first) {
    const previous = this.game;
    const wasMine = Boolean(previous) && this.isMyMove(previous);
    this.game = game;
    const nowMine = this.isMyMove(game);
    showTurn(nowMine, this.title(game));
    if (nowMine && !wasMine && !first) yourMoveNow(`Your move in ${this.title(game)}`);
    this.serverOffset = game.server_time - Date.now();
    const followingEnd = !this.line || this.viewPly === this.line.moves.length;
    this.line = {
      variant: game.variant, rules: game.rules, start: game.start, moves: game.moves,
      positions: game.positions, current: game.position,
    };
    if (first || followingEnd || this.viewPly > game.moves.length) this.viewPly = game.moves.length;
    this.drawPlayers();
    this.drawOffer();
    this.drawLinks();
    const over = Boolean(game.result);
    const onlineInProgress = game.online && !over;
    this.analysisButton.disabled = onlineInProgress;
    if (onlineInProgress && this.analysisOn) this.setAnalysis(false);
    const mine = this.mySides();
    this.resignButton.disabled = over || mine.length === 0;
    this.drawButton.disabled = over || mine.length === 0;
    // A takeback is asked for one's own move: none yet, nothing to ask.
    this.takebackButton.disabled = over || !(game.movers || []).some((slot) => this.tokens[slot]);
    this.rematchButton.classList.toggle('hidden', !over || (mine.length === 0 && !game.rematch));
    this.rematchButton.textContent = game.rematch ? (mine.length > 0 ? 'Play the rematch' : 'Watch the rematch') : 'Rematch';
    this.passButton.classList.toggle('hidden', !(this.canMove() && game.position.moves.length === 1 && game.position.moves[0].text === 'pass'));
    if (this.analysisOn && (!previous || previous.positions.length !== game.positions.length)) this.loadGraph();
    this.refresh();
  }

  // The sides whose seats this browser holds.
  mySidesOf(game) {
    const slots = Object.keys(this.tokens).filter((slot) => game && playerOf(game.players, slot) === 'human');
    return ['black', 'white'].filter((side) => slots.some((slot) => slot.startsWith(side)));
  }

  mySides() {
    return this.mySidesOf(this.game);
  }

  // The token to act with as `side` (the first seat of it this browser holds).
  tokenFor(side) {
    const slot = Object.keys(this.tokens).find((s) => s.startsWith(side));
    return slot ? this.tokens[slot] : undefined;
  }

  isMyMove(game) {
    return Boolean(game && !game.result && game.started && game.to_move_slot
      && playerOf(game.players, game.to_move_slot) === 'human' && this.tokens[game.to_move_slot]);
  }

  title(game) {
    return gameTitle(game.variant, game.position.size);
  }

  canMove() {
    return this.isMyMove(this.game) && this.atEnd();
  }

  drawPlayers() {
    const g = this.game;
    const names = { black: g.names[0], white: g.names[1] };
    const label = (side) => {
      const who = names[side] || sideLabel(g.players, side);
      const you = this.mySides().includes(side) && this.mySides().length === 1 ? ' (you)' : '';
      return h('span', {}, h('strong', {}, side === 'black' ? '● Black' : '○ White'), ` ${who}${you}`);
    };
    const top = this.board.flipped ? 'black' : 'white';
    const bottom = this.board.flipped ? 'white' : 'black';
    this.topPlayer.replaceChildren(label(top), g.clock ? this.clockEls[top] : '');
    this.bottomPlayer.replaceChildren(label(bottom), g.clock ? this.clockEls[bottom] : '');
    this.reserveEl.textContent = g.position.reserves
      ? `In reserve: Black ${g.position.reserves[0]}, White ${g.position.reserves[1]}`
      : g.variant === 'ambiloa' ? AMBILOA_KINDS : '';
    this.tickClocks();
  }

  tickClocks() {
    const g = this.game;
    if (!g || !g.clock) return;
    const now = Date.now() + this.serverOffset;
    for (const side of ['black', 'white']) {
      let ms = g.clock[`${side}_ms`];
      if (g.clock.running === side) ms -= now - g.server_time;
      const el = this.clockEls[side];
      el.textContent = formatClock(ms);
      el.classList.toggle('running', g.clock.running === side);
      el.classList.toggle('low', ms < 10000 && g.clock.control.kind === 'live');
    }
  }

  drawOffer() {
    const g = this.game;
    const mine = this.mySides();
    this.offerEl.replaceChildren();
    const offers = [['draw', g.draw_offer, 'a draw'], ['takeback', g.takeback_offer, 'a takeback']];
    let shown = false;
    for (const [kind, by, words] of offers) {
      if (!by || g.result) continue;
      shown = true;
      const other = by === 'black' ? 'white' : 'black';
      const offerer = `${by === 'black' ? 'Black' : 'White'} offers ${words}`;
      if (mine.includes(other)) {
        this.offerEl.append(h('span', {}, `${offerer}. `),
          h('button', { 'data-testid': `accept-${kind}`, onclick: () => this.act(kind, other) }, 'Accept'),
          h('button', { 'data-testid': `decline-${kind}`, onclick: () => this.act(`${kind}/decline`, other) }, 'Decline'));
      } else if (mine.includes(by)) {
        // "You" only to the seat that offered; spectators see who offers.
        this.offerEl.append(h('span', {}, `You offered ${words}; waiting for an answer.`));
      } else {
        this.offerEl.append(h('span', {}, `${offerer}.`));
      }
    }
    this.offerEl.classList.toggle('hidden', !shown);
  }

  drawLinks() {
    const g = this.game;
    this.linksEl.replaceChildren();
    if (!g.online) return;
    const invites = linksOf(g.id);
    if (invites) {
      this.linksEl.append(h('h2', {}, 'Links'));
      for (const [slot, url] of Object.entries(invites)) {
        this.linksEl.append(h('label', {}, slot), h('input', { readonly: true, value: url, 'data-testid': `link-${slot}`, onclick: (e) => e.target.select() }));
      }
    }
  }

  updateStatus() {
    const g = this.game;
    if (!g) return;
    let text;
    if (g.result) {
      const who = g.result.winner ? `${g.result.winner === 'black' ? 'Black' : 'White'} wins` : 'Draw';
      text = `${who} (${g.result.result}) by ${g.result.reason}`;
      if (g.rematch && this.mySides().length > 0) text += ' · a rematch is waiting';
    } else if (!g.started) {
      text = `Waiting for ${g.waiting_for.join(' and ')} to open their link`;
    } else {
      const slot = g.to_move_slot;
      const player = playerOf(g.players, slot);
      const kind = g.variant === 'ambiloa' ? ` (kind ${slot.startsWith('black') ? (g.position.seat ? 'b' : 'B') : (g.position.seat ? 'w' : 'W')})` : '';
      const side = slot.startsWith('black') ? 'Black' : 'White';
      text = player === 'human'
        ? (this.canMove() ? `Your move: ${side}${kind}` : `${side}${kind} to move`)
        : `${side}${kind}: loa is thinking…`;
    }
    if (!this.atEnd()) text += ` · viewing move ${this.viewPly} of ${g.moves.length}`;
    if (this.errorText) text += ` · ${this.errorText}`;
    this.status.textContent = text;
  }

  async tryMove(text) {
    if (!this.canMove()) return;
    this.errorText = null;
    try {
      const token = this.tokens[this.game.to_move_slot];
      const game = await api('POST', `/api/games/${this.id}/moves`, { move: text, token, ply: this.game.moves.length });
      if (game.moves.length >= this.game.moves.length) this.update(game, false);
    } catch (err) {
      this.errorText = err.message;
      this.refresh();
    }
  }

  confirmAct(kind, question) {
    if (window.confirm(question)) this.act(kind);
  }

  // Acts as `side`, or as the side it falls to: the person's one side, or at one board
  // the side to move (a takeback: the side that moved last).
  async act(kind, side) {
    this.errorText = null;
    const mine = this.mySides();
    let acting = side;
    if (!acting && mine.length === 1) acting = mine[0];
    if (!acting) {
      const toMove = this.game.position.to_move;
      acting = kind === 'takeback' ? (toMove === 'black' ? 'white' : 'black') : toMove;
    }
    const body = { token: this.tokenFor(acting) };
    try {
      const game = await api('POST', `/api/games/${this.id}/${kind}`, body);
      this.update(game, false);
    } catch (err) {
      this.errorText = err.message;
      this.updateStatus();
    }
  }

  // Asks for the rematch, or takes one's seat in the one the other player asked for.
  async rematch() {
    const g = this.game;
    const own = Object.values(this.tokens)[0];
    if (!own) {
      if (g.rematch) navigate(`/game/${g.rematch}`);
      return;
    }
    try {
      const next = await api('POST', `/api/games/${this.id}/rematch`, { token: own });
      keepTokens(next.id, next.tokens);
      if (next.game.online && Object.keys(next.tokens).length === 1) {
        // The other player is told on this page; spectators may still want the link.
        keepLinks(next.id, { spectators: `${location.origin}/game/${next.id}` });
      }
      navigate(`/game/${next.id}`);
    } catch (err) {
      this.errorText = err.message;
      this.updateStatus();
    }
  }

  async copyPosition() {
    const text = this.line.positions[this.viewPly];
    try { await navigator.clipboard.writeText(text); } catch { window.prompt('Position text', text); }
  }

  // The whole game on the analysis board, at the move shown.
  openInAnalysis() {
    const l = this.line;
    const params = new URLSearchParams({ variant: l.variant, rules: l.rules, position: l.start, moves: l.moves.join(' '), ply: String(this.viewPly) });
    navigate(`/analysis?${params}`);
  }
}

// ---------------------------------------------------------------- the analysis board

class AnalysisPage extends GameScreen {
  constructor(line, title) {
    super();
    this.title = title;
    this.line = line;
    this.viewPly = line.moves.length;
  }

  canMove() {
    return Boolean(this.shown && this.shown.moves.length > 0);
  }

  async start() {
    this.layout();
    if (!this.line.positions) await this.buildPositions();
    this.root = treeOf(this.line.positions, this.line.moves);
    this.follow(lineThrough(this.root)[Math.min(this.viewPly, this.line.moves.length)]);
    this.setAnalysis(true);
  }

  // Shows `node`: the line through it (its moves from the start, then its main line on).
  follow(node) {
    this.nodes = lineThrough(node);
    const l = this.line;
    this.line = {
      ...l, moves: this.nodes.slice(1).map((n) => n.move), positions: this.nodes.map((n) => n.position), current: null,
    };
    this.viewPly = depthOf(node);
  }

  currentNode() {
    return this.nodes[this.viewPly];
  }

  async goTo(ply) {
    this.viewPly = ply;
    await this.refresh();
  }

  // The move list as a tree: the main line, each variation in brackets after the move
  // it replaces; a click shows the line through that move.
  drawMoves() {
    const here = this.currentNode();
    const button = (node) => h('button', {
      class: node === here ? 'current' : '', 'data-ply': node.parent ? depthOf(node) : null,
      'data-main': onMainLine(node) ? '' : null,
      onclick: () => { this.follow(node); this.refresh(); },
    }, node.move);
    const number = (node, force) => {
      const ply = depthOf(node);
      if (ply % 2 === 1) return h('span', { class: 'num' }, `${(ply + 1) / 2}.`);
      return force ? h('span', { class: 'num' }, `${ply / 2}…`) : null;
    };
    // A line from `node`'s children on; its first move needs its number when it opens a
    // variation.
    const lineFrom = (first, opening) => {
      const out = [];
      let node = first;
      let force = opening;
      while (node) {
        out.push(number(node, force), button(node));
        force = false;
        const parent = node.parent;
        for (const alternative of parent.children.slice(1)) {
          if (parent.children[0] !== node) break;
          out.push(h('span', { class: 'variation', 'data-testid': 'variation' }, '(', lineFrom(alternative, true), ')'));
          force = true;
        }
        node = node.children[0];
      }
      return out;
    };
    const start = h('button', { class: here === this.root ? 'current' : '', onclick: () => { this.follow(this.root); this.refresh(); } }, 'start');
    this.movesEl.replaceChildren(start, ...(this.root.children[0] ? lineFrom(this.root.children[0], false) : []).filter(Boolean));
    const current = this.movesEl.querySelector('.current');
    if (current && current.scrollIntoView) current.scrollIntoView({ block: 'nearest' });
    const inVariation = !onMainLine(here);
    this.promoteButton.classList.toggle('hidden', !inVariation);
    this.deleteButton.classList.toggle('hidden', here === this.root);
  }

  async buildPositions() {
    const l = this.line;
    const answer = await api('POST', '/api/position', { variant: l.variant, rules: l.rules, position: l.start, moves: l.moves });
    l.positions = answer.line;
    l.start = answer.line[0];
  }

  layout() {
    this.linkInput = h('input', { readonly: true, 'data-testid': 'share-link', onclick: (e) => e.target.select(), style: 'width:100%' });
    app.replaceChildren(
      h('h1', {}, this.title),
      h('div', { class: 'play' },
        h('div', {}, h('div', { class: 'board-area' }, this.evalBar, this.board.el), this.board.hintEl),
        h('div', { class: 'side' },
          this.status, this.movesEl,
          h('div', { class: 'row' },
            this.promoteButton = h('button', { class: 'hidden', 'data-testid': 'promote', title: 'Move this variation up where it branches off', onclick: () => { promote(this.currentNode()); this.follow(this.currentNode()); this.refresh(); } }, 'Promote variation'),
            this.deleteButton = h('button', { class: 'hidden', 'data-testid': 'delete-move', title: 'Delete this move and every move after it', onclick: () => { this.follow(remove(this.currentNode()) || this.root); this.refresh(); } }, 'Delete from here')),
          this.analysisEl, this.graphEl,
          h('div', { class: 'row' },
            h('button', { onclick: () => this.board.flip() }, 'Flip (f)'),
            h('button', { onclick: () => this.setAnalysis(!this.analysisOn), 'data-testid': 'analysis-toggle' }, 'Engine on/off'),
            h('button', { onclick: () => this.continueAsGame(), 'data-testid': 'continue' }, 'Play from here'),
            this.moveInput),
          h('label', {}, 'Link to this position'), this.linkInput)));
  }

  updateStatus() {
    const v = this.shown;
    if (!v) return;
    const side = v.to_move === 'black' ? 'Black' : 'White';
    this.status.textContent = v.outcome
      ? `${v.outcome.result} by ${v.outcome.reason}`
      : `${side} to move · move ${this.viewPly} of ${this.line.moves.length}${this.errorText ? ` · ${this.errorText}` : ''}`;
    const params = new URLSearchParams({ variant: this.line.variant, rules: this.line.rules, position: this.line.start });
    if (this.viewPly > 0) params.set('moves', this.line.moves.slice(0, this.viewPly).join(' '));
    this.linkInput.value = `${location.origin}/analysis?${params}`;
  }

  async tryMove(text) {
    const view = this.shown;
    const found = view && view.moves.find((m) => m.text === text || m.text === text.replace('-', 'x'));
    if (!found) {
      this.errorText = `${text} is not a legal move here`;
      this.updateStatus();
      return;
    }
    this.errorText = null;
    // A move off the line starts a variation; the line is kept.
    const l = this.line;
    const node = this.currentNode();
    const moves = l.moves.slice(0, this.viewPly);
    moves.push(found.text);
    try {
      const known = node.children.find((c) => c.move === found.text);
      const position = known ? known.position
        : (await api('POST', '/api/position', { variant: l.variant, rules: l.rules, position: l.start, moves })).line[moves.length];
      this.follow(addChild(node, found.text, position));
    } catch (err) {
      this.errorText = err.message;
    }
    if (this.analysisOn) this.loadGraph();
    await this.refresh();
  }

  async continueAsGame() {
    const l = this.line;
    try {
      const created = await api('POST', '/api/games', {
        variant: l.variant, rules: l.rules, position: l.start, moves: l.moves.slice(0, this.viewPly),
        black: 'human', white: 'human',
      });
      keepTokens(created.id, created.tokens);
      navigate(`/game/${created.id}`);
    } catch (err) {
      this.errorText = err.message;
      this.updateStatus();
    }
  }
}

// ---------------------------------------------------------------- the home page

function homePage() {
  const variantSelect = h('select', { id: 'variant', 'data-testid': 'variant' },
    VARIANTS.map(([value, label]) => h('option', { value }, label)));
  const boardSelect = h('select', { id: 'board', 'data-testid': 'board-size' },
    [8, 7, 6].map((n) => h('option', { value: n }, `${n}×${n}`)));
  const rulesSelect = h('select', { id: 'rules', 'data-testid': 'rules' },
    h('option', { value: 'draw' }, 'Simultaneous connection: draw'),
    h('option', { value: 'mover-wins' }, 'Simultaneous connection: mover wins'));
  const opponent = h('select', { id: 'opponent', 'data-testid': 'opponent' },
    h('option', { value: 'engine' }, 'The engine'),
    h('option', { value: 'local' }, 'Two people at this board'),
    h('option', { value: 'online' }, 'A friend online (a link to send)'));
  const levelSelect = h('select', { id: 'level', 'data-testid': 'level' },
    [1, 2, 3, 4, 5, 6, 7, 8].map((n) => h('option', { value: n, selected: n === 4 }, `Level ${n}`)),
    h('option', { value: 'time' }, 'Time a move…'));
  const movetime = h('input', { id: 'movetime', type: 'number', min: 0.01, max: 60, step: 'any', value: 2, size: 5, class: 'hidden', 'aria-label': 'seconds a move' });
  const colorSelect = h('select', { id: 'color', 'data-testid': 'color' },
    h('option', { value: 'black' }, 'Black (moves first)'),
    h('option', { value: 'white' }, 'White'),
    h('option', { value: 'random' }, 'Random'));
  const clockSelect = h('select', { id: 'clock', 'data-testid': 'clock' },
    h('option', { value: 'none' }, 'No clock'),
    h('option', { value: 'live' }, 'Live: minutes + increment'),
    h('option', { value: 'correspondence' }, 'Correspondence: days a move'));
  const minutes = h('input', { type: 'number', min: 0, max: 1440, step: 'any', value: 5, size: 4, 'aria-label': 'minutes', 'data-testid': 'minutes' });
  const increment = h('input', { type: 'number', min: 0, max: 3600, value: 3, size: 3, 'aria-label': 'increment seconds', 'data-testid': 'increment' });
  const days = h('input', { type: 'number', min: 1, max: 60, value: 3, size: 3, 'aria-label': 'days a move' });
  const liveRow = h('span', { class: 'hidden' }, minutes, ' min + ', increment, ' s');
  const daysRow = h('span', { class: 'hidden' }, days, ' days');
  const partnership = h('input', { type: 'checkbox', id: 'partnership', 'data-testid': 'partnership' });
  const seatSelects = ['Black, plain (B)', 'White, plain (W)', 'Black, ringed (b)', 'White, ringed (w)'].map((label) => h('label', {}, label,
    h('select', { 'data-seat': label }, h('option', { value: 'human' }, 'Person'),
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) => h('option', { value: n }, `loa level ${n}`)))));
  const partnershipRow = h('div', { class: 'row hidden' }, h('p', { class: 'muted' }, AMBILOA_KINDS), seatSelects);
  const positionInput = h('input', { id: 'position', placeholder: 'start position text (optional)', style: 'flex:1; min-width: 14rem', 'data-testid': 'position' });
  const error = h('p', { class: 'error', 'data-testid': 'error', role: 'alert' });
  const engineRow = h('span', {}, levelSelect, movetime);
  const colorRow = h('span', {}, ' You play ', colorSelect);

  const sync = () => {
    const variant = variantSelect.value;
    boardSelect.disabled = !STANDARD_RULES.includes(variant);
    if (boardSelect.disabled) boardSelect.value = '8';
    const ambi = variant === 'ambiloa';
    partnership.parentElement.classList.toggle('hidden', !ambi);
    const four = ambi && partnership.checked;
    partnershipRow.classList.toggle('hidden', !four);
    engineRow.classList.toggle('hidden', opponent.value !== 'engine' || four);
    colorRow.classList.toggle('hidden', opponent.value === 'local' || four);
    movetime.classList.toggle('hidden', levelSelect.value !== 'time');
    liveRow.classList.toggle('hidden', clockSelect.value !== 'live');
    daysRow.classList.toggle('hidden', clockSelect.value !== 'correspondence');
  };
  for (const el of [variantSelect, opponent, levelSelect, clockSelect, partnership]) el.addEventListener('change', sync);

  const create = async (event) => {
    event.preventDefault();
    error.textContent = '';
    const body = { variant: variantSelect.value, rules: rulesSelect.value };
    // The creator's colour, against the engine or a friend online.
    let onlineColor = colorSelect.value;
    if (onlineColor === 'random') onlineColor = Math.random() < 0.5 ? 'black' : 'white';
    if (!boardSelect.disabled) body.board = Number(boardSelect.value);
    if (positionInput.value.trim()) {
      body.position = positionInput.value.trim();
      delete body.board;
    }
    const engine = levelSelect.value === 'time'
      ? { engine: { movetime_ms: Math.round(Number(movetime.value) * 1000) } }
      : { engine: { level: Number(levelSelect.value) } };
    if (variantSelect.value === 'ambiloa' && partnership.checked) {
      const seat = (i) => (seatSelects[i].lastChild.value === 'human' ? 'human' : { engine: { level: Number(seatSelects[i].lastChild.value) } });
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
      [levelSelect.value === 'time' && opponent.value === 'engine', movetime, 0.01, 60, 'The time a move is from 0.01 to 60 seconds'],
      [clockSelect.value === 'live', minutes, 0, 1440, 'The minutes are from 0 to 1440 (a day)'],
      [clockSelect.value === 'live', increment, 0, 3600, 'The increment is from 0 to 3600 seconds'],
      [clockSelect.value === 'correspondence', days, 1, 60, 'The days a move are from 1 to 60'],
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
    try {
      const created = await api('POST', '/api/games', body);
      const slots = Object.keys(created.tokens);
      if (body.online) {
        // The creator takes the seat of their colour; the other links are theirs to send.
        const own = slots.find((slot) => slot.startsWith(onlineColor)) || slots[0];
        keepTokens(created.id, { [own]: created.tokens[own] });
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
      error.textContent = formWords(err.message);
    }
  };

  const importText = h('textarea', { id: 'import', placeholder: 'Paste an SGF or PGN record, or a position text', 'data-testid': 'import-text' });
  const importFile = h('input', { type: 'file', accept: '.sgf,.pgn,.txt', 'aria-label': 'record file', 'data-testid': 'import-file' });
  const importVariant = h('select', { 'aria-label': 'variant of the position text' },
    VARIANTS.map(([value, label]) => h('option', { value }, label)));
  const importError = h('p', { class: 'error', role: 'alert', 'data-testid': 'import-error' });
  importFile.addEventListener('change', async () => {
    if (importFile.files[0]) importText.value = await importFile.files[0].text();
  });
  const doImport = async (event) => {
    event.preventDefault();
    importError.textContent = '';
    const text = importText.value.trim();
    if (!text) return;
    try {
      if (text.startsWith('(') || text.startsWith('[') || /^\s*1\./.test(text)) {
        const games = await api('POST', '/api/records', { record: text });
        const g = games[0];
        if (g.error) importError.textContent = `The record stops at ${g.error}`;
        const title = `${g.black || 'Black'} – ${g.white || 'White'} · ${g.result}${g.termination ? ` (${g.termination})` : ''}`;
        showAnalysis({ variant: g.variant, rules: g.rules, start: g.start, moves: g.moves, positions: g.positions }, title, 0);
      } else {
        const view = await describe(importVariant.value, 'draw', text);
        const params = new URLSearchParams({ variant: importVariant.value, position: view.position });
        navigate(`/analysis?${params}`);
      }
    } catch (err) {
      importError.textContent = err.message;
    }
  };

  const gamesList = h('div', { 'data-testid': 'games' }, h('p', { class: 'muted' }, 'Loading…'));
  const myGames = h('div', { 'data-testid': 'my-games' });
  app.replaceChildren(
    h('h1', {}, 'New game'),
    h('form', { onsubmit: create, novalidate: true, 'data-testid': 'new-game' },
      h('div', { class: 'row' }, h('label', {}, 'Opponent ', opponent), engineRow, colorRow),
      h('div', { class: 'row' }, h('label', {}, 'Variant ', variantSelect), h('label', {}, 'Board ', boardSelect), h('label', { class: 'hidden' }, partnership, 'Four players (partnership)')),
      partnershipRow,
      h('div', { class: 'row' }, h('label', {}, 'Rules ', rulesSelect)),
      h('div', { class: 'row' }, h('label', {}, 'Clock ', clockSelect), liveRow, daysRow),
      h('div', { class: 'row' }, positionInput),
      h('div', { class: 'row' }, h('button', { class: 'primary', type: 'submit', 'data-testid': 'start' }, 'Start the game')),
      error),
    myGames,
    h('h2', {}, 'Import'),
    h('form', { onsubmit: doImport },
      importText,
      h('div', { class: 'row' }, importFile, h('label', {}, 'Position text is of ', importVariant),
        h('button', { type: 'submit', 'data-testid': 'import' }, 'Open')),
      importError),
    h('h2', { id: 'games' }, 'Saved games'),
    gamesList);
  sync();
  loadMyGames(myGames);
  loadGames(gamesList);
}

// The games this browser plays, with whose move it is: the way back to one's seat.
async function loadMyGames(container) {
  const ids = heldGames().slice(0, 30);
  if (ids.length === 0) return;
  const games = (await Promise.all(ids.map((id) => api('GET', `/api/games/${id}`).catch(() => null)))).filter(Boolean);
  if (games.length === 0) return;
  const mineToMove = (g) => !g.result && g.started && g.to_move_slot && Boolean(tokensOf(g.id)[g.to_move_slot])
    && playerOf(g.players, g.to_move_slot) === 'human';
  // Games waiting for this person first, then those in progress, then finished ones.
  const rank = (g) => (mineToMove(g) ? 0 : g.result ? 2 : 1);
  games.sort((a, b) => rank(a) - rank(b));
  const waiting = games.filter(mineToMove).length;
  showTurn(waiting > 0, waiting > 1 ? `${waiting} games` : undefined);
  const state = (g) => {
    if (g.result) return `${g.result.result} ${g.result.reason}`;
    if (!g.started) return `waiting for ${g.waiting_for.join(' and ')}`;
    if (mineToMove(g)) return h('strong', {}, 'Your move');
    return `${g.to_move_slot.startsWith('black') ? 'Black' : 'White'} to move`;
  };
  container.replaceChildren(h('h2', {}, 'My games'), h('table', {},
    h('thead', {}, h('tr', {}, ['Game', 'Variant', 'Black', 'White', 'Moves', 'State'].map((t) => h('th', { class: t === 'Variant' ? 'wide' : null }, t)))),
    h('tbody', {}, games.map((g) => h('tr', { 'data-testid': 'my-game' },
      h('td', {}, h('a', { href: `/game/${g.id}` }, g.id.slice(0, 8))),
      h('td', { class: 'wide' }, gameTitle(g.variant, g.position.size)),
      h('td', {}, sideLabel(g.players, 'black')),
      h('td', {}, sideLabel(g.players, 'white')),
      h('td', {}, g.moves.length),
      h('td', {}, state(g)))))));
}

async function loadGames(container) {
  try {
    const games = await api('GET', '/api/games?limit=100');
    if (games.length === 0) {
      container.replaceChildren(h('p', { class: 'muted' }, 'No games yet.'));
      return;
    }
    container.replaceChildren(h('table', {},
      h('thead', {}, h('tr', {}, ['Game', 'Variant', 'Black', 'White', 'Moves', 'Result', 'Last change'].map((t) => h('th', { class: t === 'Variant' || t === 'Last change' ? 'wide' : null }, t)))),
      h('tbody', {}, games.map((g) => h('tr', {},
        h('td', {}, h('a', { href: `/game/${g.id}` }, g.id.slice(0, 8))),
        h('td', { class: 'wide' }, (VARIANTS.find((v) => v[0] === g.variant) || [0, g.variant])[1]),
        h('td', {}, sideLabel(g.players, 'black')),
        h('td', {}, sideLabel(g.players, 'white')),
        h('td', {}, g.moves),
        h('td', {}, g.result ? `${g.result} ${g.reason}` : (g.online ? 'in progress (online)' : 'in progress')),
        h('td', { class: 'wide' }, new Date(g.updated_at).toLocaleString()))))));
  } catch (err) {
    container.replaceChildren(h('p', { class: 'error' }, err.message));
  }
}

// ---------------------------------------------------------------- routing

let current = null;

function showAnalysis(line, title, ply) {
  if (current) current.dispose();
  const page = new AnalysisPage(line, title);
  current = page;
  page.viewPly = ply === undefined ? line.moves.length : ply;
  page.start().catch((err) => { app.replaceChildren(h('p', { class: 'error' }, err.message)); });
}

function navigate(url) {
  history.pushState(null, '', url);
  route();
}

async function route() {
  if (current) current.dispose();
  current = null;
  const path = location.pathname;
  const params = new URLSearchParams(location.search);
  const game = /^\/game\/([a-z0-9]+)$/.exec(path);
  try {
    if (game) {
      const page = new GamePage(game[1], params.get('token'));
      current = page;
      await page.start();
    } else if (path === '/analysis') {
      const moves = (params.get('moves') || '').split(/\s+/).filter(Boolean);
      const line = {
        variant: params.get('variant') || 'standard', rules: params.get('rules') || 'draw',
        start: params.get('position') || null, moves,
      };
      if (!line.start) line.start = (await describe(line.variant, line.rules, undefined)).position;
      const ply = Number(params.get('ply'));
      showAnalysis(line, 'Analysis board', params.has('ply') && Number.isInteger(ply) && ply >= 0 ? Math.min(ply, moves.length) : undefined);
    } else {
      showTurn(false);
      homePage();
      if (location.hash === '#games') document.getElementById('games').scrollIntoView();
    }
  } catch (err) {
    app.replaceChildren(h('h1', {}, 'Not found'), h('p', { class: 'error', 'data-testid': 'page-error' }, err.message), h('a', { href: '/' }, 'Back to a new game'));
  }
}

document.addEventListener('click', (e) => {
  const a = e.target.closest('a');
  if (!a || a.target || a.hasAttribute('download') || a.origin !== location.origin) return;
  if (a.pathname.startsWith('/api/')) return;
  e.preventDefault();
  navigate(a.pathname + a.search + a.hash);
});
window.addEventListener('popstate', route);
route();
