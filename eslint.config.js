// Type-aware lint: no-floating-promises and no-misused-promises matter most in servers.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';


// esign's allowed imports (docs/ARCHITECTURE.md, "esign's layers"): each folder of
// packages/esign/src may import only the folders and top-level files listed for it; the
// composition roots (server.ts, serve.ts, cli.ts, index.ts) may import anything. The graph has no cycle:
// domain is pure (it imports only the error catalog), the store implements domain's ports,
// wire holds DocuSign's JSON shapes, and the feature folders are adapters over them.
const ESIGN_ALLOWED_IMPORTS = {
  domain: ['errors.ts'],
  wire: ['domain', 'errors.ts'],
  store: ['domain', 'errors.ts'],
  security: ['errors.ts'],
  background: [],
  // Message catalogs and their formatter: pure, they know only the domain's language codes.
  i18n: ['domain'],
  web: ['domain', 'errors.ts', 'security', 'store', 'context.ts'],
  mail: ['domain', 'errors.ts', 'background', 'i18n', 'store', 'web'],
  'use-cases': ['domain', 'errors.ts', 'mail', 'security', 'store'],
  oauth: ['domain', 'errors.ts', 'security', 'store', 'web', 'context.ts'],
  connect: ['domain', 'errors.ts', 'background', 'mail', 'store', 'wire', 'context.ts'],
  reminders: ['domain', 'errors.ts', 'background', 'mail', 'store', 'wire', 'context.ts'],
  // Bulk send's routes and worker: the domain's use cases over the store's ports, wire shapes.
  'bulk-send': ['domain', 'errors.ts', 'background', 'wire'],
  completion: ['domain', 'errors.ts', 'background', 'i18n', 'mail', 'store', 'config.ts'],
  console: ['domain', 'errors.ts', 'connect', 'security', 'store', 'use-cases', 'web', 'context.ts'],
  restapi: ['domain', 'errors.ts', 'connect', 'mail', 'oauth', 'reminders', 'security', 'store', 'wire', 'context.ts'],
  // The signing pages speak the recipient's language: the catalogs are pure (i18n above).
  signing: ['domain', 'errors.ts', 'completion', 'i18n', 'mail', 'reminders', 'restapi', 'security', 'store', 'web', 'context.ts'],
  // The verification page speaks the sealing account's language: the catalogs are pure (i18n above).
  verify: ['domain', 'i18n', 'store', 'web'],
};
const ESIGN_TOP = ['background', 'bulk-send', 'completion', 'connect', 'console', 'domain', 'i18n', 'mail', 'oauth', 'reminders', 'restapi', 'security', 'signing', 'store', 'use-cases', 'verify', 'web', 'wire'];
const ESIGN_TOP_FILES = ['cli.ts', 'config.ts', 'context.ts', 'errors.ts', 'index.ts', 'serve.ts', 'server.ts'];
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** One config block per folder and depth: `../` × depth reaches src/, so the specifier says which top-level folder it names. */
function esignImportRules() {
  return Object.entries(ESIGN_ALLOWED_IMPORTS).flatMap(([folder, allowed]) => {
    const banned = [...ESIGN_TOP, ...ESIGN_TOP_FILES].filter((x) => x !== folder && !allowed.includes(x));
    return [1, 2, 3].map((depth) => ({
      files: [`packages/esign/src/${folder}/${'*/'.repeat(depth - 1)}*.ts`],
      ignores: ['**/*.test.ts'],
      rules: {
        'no-restricted-imports': ['error', { patterns: [{
          regex: `^(\\.\\./){${depth}}(${banned.map((b) => (b.endsWith('.ts') ? `${escape(b)}$` : `${escape(b)}/`)).join('|')})`,
          message: `esign/src/${folder} may import only ${allowed.join(', ') || 'nothing'} of esign's folders (ESIGN_ALLOWED_IMPORTS in eslint.config.js).`,
        }] }],
      },
    }));
  });
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'var/**', '.tmp/**', '**/vendor/**', 'coverage/**'] },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      // node:test's test()/describe() return promises that the runner itself awaits.
      '@typescript-eslint/no-floating-promises': ['error', {
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }],
      }],
    },
  },
  ...esignImportRules(),
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { ...globals.node } },
  },
);
