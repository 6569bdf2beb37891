// Lint: typescript-eslint's type-checked recommended rules over the TypeScript sources, tests and bench,
// and ESLint's recommended rules over the spectator page's browser script.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'clients/typescript/dist/', 'node_modules/', 'data/', 'bench/results/', 'test-output/'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A leading underscore marks a value kept on purpose (a destructured field left out of a rest, a
      // callback's unused parameter).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Passing on a caught error or a library's rejection as it came is intended.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // An async function without await is still wanted where a caller expects a promise: a throw in it
      // becomes a rejection.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Small functions and files: route tables and the agent guide's template are lists, not logic.
    files: ['src/**/*.ts'],
    ignores: ['src/**/*-routes.ts', 'src/features/operations/skill-guide.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
      'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Tests and the bench read parsed JSON response bodies and event payloads (typed `any` in their
    // clients) field by field; the server's own schemas are what they check.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['src/features/spectator/spectator-page/**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: {
        document: 'readonly',
        location: 'readonly',
        WebSocket: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        window: 'readonly',
        history: 'readonly',
        localStorage: 'readonly',
      },
    },
  },
);
