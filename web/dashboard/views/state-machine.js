// The provision state machine drawn as SVG from the server's own table (GET
// /dashboard/api/state-machine, built from src/conductor/fsm.ts): states laid out in columns by
// their distance from `enroll`, the current state highlighted, and its transitions emphasised.
import { html } from '../preact.js';

const COL = 170;
const ROW = 46;
const BOX_W = 118;
const BOX_H = 28;
const PAD = 24;

const KIND_ORDER = ['stable', 'unstable', 'hold', 'failed'];

/** Breadth-first distance of every state from `enroll` along the transitions. */
function ranks(machine) {
  const out = new Map();
  for (const t of machine.transitions) {
    if (!out.has(t.from)) out.set(t.from, []);
    out.get(t.from).push(t.to);
  }
  const rank = new Map([['enroll', 0]]);
  const queue = ['enroll'];
  while (queue.length) {
    const state = queue.shift();
    for (const next of out.get(state) ?? []) {
      if (!rank.has(next)) { rank.set(next, rank.get(state) + 1); queue.push(next); }
    }
  }
  return { rank, out };
}

/** The stable state a state works towards: its own target in the table, else the nearest stable one. */
function homeOf(state, machine, kinds, out) {
  if (kinds.get(state.name) === 'stable') return state.name;
  if (state.target && kinds.get(state.target) === 'stable') return state.target;
  const seen = new Set([state.name]);
  const queue = [state.name];
  while (queue.length) {
    for (const next of out.get(queue.shift()) ?? []) {
      if (kinds.get(next) === 'stable') return next;
      if (!seen.has(next)) { seen.add(next); queue.push(next); }
    }
  }
  return state.name;
}

/**
 * One column per stable state (in order of distance from enroll); every other state stacked under
 * the stable state it heads for: working states, then holds, then failures.
 */
function layout(machine) {
  const { rank, out } = ranks(machine);
  const kinds = new Map(machine.states.map((s) => [s.name, s.kind]));
  const byRank = (a, b) => (rank.get(a) ?? 99) - (rank.get(b) ?? 99);
  const columns = new Map();
  for (const s of machine.states) {
    const home = homeOf(s, machine, kinds, out);
    if (!columns.has(home)) columns.set(home, []);
    columns.get(home).push(s.name);
  }
  const order = [...columns.keys()].sort(byRank);
  const pos = new Map();
  order.forEach((home, c) => {
    const names = columns.get(home).sort((a, b) => a === home ? -1 : b === home ? 1
      : KIND_ORDER.indexOf(kinds.get(a)) - KIND_ORDER.indexOf(kinds.get(b)) || byRank(a, b));
    names.forEach((name, i) => pos.set(name, { x: PAD + c * COL, y: PAD + i * ROW + (i > 0 ? ROW / 2 : 0) }));
  });
  const tallest = Math.max(...[...columns.values()].map((c) => c.length));
  return { pos, width: PAD * 2 + order.length * COL - (COL - BOX_W), height: PAD * 2 + tallest * ROW + ROW / 2 };
}

/** Edges within a column swing out to the side, further the longer they are, so they clear the boxes between. */
function bendOf(a, b, hot) {
  if (a.x === b.x) return (b.y > a.y ? 1 : -1) * (BOX_W / 2 + Math.abs(b.y - a.y) * 0.15);
  return hot ? 24 : 14;
}

/** Where the segment from a box's centre towards (x, y) leaves the box. */
function boxEdge(cx, cy, x, y) {
  const dx = x - cx, dy = y - cy;
  const scale = Math.min(dx ? (BOX_W / 2) / Math.abs(dx) : Infinity, dy ? (BOX_H / 2) / Math.abs(dy) : Infinity);
  return [cx + dx * Math.min(scale, 1), cy + dy * Math.min(scale, 1)];
}

/** A quadratic curve from box to box, bent sideways so an edge and its reverse are drawn apart. */
function edgePath(a, b, bend) {
  const ax = a.x + BOX_W / 2, ay = a.y + BOX_H / 2, bx = b.x + BOX_W / 2, by = b.y + BOX_H / 2;
  const dx = bx - ax, dy = by - ay;
  const len = Math.hypot(dx, dy) || 1;
  const cx = (ax + bx) / 2 - (dy / len) * bend, cy = (ay + by) / 2 + (dx / len) * bend;
  const [x1, y1] = boxEdge(ax, ay, cx, cy);
  const [x2, y2] = boxEdge(bx, by, cx, cy);
  return {
    d: `M${x1.toFixed(1)},${y1.toFixed(1)} Q${cx.toFixed(1)},${cy.toFixed(1)} ${x2.toFixed(1)},${y2.toFixed(1)}`,
    mid: [(x1 + 2 * cx + x2) / 4, (y1 + 2 * cy + y2) / 4],
  };
}

export function StateMachine({ machine, current, target }) {
  const { pos, width, height } = layout(machine);
  const kinds = new Map(machine.states.map((s) => [s.name, s.kind]));
  return html`<svg class="fsm" viewBox=${`0 0 ${width} ${height}`} width=${width} height=${height}
      role="img" aria-label="Provision state machine">
    <defs>
      <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
        <path d="M0,0 L10,5 L0,10 z" class="arrow-head" />
      </marker>
      <marker id="arrow-hot" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
        <path d="M0,0 L10,5 L0,10 z" class="arrow-head hot" />
      </marker>
    </defs>
    ${machine.transitions.map((t) => {
      const a = pos.get(t.from), b = pos.get(t.to);
      if (!a || !b || t.from === t.to) return null;
      const hot = t.from === current;
      return html`<path class=${hot ? 'edge hot' : 'edge'} d=${edgePath(a, b, bendOf(a, b, hot)).d}
        marker-end=${hot ? 'url(#arrow-hot)' : 'url(#arrow)'}><title>${`${t.from} —${t.event}→ ${t.to}`}</title></path>`;
    })}
    ${[...pos].map(([name, p]) => html`<g class=${`state ${kinds.get(name)}${name === current ? ' current' : ''}${
        name === target ? ' target' : ''}`} data-state=${name} transform=${`translate(${p.x},${p.y})`}>
      <rect width=${BOX_W} height=${BOX_H} rx="6" />
      <text x=${BOX_W / 2} y=${BOX_H / 2 + 4} text-anchor="middle">${name}</text>
    </g>`)}
    ${machine.transitions.filter((t) => t.from === current && pos.has(t.to) && t.to !== t.from).map((t) => {
      const a = pos.get(t.from), b = pos.get(t.to);
      const { mid } = edgePath(a, b, bendOf(a, b, true));
      // Drawn last, over the boxes, so a label is never hidden.
      return html`<text class="edge-label" x=${mid[0]} y=${mid[1] - 3} text-anchor="middle">${t.event}</text>`;
    })}
  </svg>`;
}

/** The events the machine accepts from `state`. */
export function eventsFrom(machine, state) {
  return new Set(machine.transitions.filter((t) => t.from === state).map((t) => t.event));
}
