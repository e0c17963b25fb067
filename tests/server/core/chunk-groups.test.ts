// The client build's module groups (tools/chunk-groups.ts) on a small graph shaped like the app's: the entry's
// imports go to `core`, the public screens' own modules to `public`, the signed-in layer to `signed-in` (with the
// socket client it loads lazily), the update flow to `pwa`, and the lazily drawn charts to none.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { closure, groupOf } from '../../../tools/chunk-groups';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const s = (path: string) => resolve(ROOT, path);
const pkg = (name: string) => resolve(ROOT, 'node_modules', name, 'index.js');

const GRAPH: Record<string, { importedIds: string[]; dynamicallyImportedIds: string[] }> = {
  [s('src/main.tsx')]: {
    importedIds: [pkg('react'), s('src/services/session.ts')],
    dynamicallyImportedIds: [s('src/routes/login.tsx'), s('src/routes/appLayout.tsx'), s('src/pwa/index.ts')],
  },
  [pkg('react')]: { importedIds: [], dynamicallyImportedIds: [] },
  [s('src/services/session.ts')]: { importedIds: [], dynamicallyImportedIds: [] },
  [s('src/routes/login.tsx')]: { importedIds: [pkg('react'), s('src/ui/Field.tsx')], dynamicallyImportedIds: [] },
  [s('src/routes/register.tsx')]: { importedIds: [s('src/ui/Field.tsx')], dynamicallyImportedIds: [] },
  [s('src/routes/contactAdmin.tsx')]: { importedIds: [], dynamicallyImportedIds: [] },
  [s('src/ui/Field.tsx')]: { importedIds: [pkg('react')], dynamicallyImportedIds: [] },
  [s('src/routes/appLayout.tsx')]: { importedIds: [s('src/ui/Field.tsx'), pkg('rxjs')], dynamicallyImportedIds: [] },
  [s('src/services/appServices.ts')]: {
    importedIds: [pkg('rxjs'), s('src/services/realtime/socketLink.ts')],
    dynamicallyImportedIds: [],
  },
  [s('src/services/realtime/socketLink.ts')]: { importedIds: [], dynamicallyImportedIds: [pkg('socket.io-client')] },
  [pkg('socket.io-client')]: { importedIds: [], dynamicallyImportedIds: [] },
  [pkg('rxjs')]: { importedIds: [], dynamicallyImportedIds: [] },
  [s('src/routes/dashboard.tsx')]: {
    importedIds: [s('src/features/charts/SpreadChartCard.tsx')],
    dynamicallyImportedIds: [],
  },
  [s('src/features/charts/SpreadChartCard.tsx')]: {
    importedIds: [],
    dynamicallyImportedIds: [s('src/features/charts/SpreadCanvas.tsx')],
  },
  [s('src/features/charts/SpreadCanvas.tsx')]: { importedIds: [pkg('lightweight-charts')], dynamicallyImportedIds: [] },
  [pkg('lightweight-charts')]: { importedIds: [], dynamicallyImportedIds: [] },
  [s('src/features/toasts/ToastHost.tsx')]: { importedIds: [], dynamicallyImportedIds: [] },
  [s('src/pwa/index.ts')]: {
    importedIds: [],
    dynamicallyImportedIds: [pkg('workbox-window'), s('src/pwa/swUpdates.ts')],
  },
  [s('src/pwa/swUpdates.ts')]: { importedIds: [], dynamicallyImportedIds: [] },
  [s('src/pwa/formEditing.ts')]: { importedIds: [], dynamicallyImportedIds: [] },
  [pkg('workbox-window')]: { importedIds: [], dynamicallyImportedIds: [] },
};
const graph = { getModuleInfo: (id: string) => GRAPH[id] ?? null };

describe('client chunk groups', () => {
  it('follows static imports, and dynamic ones only where asked', () => {
    expect(closure([s('src/main.tsx')], graph)).toEqual(
      new Set([s('src/main.tsx'), pkg('react'), s('src/services/session.ts')]),
    );
    expect(
      closure([s('src/services/realtime/socketLink.ts')], graph, (id) => id.includes('socket.io')).has(
        pkg('socket.io-client'),
      ),
    ).toBe(true);
  });

  it('keeps the entry, puts its imports in core and never a public module in the signed-in group', () => {
    const group = groupOf(graph);
    expect(group(s('src/main.tsx'))).toBeNull();
    expect(group(pkg('react'))).toBe('core');
    expect(group(s('src/services/session.ts'))).toBe('core');
    expect(group(s('src/routes/login.tsx'))).toBe('public');
    // Shared by the sign-in form and the signed-in layout: /login must not load the signed-in chunk for it.
    expect(group(s('src/ui/Field.tsx'))).toBe('public');
    expect(group(s('src/routes/appLayout.tsx'))).toBe('signed-in');
    expect(group(s('src/services/appServices.ts'))).toBe('signed-in');
    expect(group(pkg('rxjs'))).toBe('signed-in');
    expect(group(pkg('socket.io-client'))).toBe('signed-in');
    expect(group(s('src/routes/dashboard.tsx'))).toBe('signed-in');
    expect(group(s('src/pwa/swUpdates.ts'))).toBe('pwa');
    expect(group(pkg('workbox-window'))).toBe('pwa');
    // Charts load only where drawn.
    expect(group(s('src/features/charts/SpreadCanvas.tsx'))).toBeNull();
    expect(group(pkg('lightweight-charts'))).toBeNull();
  });
});
