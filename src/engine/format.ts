// How the engine writes numbers in messages: 12,345 (a leaf module, so anything may import it).
export const fmt = (n: number): string => n.toLocaleString('en-US');
