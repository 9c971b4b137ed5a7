// Differential test harness: the same request sequence against a fresh reference Ironic and a fresh
// candidate (ironic-ts, or a second reference as a self-test of the normalisation), then a structural diff.
//
//   node dist/compat-tests/differential/harness.js [--candidate=ironic-ts|reference] [--groups=a,b]
//        [--dump=FILE]   (FILE: markdown of the raw reference responses)
// --groups runs a subset (every group creates the objects it uses). DIFFTEST_KEEP_DIRS=1 keeps the servers'
// temp dirs (config, logs, sqlite) for inspection. Exit status: 0 identical, 1 differences, 2 harness failure.
import * as fs from 'node:fs';
import { ALL_GROUPS } from './cases';
import { startCandidate } from './candidate-server';
import { compareResponses } from './compare';
import { pickFreePort } from './free-port';
import { sendRaw } from './http-client';
import { acceptedReason } from './known-differences';
import { startReference } from './reference-server';
import { CURRENT_RELEASE, referenceRelease, type ReferenceRelease } from '../support/reference-ironic';
import { formatReport, failingCases, type DifferentialReport } from './report';
import { dumpMarkdown } from './dump';
import { runCases, type StepOutcome, type Target } from './runner';
import type { ServerHandle } from './server-handle';
import type { CaseGroup, CaseResult } from './types';

export type CandidateKind = 'ironic-ts' | 'reference';

export interface DifferentialOptions {
  candidate: CandidateKind;
  groups?: readonly CaseGroup[];
  /** Writes the reference's raw responses as markdown (for the notes). */
  dumpPath?: string;
  log?: (line: string) => void;
}

export async function runDifferential(opts: DifferentialOptions): Promise<DifferentialReport> {
  const release = referenceRelease();
  const groups = (opts.groups ?? ALL_GROUPS).filter((g) => g.onlyRelease === undefined || g.onlyRelease === release);
  const log = opts.log ?? (() => undefined);
  const [reference, candidate] = await startBoth(opts.candidate, log);
  try {
    // An older reference's maximum is not ironic-ts's: every mention of each server's own maximum compares as <max>.
    const everywhere = release !== CURRENT_RELEASE;
    const [refTarget, candTarget] = await Promise.all([targetOf(reference, everywhere), targetOf(candidate, everywhere)]);
    log(`running ${countCases(groups)} cases against ${reference.label} (:${reference.port}) and ${candidate.label} (:${candidate.port})`);
    const [refOut, candOut] = await Promise.all([runCases(refTarget, groups), runCases(candTarget, groups)]);
    if (opts.dumpPath !== undefined) fs.writeFileSync(opts.dumpPath, dumpMarkdown(refOut));
    return { referenceLabel: reference.label, candidateLabel: candidate.label, results: pairResults(refOut, candOut, release) };
  } finally {
    await Promise.all([reference.stop(), candidate.stop()]);
  }
}

async function startBoth(kind: CandidateKind, log: (l: string) => void): Promise<[ServerHandle, ServerHandle]> {
  const refPort = await pickFreePort();
  const candPort = await pickFreePort(new Set([refPort]));
  log(`starting reference on :${refPort} and ${kind} on :${candPort}`);
  const started = await Promise.allSettled([
    startReference('reference', refPort),
    kind === 'reference' ? startReference('reference-2', candPort) : startCandidate('ironic-ts', candPort),
  ]);
  const handles = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failure = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure !== undefined) {
    await Promise.all(handles.map((h) => h.stop()));
    throw failure.reason;
  }
  return [handles[0] as ServerHandle, handles[1] as ServerHandle];
}

/** The maximum version is read from the root document so "latest" answers can be compared across servers. */
async function targetOf(server: ServerHandle, maxVersionEverywhere: boolean): Promise<Target> {
  const root = await sendRaw({ port: server.port, method: 'GET', path: '/', headers: {} });
  let maxVersion = '';
  try {
    const doc = JSON.parse(root.bodyText) as { default_version?: { version?: unknown } };
    if (typeof doc.default_version?.version === 'string') maxVersion = doc.default_version.version;
  } catch {
    // leave empty: nothing will be normalised and the root case itself will show the problem
  }
  return { label: server.label, port: server.port, maxVersion, maxVersionEverywhere };
}

function pairResults(refOut: StepOutcome[], candOut: StepOutcome[], release: ReferenceRelease): CaseResult[] {
  return refOut.map((r, i) => {
    const c = candOut[i] as StepOutcome;
    const key = `${r.group}/${r.name}`;
    return {
      group: r.group,
      name: r.name,
      request: r.request,
      differences: compareResponses(r.response, c.response),
      acceptedReason: acceptedReason(key, release),
    };
  });
}

export function countCases(groups: readonly CaseGroup[]): number {
  return groups.reduce((n, g) => n + g.cases.length, 0);
}

function parseArgs(argv: string[]): { candidate: CandidateKind; groups?: string[]; dump?: string } {
  let candidate: CandidateKind = 'ironic-ts';
  let groups: string[] | undefined;
  let dump: string | undefined;
  for (const a of argv) {
    if (a === '--candidate=reference') candidate = 'reference';
    else if (a === '--candidate=ironic-ts') candidate = 'ironic-ts';
    else if (a.startsWith('--groups=')) groups = a.slice('--groups='.length).split(',');
    else if (a.startsWith('--dump=')) dump = a.slice('--dump='.length);
    else throw new Error(`unknown argument ${a}`);
  }
  return { candidate, groups, dump };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const groups = args.groups === undefined ? ALL_GROUPS : ALL_GROUPS.filter((g) => args.groups?.includes(g.group));
  const report = await runDifferential({
    candidate: args.candidate,
    groups,
    dumpPath: args.dump,
    log: (l) => console.error(l),
  });
  console.log(formatReport(report));
  process.exitCode = failingCases(report).length === 0 ? 0 : 1;
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 2;
  });
}
