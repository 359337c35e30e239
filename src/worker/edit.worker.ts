/// <reference lib="webworker" />
// The light worker: Rhai parse errors and the validation of edits that wait for Run (edit-handlers.ts).
import { editHandlers } from './edit-handlers.ts';
import { serve } from './serve.ts';

serve(editHandlers());
