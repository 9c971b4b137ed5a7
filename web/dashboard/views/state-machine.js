// The provision state machine drawn as SVG from the server's own table (GET
// /dashboard/api/state-machine, built from src/conductor/fsm.ts): states laid out in columns by
// their distance from `enroll`, the current state highlighted, and its transitions emphasised.
import { html } from '../preact.js';

const COL = 150;
const ROW = 46;
const BOX_W = 118;
const BOX_H = 28;
const PAD = 16;

/** Column = breadth-first distance from enroll; states not reached go in a last column. */
function layout(machine) {
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
  const maxRank = Math.max(0, ...rank.values());
  const columns = [];
  for (const s of machine.states) {
    const r = rank.get(s.name) ?? maxRank + 1;
    (columns[r] ??= []).push(s.name);
  }
  const pos = new Map();
  columns.forEach((names, c) => names.forEach((name, i) => pos.set(name, { x: PAD + c * COL, y: PAD + i * ROW })));
  const height = PAD * 2 + Math.max(...columns.map((c) => c?.length ?? 0)) * ROW;
  return { pos, width: PAD * 2 + columns.length * COL, height };
}

function edgePath(a, b, bend) {
  const x1 = a.x + BOX_W / 2, y1 = a.y + BOX_H / 2, x2 = b.x + BOX_W / 2, y2 = b.y + BOX_H / 2;
  const dx = x2 - x1, dy = y2 - y1;
  const len = Math.hypot(dx, dy) || 1;
  // Stop at the target box's edge, and bend sideways so the reverse edge is drawn apart.
  const shrink = Math.min(0.45, (BOX_W / 2) / len);
  const ex = x2 - dx * shrink, ey = y2 - dy * shrink;
  const cx = (x1 + ex) / 2 - (dy / len) * bend, cy = (y1 + ey) / 2 + (dx / len) * bend;
  return `M${x1},${y1} Q${cx},${cy} ${ex},${ey}`;
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
      return html`<path class=${hot ? 'edge hot' : 'edge'} d=${edgePath(a, b, hot ? 24 : 14)}
        marker-end=${hot ? 'url(#arrow-hot)' : 'url(#arrow)'}><title>${`${t.from} —${t.event}→ ${t.to}`}</title></path>`;
    })}
    ${[...pos].map(([name, p]) => html`<g class=${`state ${kinds.get(name)}${name === current ? ' current' : ''}${
        name === target ? ' target' : ''}`} data-state=${name} transform=${`translate(${p.x},${p.y})`}>
      <rect width=${BOX_W} height=${BOX_H} rx="6" />
      <text x=${BOX_W / 2} y=${BOX_H / 2 + 4} text-anchor="middle">${name}</text>
    </g>`)}
  </svg>`;
}

/** The events the machine accepts from `state`. */
export function eventsFrom(machine, state) {
  return new Set(machine.transitions.filter((t) => t.from === state).map((t) => t.event));
}
