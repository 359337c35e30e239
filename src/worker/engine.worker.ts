/// <reference lib="webworker" />
// The engine's home in the browser: replays, and inspecting the steps of the replays it keeps (engine-handlers.ts).
import { engineHandlers } from './engine-handlers.ts';
import { serve } from './serve.ts';

serve(engineHandlers());
