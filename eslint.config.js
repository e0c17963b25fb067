import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-server/**',
      'data/**',
      'node_modules/**',
      'coverage/**',
      'server/db/migrations/**',
      'test-results/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  ...importDirections(),
);

/**
 * DESIGN.md section 3 as lint errors: imports flow downhill only. Each restriction names a folder that a relative
 * import must not reach. Flat config replaces a rule's options per file rather than merging them, so every folder
 * below gets one entry holding its own restrictions and those of the folders around it.
 */
function importDirections() {
  const reaching = (folders, message) => ({ regex: `^(\\.{1,2}/)+(${folders})(/|$)`, message });
  const TESTS = reaching(
    'tests',
    'Only tests import tests/. What benchmarks or tools share with tests belongs in tools/.',
  );
  const TOOLS = reaching(
    'tools',
    'Shipped code (server, client, contract) never imports the development tooling in tools/.',
  );
  const SERVER = reaching('server', 'The client never imports the server; what both need is in contract/.');
  const CLIENT = reaching('src|sw', 'The server never imports the client; what both need is in contract/.');
  const LOCAL = {
    regex: '^\\.\\./',
    message: 'contract/ imports nothing local: both sides import it, it imports neither.',
  };
  const into = (folder, message) => reaching(`(server/)?${folder}`, message);
  const clientInto = (folders, message) => reaching(`(src/)?(${folders})`, message);

  const TRADING_STATE = reaching(
    '(server/)?db/repositories/trading-state',
    "Only server/trading writes a user's trading state: call its TradingControl (the engine: its stop recorder).",
  );
  const NOT_TRADING = (who) =>
    into('trading', `${who} never imports server/trading: the trading-state owner sits above it and calls it.`);
  const server = [TESTS, TOOLS, CLIENT, TRADING_STATE];
  const client = [TESTS, TOOLS, SERVER];
  const layers = [
    { files: ['contract/**/*.ts'], forbid: [LOCAL] },
    { files: ['server/**/*.ts'], forbid: server },
    {
      files: ['server/engine/**/*.ts'],
      forbid: [
        ...server,
        into('http', 'The engine never imports HTTP; HTTP calls the engine through its ports.'),
        NOT_TRADING('The engine'),
      ],
    },
    {
      files: ['server/trading/**/*.ts'],
      forbid: [TESTS, TOOLS, CLIENT, into('http', 'The trading-state owner never imports HTTP; handlers call it.')],
    },
    {
      files: ['server/db/**/*.ts'],
      forbid: [
        ...server,
        into(
          'engine',
          "Storage never imports the engine; the engine's storage adapters (server/engine/storage) import db.",
        ),
        into('http', 'Storage never imports HTTP; handlers call the repositories.'),
        NOT_TRADING('Storage'),
      ],
    },
    {
      files: ['server/venues/**/*.ts'],
      forbid: [
        ...server,
        into(
          'engine|http|db|trading',
          'Venues know nothing of the engine, HTTP, storage or trading state; they meet through server/venues/types.ts.',
        ),
      ],
    },
    { files: ['src/**/*.{ts,tsx}'], forbid: client },
    {
      files: ['src/features/**/*.{ts,tsx}'],
      forbid: [
        ...client,
        clientInto('cache', 'Features reach the cache through services (and hooks), never directly.'),
      ],
    },
    {
      files: ['src/services/**/*.ts'],
      forbid: [
        ...client,
        clientInto(
          'routes|features|hooks|ui',
          'Services are React-free and below the screens: they never import routes, features, hooks or ui.',
        ),
      ],
    },
    {
      files: ['src/cache/**/*.ts'],
      forbid: [
        ...client,
        clientInto(
          'routes|features|hooks|ui|services',
          'The cache is the bottom of the client: it imports only contract/.',
        ),
      ],
    },
    {
      files: ['src/ui/**/*.{ts,tsx}'],
      forbid: [
        ...client,
        clientInto('routes|features|hooks|services|cache', 'Design-system primitives import only styles and lib.'),
      ],
    },
    {
      files: ['src/lib/**/*.ts'],
      forbid: [
        ...client,
        clientInto(
          'routes|features|hooks|services|cache|ui|styles',
          'lib/ holds pure helpers: it imports only contract/.',
        ),
      ],
    },
    { files: ['sw/**/*.ts'], forbid: client },
    // Asset scripts run at development time, with the shared tooling.
    { files: ['sw/tools/**/*.ts'], forbid: [TESTS, SERVER] },
    { files: ['bench/**/*.ts', 'tools/**/*.ts'], forbid: [TESTS] },
  ];
  const tests = ['**/*.test.ts', '**/*.test.tsx'];
  return [
    ...layers.map(({ files, forbid }) => ({
      files,
      ignores: tests,
      rules: { 'no-restricted-imports': ['error', { patterns: forbid }] },
    })),
    // Features reach the services through hooks (src/hooks); naming a service's types stays allowed, since a type
    // import carries no code and no way to call anything. A rule of its own, as only this one knows type imports.
    {
      files: ['src/features/**/*.{ts,tsx}'],
      ignores: tests,
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                ...clientInto(
                  'services',
                  'Features reach services through hooks (src/hooks); only type imports may name src/services.',
                ),
                allowTypeImports: true,
              },
            ],
          },
        ],
      },
    },
    // Unit tests beside the code may import test support, never across the client/server line.
    { files: ['src/**/*.test.{ts,tsx}'], rules: { 'no-restricted-imports': ['error', { patterns: [SERVER] }] } },
    {
      files: ['server/**/*.test.ts', 'contract/**/*.test.ts'],
      rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT] }] },
    },
  ];
}
