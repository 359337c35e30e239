// Vitest setup: both encodings loaded before any test counts tokens (the page loads them on demand).
import { loadEncodings } from '../src/engine/tokens.ts';

await loadEncodings();
