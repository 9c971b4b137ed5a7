// Runs every differential case against a fresh reference Ironic and a fresh ironic-ts and requires
// identical (normalised) answers. Skips only while the ironic-ts server entry point has not been built.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CANDIDATE_ENTRY, candidateAvailable } from './candidate-server';
import { runDifferential } from './harness';
import { IRONIC_VERSION, referenceRelease } from '../support/reference-ironic';
import { failingCases, formatCase, formatReport } from './report';

const skipReason = !candidateAvailable() ? `ironic-ts server not built yet (${CANDIDATE_ENTRY} missing)` : false;

test(`ironic-ts answers exactly like reference Ironic ${IRONIC_VERSION[referenceRelease()]}`, { skip: skipReason, timeout: 300_000 }, async (t) => {
  const report = await runDifferential({ candidate: 'ironic-ts', log: (line) => t.diagnostic(line) });
  const failing = failingCases(report);
  t.diagnostic(formatReport(report).split('\n').slice(-1)[0] ?? '');
  for (const r of failing) t.diagnostic(formatCase(r, report.referenceLabel, report.candidateLabel));
  assert.equal(
    failing.length,
    0,
    `${failing.length} of ${report.results.length} cases differ: ${failing.map((r) => `[${r.group}] ${r.name}`).join('; ')}`,
  );
});
