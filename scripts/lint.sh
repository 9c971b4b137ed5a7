#!/usr/bin/env bash
# Static checks of the test command: ESLint with typed rules, and the module checks (no import
# cycle in src/, no unused export). Both live in lint/, a package of its own: typescript-eslint
# needs TypeScript 5's compiler API, which the project's TypeScript 7 does not ship.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d lint/node_modules ] || npm ci --prefix lint --no-audit --no-fund >/dev/null
lint/node_modules/.bin/eslint -c lint/eslint.config.mjs --max-warnings 0 src test compat-tests bench migrations
echo "eslint: no problems"
node lint/module-checks.mjs "$@"
