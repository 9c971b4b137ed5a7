// ESLint with typed rules over the project's TypeScript (run by scripts/lint.sh). Only rules that
// need type information and catch real defects: promises left floating or passed where a callback's
// result is ignored, awaits on non-promises, and for-in over arrays.
import tseslint from 'typescript-eslint';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const NODE_TEST_CALLS = ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'];
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'lint/**'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'compat-tests/**/*.ts', 'bench/**/*.ts', 'migrations/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { project: path.join(repo, 'tsconfig.json'), tsconfigRootDir: repo },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // node:test's test/describe/it return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': ['error', {
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: NODE_TEST_CALLS }],
      }],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-for-in-array': 'error',
    },
  },
  {
    // No `any` in the product; tests read untyped JSON answers and may use it.
    files: ['src/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
);
