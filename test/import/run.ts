// One realistic coding-agent run, the source of every fixture (build-fixtures.ts writes it in each
// format, with that format's own quirks): a task, parallel reads (one of a long file), a failing
// test run (an error result), a plan, a user handoff from analysis to implementation, an edit and
// a passing run.

export const TASK =
  'The header parser rejects headers with an empty value (`X-Empty:`). Make it accept them and add a test.';
export const SYSTEM_PROMPT =
  'You are a coding agent working in a Rust repository. Use the tools to read, search, edit and test. Keep changes small.';

const FIELDS = ['name', 'value', 'raw', 'offset', 'len', 'flags'];

/** A long source file (about 4,000 tokens): what a real read of a big module returns. */
export const HEADER_RS = (() => {
  const out = ['//! HTTP/1.1 header parsing.', 'use crate::errors::ParseError;', ''];
  for (let i = 0; i < 60; i++) {
    const field = FIELDS[i % FIELDS.length]!;
    out.push(`/// Reads the ${field} of header ${i} from the buffer, checking the limit first.`);
    out.push(`pub fn read_${field}_${i}(buf: &[u8], limit: usize) -> Result<usize, ParseError> {`);
    out.push(`    if buf.len() > limit { return Err(ParseError::TooLong { at: ${i * 16}, limit }); }`);
    out.push(`    Ok(buf.iter().take_while(|b| **b != b':').count() + ${i})`);
    out.push('}');
    out.push('');
  }
  out.push('pub fn parse_header(line: &str) -> Result<(String, String), ParseError> {');
  out.push("    let (name, value) = line.split_once(':').ok_or(ParseError::NoColon)?;");
  out.push('    let value = value.trim();');
  out.push('    if value.is_empty() { return Err(ParseError::EmptyValue); }');
  out.push('    Ok((name.trim().to_string(), value.to_string()))');
  out.push('}');
  return out.join('\n') + '\n';
})();

export const GREP_OUTPUT =
  'src/parser/header.rs:366:    if value.is_empty() { return Err(ParseError::EmptyValue); }\nsrc/errors.rs:14:    EmptyValue,';
export const TEST_FAIL =
  'running 12 tests\ntest header::tests::empty_value ... FAILED\n\nfailures:\n---- header::tests::empty_value stdout ----\nthread panicked: called `Result::unwrap()` on an `Err` value: EmptyValue\n\ntest result: FAILED. 11 passed; 1 failed';
export const PLAN =
  'The parser returns ParseError::EmptyValue when the value is blank (src/parser/header.rs:366). Plan: drop that check, keep trimming, and add a test for `X-Empty:`.';
export const HANDOFF = 'Plan approved. Go ahead and implement it.';
export const TESTS_RS =
  'use parser::header::parse_header;\n\n#[test]\nfn simple() {\n    assert_eq!(parse_header("Host: a").unwrap().1, "a");\n}\n';
export const EDIT_OK = 'The file src/parser/header.rs has been updated.';
export const TEST_PASS = 'running 13 tests\ntest result: ok. 13 passed; 0 failed';
export const DONE =
  'Empty header values are accepted now: the EmptyValue check is gone and tests/header.rs covers `X-Empty:`. All 13 parser tests pass.';

export const EDIT_ARGS = {
  path: 'src/parser/header.rs',
  old_string: '    if value.is_empty() { return Err(ParseError::EmptyValue); }\n',
  new_string: '',
};
