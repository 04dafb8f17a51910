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
    // One statement-preparation convention (db/statements.ts, docs/decisions.md): fixed SQL is prepared
    // inside statementsFor, SQL built at run time through preparedSql. The files listed run once per
    // process or command (migrations, backup, the demo check, the impact register's load and its whole
    // read for a run, the consistency check, CLI commands) and prepare where they run.
    files: ['app.ts', 'main.ts', 'cli/**/*.ts', 'db/**/*.ts', 'lib/**/*.ts', 'routes/**/*.ts'],
    ignores: [
      'db/statements.ts',
      'db/migrate.ts',
      'db/backup.ts',
      'db/demo.ts',
      'db/impact/load.ts',
      'db/impact/register.ts',
      'db/human/invariants.ts',
      'cli/human.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[optional=false][callee.property.name='prepare']:not(CallExpression[callee.name='statementsFor'] CallExpression)",
          message:
            'Prepare fixed SQL inside statementsFor((db) => ({ … })), and SQL built at run time with preparedSql(db, sql) (db/statements.ts).',
        },
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
