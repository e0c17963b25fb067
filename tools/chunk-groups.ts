// How the client build groups modules into files. Left to itself the bundler gives every shared module its own chunk,
// so a signed-in cold start of /dashboard fetched 44 JavaScript files before the first price. Four groups fix that
// without touching what /login loads:
// - `core`: the entry's static imports (React, the router, the session), one file instead of several shared pieces;
// - `public`: what the screens without a session add (the sign-in form's fields, validation, buttons);
// - `signed-in`: everything the signed-in layout, its data layer and the Dashboard need (their static imports, plus the
//   socket client and the toasts, which load with a session), less whatever the public screens already load;
// - `pwa`: the service worker's update flow, loaded after the first screen of any visit.
// The charts stay lazy: they load only where drawn. The chart library and the module that makes every chart with it
// (src/features/charts/chartStack.ts, its only importer) share one file named after the library, `lightweight-charts`;
// each canvas keeps its own small chunk.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const source = (path: string) => resolve(ROOT, path);

/** The entry: every visit runs it. */
const ENTRY = source('src/main.tsx');
/** The screens without a session: sign-in (the landing route, preloaded from the HTML), registration, contact. */
const PUBLIC_ROOTS = ['src/routes/login.tsx', 'src/routes/register.tsx', 'src/routes/contactAdmin.tsx'].map(source);
/** The signed-in layout, the data layer it loads, and the landing screen of a signed-in start. */
const SIGNED_IN_ROOTS = [
  'src/routes/appLayout.tsx',
  'src/services/appServices.ts',
  'src/routes/dashboard.tsx',
  'src/features/toasts/ToastHost.tsx',
].map(source);
/** Lazily imported packages that every signed-in start loads at once. */
const SIGNED_IN_PACKAGES = /[\\/]node_modules[\\/](socket\.io-client|react-toastify)[\\/]/;
const PWA_ROOTS = ['src/pwa/swUpdates.ts', 'src/pwa/formEditing.ts'].map(source);
const PWA_PACKAGES = /[\\/]node_modules[\\/]workbox-window[\\/]/;
/** The chart library (and the canvas helper it is built on) with the app's one way of making a chart. */
const CHART_MODULES =
  /[\\/]node_modules[\\/](lightweight-charts|fancy-canvas)[\\/]|[\\/]src[\\/]features[\\/]charts[\\/]chartStack\.ts$/;

interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null;
}

/** Modules reachable through static imports (and the dynamic imports `follow` accepts). Pure: tests pin it. */
export function closure(
  starts: readonly string[],
  graph: ModuleGraph,
  follow: (id: string) => boolean = () => false,
): Set<string> {
  const seen = new Set<string>();
  const stack = [...starts];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    const info = graph.getModuleInfo(id);
    if (!info) continue;
    seen.add(id);
    stack.push(...info.importedIds, ...info.dynamicallyImportedIds.filter(follow));
  }
  return seen;
}

/** Assigns each module its group (or none: the bundler's own chunking), from the module graph of this build. */
export function groupOf(graph: ModuleGraph): (id: string) => 'core' | 'public' | 'signed-in' | 'pwa' | null {
  const core = closure([ENTRY], graph);
  const open = closure(PUBLIC_ROOTS, graph);
  const signedIn = closure(SIGNED_IN_ROOTS, graph, (id) => SIGNED_IN_PACKAGES.test(id));
  const pwaImports = graph.getModuleInfo(source('src/pwa/index.ts'))?.dynamicallyImportedIds ?? [];
  const pwa = closure([...PWA_ROOTS, ...pwaImports.filter((id) => PWA_PACKAGES.test(id))], graph);
  return (id) => {
    // The entry's modules in one file (not the entry plus a shared chunk for React, one for the router, ...), the
    // public screens' own modules in another.
    if (id === ENTRY) return null; // the entry chunk stays the HTML's script
    if (core.has(id)) return 'core';
    if (open.has(id)) return 'public';
    // Every visit loads the update flow, so it never waits on the signed-in chunk.
    if (pwa.has(id)) return 'pwa';
    if (signedIn.has(id)) return 'signed-in';
    return null;
  };
}

/** Rolldown's `output.codeSplitting` for the client build. */
export function clientChunkGroups() {
  // One classification per build: the graph is complete by the time chunks are named.
  let classify: ReturnType<typeof groupOf> | null = null;
  return {
    groups: [
      {
        name: (id: string, ctx: ModuleGraph) => (classify ??= groupOf(ctx))(id),
        debugName: 'client module groups',
        // A grouped module's imports that the public screens load stay where they are (React, the router, the
        // session): pulling them in would make /login fetch the whole signed-in chunk.
        includeDependenciesRecursively: false,
      },
      {
        // Only what no group above took: nothing of the charts is reachable without a dynamic import.
        name: (id: string) => (CHART_MODULES.test(id) ? 'lightweight-charts' : null),
        debugName: 'the chart library',
        // chartTheme.ts, which chartStack.ts imports, belongs to the cards that hold a chart: it stays with them.
        includeDependenciesRecursively: false,
      },
    ],
  };
}
