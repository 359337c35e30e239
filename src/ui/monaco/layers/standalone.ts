import 'monaco-editor/editor/editor.api';
