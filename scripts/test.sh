#!/usr/bin/env bash
# The whole test suite: installs missing Debian peers, builds, then runs every test file.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-debian-packages.sh
[ -d node_modules ] || npm ci
npx tsc -p tsconfig.json
files=$(find dist/test dist/compat-tests -name '*.test.js' 2>/dev/null | sort)
exec node --test --test-concurrency=2 --test-timeout=600000 --test-reporter=spec $files
