// @ts-check
// The analysis board's moves as a tree: the main line is each node's first child, the
// other children are variations. Nothing is lost when a move is played off the line.

/**
 * @typedef {{ move: string | null, position: string, children: MoveNode[], parent: MoveNode | null }} MoveNode
 */

/**
 * A tree holding one line.
 * @param {string[]} positions the position text at the start and after each move
 * @param {string[]} moves
 * @returns {MoveNode}
 */
export function treeOf(positions, moves) {
  /** @type {MoveNode} */
  const root = { move: null, position: positions[0], children: [], parent: null };
  let node = root;
  moves.forEach((move, i) => {
    node = addChild(node, move, positions[i + 1]);
  });
  return root;
}

/**
 * The child of `node` reached by `move`, made if it is new (a first child continues the
 * main line; a later one is a variation).
 * @param {MoveNode} node
 * @param {string} move
 * @param {string} position
 * @returns {MoveNode}
 */
export function addChild(node, move, position) {
  const existing = node.children.find((c) => c.move === move);
  if (existing) return existing;
  /** @type {MoveNode} */
  const child = { move, position, children: [], parent: node };
  node.children.push(child);
  return child;
}

/**
 * The nodes from the root to `node`, then on along the main line below it.
 * @param {MoveNode} node
 * @returns {MoveNode[]}
 */
export function lineThrough(node) {
  const line = [];
  for (let n = /** @type {MoveNode | null} */ (node); n; n = n.parent) line.unshift(n);
  for (let n = node.children[0]; n; n = n.children[0]) line.push(n);
  return line;
}

/**
 * How many moves from the root.
 * @param {MoveNode} node
 */
export function depthOf(node) {
  let depth = 0;
  for (let n = node.parent; n; n = n.parent) depth += 1;
  return depth;
}

/**
 * Whether `node` lies on the main line.
 * @param {MoveNode} node
 */
export function onMainLine(node) {
  for (let n = node; n.parent; n = n.parent) {
    if (n.parent.children[0] !== n) return false;
  }
  return true;
}

/**
 * Moves the variation holding `node` one place up where it branches off: the first
 * variation of a line becomes its main line.
 * @param {MoveNode} node
 */
export function promote(node) {
  let n = node;
  while (n.parent && n.parent.children[0] === n) n = n.parent;
  const parent = n.parent;
  if (!parent) return;
  const i = parent.children.indexOf(n);
  [parent.children[i - 1], parent.children[i]] = [parent.children[i], parent.children[i - 1]];
}

/**
 * Removes `node` and every move after it; answers the node before it.
 * @param {MoveNode} node
 * @returns {MoveNode | null}
 */
export function remove(node) {
  const parent = node.parent;
  if (!parent) return null;
  parent.children = parent.children.filter((c) => c !== node);
  return parent;
}
