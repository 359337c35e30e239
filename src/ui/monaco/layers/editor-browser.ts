import 'monaco-editor/editor/browser/widget/codeEditor/codeEditorWidget';
