import 'monaco-editor/editor/common/model/textModel';
