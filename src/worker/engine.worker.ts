/// <reference lib="webworker" />
// The engine's home in the browser: replays, and inspection of the runs they keep.
import { engineHandlers } from './engine-handlers.ts';
import { serve } from './serve.ts';

serve(engineHandlers());
