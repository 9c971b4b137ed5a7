// State, power and maintenance badges. Classes come from fixed tables, never from data.
import { html } from '../preact.js';

const STATE_CLASS = new Map([
  ['active', 'ok'], ['available', 'ok'], ['manageable', 'info'], ['enroll', 'muted'],
  ['rescue', 'info'], ['error', 'bad'],
]);

function stateClass(state) {
  if (STATE_CLASS.has(state)) return STATE_CLASS.get(state);
  if (typeof state === 'string' && /fail/.test(state)) return 'bad';
  if (typeof state === 'string' && /wait|ing$/.test(state)) return 'busy';
  return 'muted';
}

export function StateBadge({ state, target }) {
  return html`<span class=${`badge state ${stateClass(state)}`} data-state=${state ?? ''}>${state ?? 'none'}${
    target ? html`<span class="target"> → ${target}</span>` : null}</span>`;
}

const POWER_CLASS = new Map([['power on', 'ok'], ['power off', 'off'], ['error', 'bad']]);

export function PowerBadge({ power, target }) {
  return html`<span class=${`badge power ${POWER_CLASS.get(power) ?? 'muted'}`} data-power=${power ?? ''}>${
    power ?? 'none'}${target ? html`<span class="target"> → ${target}</span>` : null}</span>`;
}

export function MaintenanceBadge({ on, reason }) {
  return on ? html`<span class="badge maint" title=${reason ?? ''}>maintenance</span>` : null;
}
