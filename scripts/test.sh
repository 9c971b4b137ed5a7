#!/usr/bin/env bash
# The whole test suite: installs missing Debian peers, builds, then runs every test file.
# The suites that compare with a reference Ironic run against 21.4.4 in the main pass and again
# against 29.0.5 (IRONIC_REFERENCE_RELEASE=2025.1, in the Debian 13 root) after it.
# The scale-out tests stop and restart the shared MariaDB and RabbitMQ, so they run last, alone.
# The runner's timeout (30 min) bounds each test file as a whole too: the VM end-to-end files run ~10 minutes.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-debian-packages.sh || exit 1
[ -d node_modules ] || npm ci || exit 1
rm -rf dist  # a stale build of a moved module would shadow the new one
npx tsc -p tsconfig.json || exit 1
bash scripts/lint.sh || exit 1
runner=(node --test --test-timeout=1800000 --test-reporter=spec)
main=$(find dist/test dist/compat-tests -name '*.test.js' -not -path 'dist/compat-tests/scaleout/*' | sort)
scaleout=$(find dist/compat-tests/scaleout -name '*.test.js' 2>/dev/null | sort)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"${runner[@]}" --test-concurrency=2 $main 2>&1 | tee "$log"
main_rc=${PIPESTATUS[0]}
reference_2025=(dist/compat-tests/differential/differential.test.js dist/compat-tests/states/state-machine.test.js)
IRONIC_REFERENCE_RELEASE=2025.1 "${runner[@]}" --test-concurrency=2 "${reference_2025[@]}" 2>&1 | tee -a "$log"
reference_rc=${PIPESTATUS[0]}
scaleout_rc=0
if [ -n "$scaleout" ]; then
  "${runner[@]}" --test-concurrency=1 $scaleout 2>&1 | tee -a "$log"
  scaleout_rc=${PIPESTATUS[0]}
fi
sum() { grep -E "^ℹ $1 [0-9]+$" "$log" | awk '{s += $3} END {print s + 0}'; }
echo "main suite exit $main_rc, against 29.0.5 exit $reference_rc, scale-out suite exit $scaleout_rc"
echo "tests: $(sum pass) passed, $(sum fail) failed"
[ "$main_rc" -eq 0 ] && [ "$reference_rc" -eq 0 ] && [ "$scaleout_rc" -eq 0 ]
