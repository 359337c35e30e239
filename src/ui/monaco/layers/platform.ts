import 'monaco-editor/platform/instantiation/common/instantiation';
