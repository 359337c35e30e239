import 'monaco-editor/base/browser/dom';
