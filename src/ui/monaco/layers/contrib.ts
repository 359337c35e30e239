import 'monaco-editor/editor/contrib/suggest/browser/suggestController';
