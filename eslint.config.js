// `npm run lint`: ESLint with typescript-eslint's recommended rules, syntactic only (no type
// information, so no project service and no second compiler run). The toolchain is resolved from
// the tools/lint workspace: docs/decisions.md (Tooling) says why.
import { js, tseslint } from './tools/lint/index.js';

export default tseslint.config(
  {
    ignores: ['**/node_modules/', 'coverage/', 'dist/', 'data/', 'bench/.cache/', 'test-results/', '.c8_output/'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error', reportUnusedInlineConfigs: 'error' },
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      // `_name` marks a parameter or destructured rest that is deliberately dropped.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // The pages' small scripts run in the browser (served by routes/console and routes/explore).
    files: ['routes/*/assets/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: {
        document: 'readonly',
        navigator: 'readonly',
        location: 'readonly',
        console: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
);
