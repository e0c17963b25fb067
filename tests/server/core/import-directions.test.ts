// DESIGN.md section 3's import directions are lint errors (eslint.config.js importDirections). These files are linted
// as if they sat in the tree, through ESLint's own API and the project's config, so a rule that stops matching (a
// renamed folder, an option flat config silently replaced) fails here rather than letting a wrong arrow in.
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: process.cwd() });
});

/** The import-direction messages ESLint gives `code` placed at `path` (relative to the repository). */
async function directionErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => m.message);
}

describe('features reach services through hooks', () => {
  const feature = 'src/features/trades/Wrong.tsx';

  it('refuses a feature importing a service', async () => {
    const code = "import { messageOf } from '../../services/http';\nexport const text = messageOf(null, 'x');\n";
    expect(await directionErrors(feature, code)).toEqual([
      expect.stringContaining('Features reach services through hooks'),
    ]);
  });

  it('refuses a service import from a nested feature file and an export from a service', async () => {
    const nested = "import { runBacktest } from '../../../services/backtest/backtest';\nexport { runBacktest };\n";
    expect(await directionErrors('src/features/backtest/parts/Run.ts', nested)).toHaveLength(1);
    const reexport = "export { dayRange } from '../../services/trades/tradesExport';\n";
    expect(await directionErrors(feature, reexport)).toHaveLength(1);
  });

  it('lets a feature name a service type, and reach services through a hook', async () => {
    const code = [
      "import type { OfflineStatus } from '../../services/offline';",
      "import { messageOf } from '../../hooks/errors';",
      'export const f = (s: OfflineStatus) => messageOf(s, "x");',
      '',
    ].join('\n');
    expect(await directionErrors(feature, code)).toEqual([]);
  });

  it('keeps the rules a feature had before: no cache, no server', async () => {
    expect(await directionErrors(feature, "import { openDb } from '../../cache/db';\nvoid openDb;\n")).toEqual([
      expect.stringContaining('Features reach the cache through services'),
    ]);
    expect(await directionErrors(feature, "import { x } from '../../../server/config';\nvoid x;\n")).toEqual([
      expect.stringContaining('The client never imports the server'),
    ]);
  });

  it('lets hooks import the services', async () => {
    const code = "import { messageOf } from '../services/http';\nexport const m = messageOf;\n";
    expect(await directionErrors('src/hooks/wrong.ts', code)).toEqual([]);
  });
});

describe('server directions', () => {
  it('refuses the engine importing HTTP', async () => {
    const code = "import { x } from '../http/users/index';\nvoid x;\n";
    expect(await directionErrors('server/engine/wrong.ts', code)).toEqual([
      expect.stringContaining('The engine never imports HTTP'),
    ]);
  });

  it('refuses the server importing the client', async () => {
    const code = "import { x } from '../../src/lib/format';\nvoid x;\n";
    expect(await directionErrors('server/http/wrong.ts', code)).toEqual([
      expect.stringContaining('The server never imports the client'),
    ]);
  });
});
