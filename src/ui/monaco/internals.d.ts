// The few Monaco internals the editor's loader uses to measure the font ahead of creating the
// editor (monaco-editor ships no typings for them).
declare module 'monaco-editor/editor/browser/config/fontMeasurements' {
  export const FontMeasurements: { readFontInfo(targetWindow: Window, bareFontInfo: unknown): unknown };
}
declare module 'monaco-editor/editor/common/config/fontInfoFromSettings' {
  export function createBareFontInfoFromRawSettings(options: { fontSize?: number }, pixelRatio: number): unknown;
}
declare module 'monaco-editor/base/browser/pixelRatio' {
  export const PixelRatio: { getInstance(targetWindow: Window): { value: number } };
}
