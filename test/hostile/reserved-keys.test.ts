// Keys JavaScript gives a meaning on every object (__proto__, constructor): smol-toml refuses them though the TOML is
// valid. The diagnostic says so, names the key, and sits where the key is.
import { describe, expect, it } from 'vitest';
import { compileBlueprint } from '../../src/engine/blueprint/index.ts';
import { checkCustomScript } from '../../src/engine/custom-script.ts';

const diagnosticsOf = (toml: string) =>
  compileBlueprint({ 'agent.leviath': toml }, { checkScript: checkCustomScript }).diagnostics;

describe('a TOML key named __proto__ or constructor', () => {
  it('as a stage table is reserved, at the header', () => {
    expect(diagnosticsOf('[stages.constructor]\nmax_attempts = 2\n')).toEqual([
      expect.objectContaining({
        code: 'toml-reserved-key',
        severity: 'error',
        file: 'agent.leviath',
        line: 1,
        column: 2,
        message:
          'The name "constructor" is reserved here: the file is valid TOML, but JavaScript gives "constructor" a special meaning on every object, so the playground cannot use it as a key. Rename it (for example "my_constructor").',
      }),
    ]);
  });

  it('as a region name is reserved, on its own line', () => {
    const [d] = diagnosticsOf('[context.regions]\ntask = { kind = "pinned" }\n__proto__ = { kind = "temporary" }\n');
    expect(d).toMatchObject({ code: 'toml-reserved-key', line: 3, column: 1 });
    expect(d!.message).toMatch(/^The name "__proto__" is reserved here: the file is valid TOML/);
  });

  it('inside an inline table names the key there', () => {
    const [d] = diagnosticsOf('[context.regions]\nnotes = { kind = "temporary", __proto__ = 1 }\n');
    expect(d).toMatchObject({ code: 'toml-reserved-key', line: 2, column: 31 });
    expect(d!.message).toContain('"__proto__"');
  });
});
