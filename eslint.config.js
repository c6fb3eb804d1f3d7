import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const AXIOS = { group: ['axios'], message: 'The UI calls the worker, never the network.' };
const UI_TO_WORKER = { group: ['**/worker/**'], message: 'The UI reaches the worker through src/engine/ only (its types: src/engine/types.ts).' };
/** react-toastify loads with the first toast (ui/toasts.ts showToast), never in a screen's chunk. */
const TOASTIFY = { group: ['react-toastify'], allowTypeImports: true, message: 'Raise toasts with showToast (src/ui/toasts.ts): the library loads with the first one.' };
const UI_TO_SERVER = { group: ['**/server/**'], message: 'Only tests and scripts import the server.' };
/** A screen's folder imports the shared layers (parts/, ui/, engine/, app/'s nav), never another screen's folder. */
const SCREEN_TO_SCREEN = { group: ['../*/**', '!../../**'], message: 'A screen does not import another screen: shared pieces live in src/parts/ or src/ui/.' };
const PARTS_TO_SCREENS = { group: ['**/screens/**'], message: 'src/parts/ and src/ui/ do not import screens.' };

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'bench/results/', 'dev-dist/', '.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // The import rules each folder's CONTEXT.md states. A later block for the same files replaces an earlier one's
  // no-restricted-imports, so each block lists every rule for its files.
  {
    // The UI talks to the network only through the engine (ARCHITECTURE.md); only src/engine/ reaches the worker.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/engine/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [AXIOS, TOASTIFY, UI_TO_WORKER, UI_TO_SERVER] }],
    },
  },
  {
    files: ['src/screens/*/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [AXIOS, TOASTIFY, UI_TO_WORKER, UI_TO_SERVER, SCREEN_TO_SCREEN] }],
    },
  },
  {
    files: ['src/parts/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [AXIOS, TOASTIFY, UI_TO_WORKER, UI_TO_SERVER, PARTS_TO_SCREENS] }],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [AXIOS, TOASTIFY, UI_TO_WORKER, UI_TO_SERVER, { group: ['**/screens/**', '**/parts/**', '**/app/**'], message: 'src/ui/ is the bottom layer: it imports no screen, part or app module.' }] },
      ],
    },
  },
  {
    files: ['src/engine/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [AXIOS, TOASTIFY, { ...UI_TO_WORKER, allowTypeImports: true, message: 'src/engine/ takes only types from worker/.' }, UI_TO_SERVER] }],
    },
  },
  {
    // The engine and the service worker: no DOM code, no React, nothing of the UI or the server.
    files: ['worker/**/*.ts', 'sw/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['react', 'react-dom', 'wouter', 'react-toastify', '@tanstack/react-query'].map((name) => ({ name, message: 'The engine has no UI.' })),
          patterns: [{ group: ['**/src/**'], message: 'The engine does not import the UI.' }, UI_TO_SERVER],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/src/**', '**/worker/**', '**/sw/**'], message: 'The server imports contract/ and packages only.' }] }],
    },
  },
  {
    files: ['contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/src/**', '**/worker/**', '**/sw/**', '**/server/**'], message: 'contract/ imports only zod and itself.' }] }],
    },
  },
);
