import { describe, expect, it } from 'vitest';
import { manifestOf, readDependencies } from './read-dependencies.js';

const keys = (manifest: Parameters<typeof readDependencies>[0], text: string) => {
  const read = readDependencies(manifest, text);
  return read.ok ? Object.fromEntries(read.dependencies) : read.reason;
};

describe('readDependencies', () => {
  it('names manifests by file name', () => {
    expect(
      ['package.json', 'web/package.json', 'pyproject.toml', 'requirements.txt', 'requirements-dev.txt', 'go.mod', 'crates/x/Cargo.toml', 'src/a.ts'].map(
        manifestOf,
      ),
    ).toEqual(['package.json', 'package.json', 'pyproject.toml', 'requirements', 'requirements', 'go.mod', 'Cargo.toml', undefined]);
  });

  it('reads package.json sections', () => {
    expect(
      keys(
        'package.json',
        JSON.stringify({
          scripts: { test: 'x' },
          dependencies: { zod: '4.0.0' },
          devDependencies: { vitest: '^4' },
          peerDependencies: { react: '*' },
          optionalDependencies: { fsevents: '2' },
        }),
      ),
    ).toEqual({
      'dependencies zod': '4.0.0',
      'devDependencies vitest': '^4',
      'peerDependencies react': '*',
      'optionalDependencies fsevents': '2',
    });
    expect(keys('package.json', '{ not json')).toMatch(/not JSON/);
  });

  it('reads pyproject.toml: PEP 621, optional groups, dependency groups and poetry', () => {
    const text = `
[project]
name = "app"
dependencies = ["Requests>=2.31", "attrs"]
[project.optional-dependencies]
dev = ["pytest==8.0"]
[dependency-groups]
lint = ["ruff"]
[tool.poetry.dependencies]
python = "^3.11"
Django_Rest = { version = "^3", optional = true }
[tool.poetry.group.test.dependencies]
hypothesis = "*"
`;
    expect(keys('pyproject.toml', text)).toEqual({
      'project.dependencies requests': '>=2.31',
      'project.dependencies attrs': '',
      'project.optional-dependencies.dev pytest': '==8.0',
      'dependency-groups.lint ruff': '',
      'tool.poetry.dependencies django-rest': '{"version":"^3","optional":true}',
      'tool.poetry.group.test.dependencies hypothesis': '*',
    });
    expect(keys('pyproject.toml', '[project\nname=')).toMatch(/not TOML/);
  });

  it('reads requirements files by their grammar', () => {
    const text =
      '# pinned\nrequests==2.31.0  # http\n-r base.txt\n--index-url https://x\nflask>=3 \\\n  --hash=sha256:abc\n-e git+https://x/y.git#egg=y\n\nNumPy[extra] ; python_version>"3"\n';
    expect(keys('requirements', text)).toEqual({
      'requirements requests': '==2.31.0',
      'requirements flask': '>=3',
      'requirements git+https://x/y.git#egg=y': 'git+https://x/y.git#egg=y',
      'requirements numpy': '[extra];python_version>"3"',
    });
  });

  it('reads go.mod require directives, single and block', () => {
    const text =
      'module example.com/app\n\ngo 1.22\n\nrequire github.com/a/b v1.2.3\nrequire (\n\tgolang.org/x/text v0.14.0 // indirect\n\t"github.com/c/d" v0.1.0\n)\nreplace github.com/a/b => ../b\n';
    expect(keys('go.mod', text)).toEqual({
      'require github.com/a/b': 'v1.2.3',
      'require golang.org/x/text': 'v0.14.0',
      'require github.com/c/d': 'v0.1.0',
    });
  });

  it('reads Cargo.toml dependency tables', () => {
    const text =
      '[package]\nname = "x"\n[dependencies]\nserde = { version = "1", features = ["derive"] }\nrand = "0.8"\n[dev-dependencies]\nproptest = "1"\n[target.\'cfg(unix)\'.dependencies]\nlibc = "0.2"\n[workspace.dependencies]\ntokio = "1"\n';
    expect(keys('Cargo.toml', text)).toEqual({
      'dependencies serde': '{"version":"1","features":["derive"]}',
      'dependencies rand': '0.8',
      'dev-dependencies proptest': '1',
      'target.cfg(unix).dependencies libc': '0.2',
      'workspace.dependencies tokio': '1',
    });
  });

  it('never throws on garbage', () => {
    for (const manifest of ['package.json', 'pyproject.toml', 'requirements', 'go.mod', 'Cargo.toml'] as const) {
      for (const text of ['', '\u0000\u0001', '[[[', '{"dependencies": 5}', 'require (', '= = =']) expect(() => readDependencies(manifest, text)).not.toThrow();
    }
  });
});
