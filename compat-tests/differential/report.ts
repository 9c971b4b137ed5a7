// Human-readable rendering of a differential run.
import type { CaseResult } from './types';

export interface DifferentialReport {
  referenceLabel: string;
  candidateLabel: string;
  results: CaseResult[];
}

export function failingCases(report: DifferentialReport): CaseResult[] {
  return report.results.filter((r) => r.differences.length > 0 && r.acceptedReason === undefined);
}

export function formatCase(r: CaseResult, referenceLabel: string, candidateLabel: string): string {
  const lines = [`✗ [${r.group}] ${r.name}`, `    ${r.request}`];
  for (const d of r.differences) {
    lines.push(`    ${d.path}`, `      ${referenceLabel}: ${d.reference}`, `      ${candidateLabel}: ${d.candidate}`);
  }
  return lines.join('\n');
}

export function formatReport(report: DifferentialReport): string {
  const failing = failingCases(report);
  const accepted = report.results.filter((r) => r.differences.length > 0 && r.acceptedReason !== undefined);
  const out = failing.map((r) => formatCase(r, report.referenceLabel, report.candidateLabel));
  for (const r of accepted) out.push(`~ [${r.group}] ${r.name}: accepted difference (${r.acceptedReason ?? ''})`);
  out.push(
    `${report.results.length} cases, ${report.results.length - failing.length - accepted.length} identical, ` +
      `${failing.length} different, ${accepted.length} accepted (${report.referenceLabel} vs ${report.candidateLabel})`,
  );
  return out.join('\n');
}
