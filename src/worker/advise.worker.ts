/// <reference lib="webworker" />
// The advisor's worker (advise-handlers.ts): started by the page's first Advise.
import { serve } from './serve.ts';
import { adviseHandlers } from './advise-handlers.ts';

serve(adviseHandlers());
