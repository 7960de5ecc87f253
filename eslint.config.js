// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Product code never depends on the development tools (sandbox providers, playground): they are
// demo and test fixtures, not something the bot may run in production. (A later `files` block's
// `no-restricted-imports` replaces an earlier one, so each block lists this pattern again.)
/** The store's write methods (src/store/contract.ts), as an esquery name pattern. */
const storeWrites =
  '/^(update|upsert|setActive|save|write|delete|remove|create|createMany|settle|enqueue|link|unlink|migrate|markDone|add|addUpdates|reseal|claim.*|release.*|renew.*)$/';

const noTools = {
  regex: '(^|/)tools(/|$)',
  message: 'src/ must not import from tools/ (sandbox and playground are tools, not product).',
};

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'coverage/', 'dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    // Type-aware rules read the TypeScript program through the project service (tsconfig.json).
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    // Plain JavaScript (this file) is not part of the TypeScript program: lint it without types.
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // CommonJS test fixtures loaded with require() in a worker thread: no types either.
    files: ['**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly', setImmediate: 'readonly' },
    },
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [noTools],
        },
      ],
    },
  },
  {
    // The bot reaches the providers only through the services (DESIGN.md); the types and pure
    // helpers it needs are re-exported by src/services/providers.ts.
    files: ['src/bot/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noTools,
            {
              regex: '(^|/)providers/',
              message: 'bot/ imports providers only through services (src/services/providers.ts re-exports what the bot needs).',
            },
          ],
        },
      ],
      // One writer per record (DESIGN.md): the bot reads the store, and changes it only through a
      // service (services/accounts.ts, group-links.ts, purchases.ts ...).
      'no-restricted-syntax': [
        'error',
        ...[
          `CallExpression[callee.property.name=${storeWrites}][callee.object.object.property.name='db']`,
          `CallExpression[callee.property.name=${storeWrites}][callee.object.object.name='db']`,
        ].map((selector) => ({
          selector,
          message: 'bot/ writes nothing to the store: call the service that owns the record (src/services/).',
        })),
      ],
    },
  },
);
