/**
 * Drives one node through a sequence of provision actions the way a patient client would:
 * re-reads the node, waits while it is locked or moving, retries refused or unanswered requests,
 * and stops at the final target or at a failed state. Never loops past its deadline.
 */
import { getNode, setProvisionState } from './rest';
import { sleep } from './ports';

export interface Step {
  action: string;
  from: string;
  to: string;
  extra?: Record<string, unknown>;
}

export const FAILED_STATES = new Set(['deploy failed', 'clean failed', 'error', 'inspect failed', 'adopt failed', 'rescue failed', 'service failed']);
export const STABLE_STATES = new Set(['enroll', 'manageable', 'available', 'active', ...FAILED_STATES]);

/** A configdrive as Nova sends it: gzipped, base64 ISO contents (the fake deploy never reads it). */
export const CONFIGDRIVE = Buffer.from('scaleout-test-configdrive').toString('base64');

export const MANAGE_PROVIDE_DEPLOY: Step[] = [
  { action: 'manage', from: 'enroll', to: 'manageable' },
  { action: 'provide', from: 'manageable', to: 'available' },
  { action: 'active', from: 'available', to: 'active', extra: { configdrive: CONFIGDRIVE } },
];

export interface DriveResult {
  uuid: string;
  state: string;
  accepted: number;
  timedOut: boolean;
}

export async function driveNode(baseUrl: string, uuid: string, steps: Step[], deadline: number,
  onAccepted: () => void = () => undefined): Promise<DriveResult> {
  const final = steps[steps.length - 1].to;
  let accepted = 0;
  let state = 'unknown';
  while (Date.now() < deadline) {
    const node = await getNode(baseUrl, uuid);
    if (!node) {
      await sleep(500);
      continue;
    }
    state = node.provision_state;
    if (state === final || FAILED_STATES.has(state)) return { uuid, state, accepted, timedOut: false };
    const step = steps.find((s) => s.from === state);
    if (node.reservation !== null || node.target_provision_state !== null || !step) {
      await sleep(250);
      continue;
    }
    const reply = await setProvisionState(baseUrl, uuid, step.action, step.extra);
    if (reply.status === 202) {
      accepted++;
      onAccepted();
      await sleep(100);
    } else {
      await sleep(500);
    }
  }
  return { uuid, state, accepted, timedOut: true };
}
