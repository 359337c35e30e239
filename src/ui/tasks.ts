// Yielding to the browser between steps of long work, so each step is a task of its own.

/** Resolves in a later task, after the browser has run what was waiting (paint, a worker's message). */
export const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve));

/** Resolves after the next frame has been rendered. */
export const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
