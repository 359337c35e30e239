import 'monaco-editor/base/common/lifecycle';
