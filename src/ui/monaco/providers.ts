// Hooks the pure language modules into Monaco: completion, hover and did-you-mean quick fixes for
// agent.leviath, completion and hover for .rhai files.
import { monaco } from './setup.ts';
import { RHAI_LANGUAGE_ID } from '../../rhai/monarch.ts';
import { completeLeviath, didYouMeanFix, hoverLeviath, type CompletionItem, type ItemKind } from './leviathLanguage.ts';
import { completeRhai, hoverRhai } from './rhaiLanguage.ts';
import { useScenario } from '../page.ts';

/** vs-dark with comments bright enough for WCAG AA contrast on its background. */
export const DARK_THEME = 'leviath-dark';
monaco.editor.defineTheme(DARK_THEME, {
  base: 'vs-dark',
  inherit: true,
  colors: {},
  rules: [{ token: 'comment', foreground: '8DBF6E' }],
});

const KIND: Record<ItemKind, monaco.languages.CompletionItemKind> = {
  table: monaco.languages.CompletionItemKind.Module,
  key: monaco.languages.CompletionItemKind.Property,
  value: monaco.languages.CompletionItemKind.EnumMember,
  region: monaco.languages.CompletionItemKind.Reference,
  file: monaco.languages.CompletionItemKind.File,
  snippet: monaco.languages.CompletionItemKind.Snippet,
};

/** The range completion replaces: the word before the cursor, paths and dotted names included. */
function wordRange(model: monaco.editor.ITextModel, position: monaco.Position): monaco.IRange {
  const line = model.getLineContent(position.lineNumber);
  let start = position.column - 1;
  while (start > 0 && /[\w./-]/.test(line.charAt(start - 1))) start--;
  return {
    startLineNumber: position.lineNumber,
    endLineNumber: position.lineNumber,
    startColumn: start + 1,
    endColumn: position.column,
  };
}

function toMonaco(items: CompletionItem[], range: monaco.IRange): monaco.languages.CompletionList {
  return {
    suggestions: items.map((item, k) => ({
      label: item.label,
      insertText: item.insertText,
      kind: KIND[item.kind],
      range,
      detail: item.detail,
      documentation: item.documentation ? { value: item.documentation } : undefined,
      sortText: String(k).padStart(4, '0'),
      insertTextRules:
        item.kind === 'snippet' ? monaco.languages.CompletionItemInsertTextRule.KeepWhitespace : undefined,
    })),
  };
}

function hover(
  result: { word: string; markdown: string } | null,
  model: monaco.editor.ITextModel,
  position: monaco.Position,
): monaco.languages.Hover | null {
  if (!result) return null;
  const word = model.getWordAtPosition(position);
  return {
    contents: [{ value: result.markdown }],
    range: word
      ? {
          startLineNumber: position.lineNumber,
          endLineNumber: position.lineNumber,
          startColumn: word.startColumn,
          endColumn: word.endColumn,
        }
      : undefined,
  };
}

monaco.languages.registerCompletionItemProvider('toml', {
  triggerCharacters: ['"', '[', '.', ' ', '{', '/'],
  provideCompletionItems: (model, position) =>
    toMonaco(
      completeLeviath(
        model.getValue(),
        position.lineNumber,
        position.column,
        Object.keys(useScenario.getState().scenario.agent),
      ),
      wordRange(model, position),
    ),
});

monaco.languages.registerHoverProvider('toml', {
  provideHover: (model, position) =>
    hover(hoverLeviath(model.getValue(), position.lineNumber, position.column), model, position),
});

monaco.languages.registerCodeActionProvider('toml', {
  provideCodeActions: (model, _range, context) => {
    const actions: monaco.languages.CodeAction[] = [];
    for (const marker of context.markers) {
      const underlined = model.getValueInRange(marker);
      const after = model.getLineContent(marker.endLineNumber).slice(marker.endColumn - 1);
      const fix = didYouMeanFix(marker.message, underlined, after);
      if (fix === null) continue;
      actions.push({
        title: `Change to ${fix}`,
        kind: 'quickfix',
        diagnostics: [marker],
        isPreferred: true,
        edit: {
          edits: [{ resource: model.uri, versionId: model.getVersionId(), textEdit: { range: marker, text: fix } }],
        },
      });
    }
    return { actions, dispose: () => {} };
  },
});

monaco.languages.registerCompletionItemProvider(RHAI_LANGUAGE_ID, {
  triggerCharacters: ['.', ' '],
  provideCompletionItems: (model, position) =>
    toMonaco(completeRhai(model.getValue(), position.lineNumber, position.column), wordRange(model, position)),
});

monaco.languages.registerHoverProvider(RHAI_LANGUAGE_ID, {
  provideHover: (model, position) =>
    hover(hoverRhai(model.getValue(), position.lineNumber, position.column), model, position),
});
