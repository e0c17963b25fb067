// The one zod the contract's schemas are built with. In a browser, zod's JIT (it compiles object parsers with
// `new Function`) is switched off before any schema exists: the app's Content-Security-Policy forbids eval, and zod's
// probe for it would be reported as a violation. The server keeps the JIT.
import { z } from 'zod';

if (typeof window !== 'undefined') z.config({ jitless: true });

export { z };
