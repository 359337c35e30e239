// Imported first by main.tsx: zod's JIT probes `new Function`, which the page's CSP forbids (and
// reports as a violation even when caught). The interpreter path is plenty fast for our schemas.
import { z } from 'zod';

z.config({ jitless: true });
