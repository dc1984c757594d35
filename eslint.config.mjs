// make lint's JS linter: eslint's recommended rules on our JS (the page's modules in www/, the
// end-to-end tests, the scripts, the consumer sites' own files). eslint and its rules are npm
// tools in .tools/node (tools/package.json, installed with npm ci by scripts/install-tools.sh).
import { createRequire } from 'node:module';

const require = createRequire(new URL('.tools/node/package.json', import.meta.url));
const js = require('@eslint/js');
const globals = require('globals');

export default [
  {
    // Built or installed files, and the host sites' copies (../shared, not ours).
    ignores: ['dist/**', 'target/**', '.tools/**', '**/node_modules/**', 'fuzz/**', 'tests/consumers/*/build/**', 'tests/consumers/*/dist/**'],
  },
  js.configs.recommended,
  // The page's modules and the consumer sites' code run in the browser.
  { files: ['www/**/*.js', 'bench/**/*.js', 'tests/consumers/**/*.js'], languageOptions: { globals: globals.browser } },
  // The converter's worker.
  { files: ['www/pkg-migrate/converter-worker.js'], languageOptions: { globals: globals.worker } },
  // The tests and scripts run in Node, and hand functions to the page (page.evaluate) that run there.
  { files: ['**/*.mjs'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
  // Docusaurus and Vite read their configs in Node.
  { files: ['tests/consumers/*/*.config.js'], languageOptions: { globals: globals.node } },
];
