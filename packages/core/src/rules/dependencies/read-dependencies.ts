import { createRequire } from 'node:module';
import type { DependencyManifest } from '../../contract/index.js';
import { safeParseJson } from '../../contract/json.js';

/** A manifest's dependencies: `section name` (e.g. `devDependencies vitest`) to the version it asks for. */
export type Dependencies = ReadonlyMap<string, string>;

export type ReadDependencies = { readonly ok: true; readonly dependencies: Dependencies } | { readonly ok: false; readonly reason: string };

/** Which manifest a path is, by its file name; undefined when it is none of them. */
export function manifestOf(path: string): DependencyManifest | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (name === 'package.json') return 'package.json';
  if (name === 'pyproject.toml') return 'pyproject.toml';
  if (name === 'go.mod') return 'go.mod';
  if (name === 'Cargo.toml') return 'Cargo.toml';
  if (/^requirements[^/]*\.(txt|in)$/.test(name)) return 'requirements';
  return undefined;
}

/** Reads a manifest's dependencies by its format's grammar (JSON, TOML, go.mod, pip requirements). Never throws. */
export function readDependencies(manifest: DependencyManifest, text: string): ReadDependencies {
  try {
    switch (manifest) {
      case 'package.json':
        return readPackageJson(text);
      case 'pyproject.toml':
        return fromToml(text, readPyproject);
      case 'Cargo.toml':
        return fromToml(text, readCargo);
      case 'go.mod':
        return { ok: true, dependencies: readGoMod(text) };
      case 'requirements':
        return { ok: true, dependencies: readRequirements(text) };
    }
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? (error.message.split('\n')[0] ?? 'unreadable') : String(error) };
  }
}

const NPM_SECTIONS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

function readPackageJson(text: string): ReadDependencies {
  const parsed = safeParseJson(text);
  if (!parsed.ok) return { ok: false, reason: `not JSON (${parsed.error})` };
  if (!isTable(parsed.value)) return { ok: false, reason: 'not a JSON object' };
  const dependencies = new Map<string, string>();
  for (const section of NPM_SECTIONS) {
    const table = parsed.value[section];
    if (table === undefined) continue;
    if (!isTable(table)) return { ok: false, reason: `"${section}" is not an object` };
    for (const [name, version] of Object.entries(table))
      dependencies.set(`${section} ${name}`, typeof version === 'string' ? version : JSON.stringify(version));
  }
  return { ok: true, dependencies };
}

/** smol-toml is loaded when a TOML manifest is first read: the live hook's every decision would pay for it otherwise. */
function parseToml(text: string): unknown {
  const { parse } = createRequire(import.meta.url)('smol-toml') as typeof import('smol-toml');
  return parse(text);
}

function fromToml(text: string, read: (document: Record<string, unknown>, into: Map<string, string>) => void): ReadDependencies {
  let document: Record<string, unknown>;
  try {
    document = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    return { ok: false, reason: `not TOML (${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)})` };
  }
  const dependencies = new Map<string, string>();
  read(document, dependencies);
  return { ok: true, dependencies };
}

function readPyproject(document: Record<string, unknown>, into: Map<string, string>): void {
  const project = table(document['project']);
  pep508List(project['dependencies'], 'project.dependencies', into);
  for (const [extra, list] of Object.entries(table(project['optional-dependencies']))) pep508List(list, `project.optional-dependencies.${extra}`, into);
  for (const [group, list] of Object.entries(table(document['dependency-groups']))) pep508List(list, `dependency-groups.${group}`, into);
  const poetry = table(table(document['tool'])['poetry']);
  poetryTable(poetry['dependencies'], 'tool.poetry.dependencies', into);
  poetryTable(poetry['dev-dependencies'], 'tool.poetry.dev-dependencies', into);
  for (const [group, body] of Object.entries(table(poetry['group']))) poetryTable(table(body)['dependencies'], `tool.poetry.group.${group}.dependencies`, into);
}

function poetryTable(value: unknown, section: string, into: Map<string, string>): void {
  for (const [name, spec] of Object.entries(table(value))) {
    if (name.toLowerCase() === 'python') continue;
    into.set(`${section} ${normalizePythonName(name)}`, typeof spec === 'string' ? spec : JSON.stringify(spec));
  }
}

function pep508List(value: unknown, section: string, into: Map<string, string>): void {
  if (!Array.isArray(value)) return;
  for (const entry of value) {
    if (typeof entry !== 'string') continue;
    const requirement = pep508(entry);
    if (requirement !== undefined) into.set(`${section} ${requirement.name}`, requirement.spec);
  }
}

const CARGO_SECTIONS = ['dependencies', 'dev-dependencies', 'build-dependencies'] as const;

function readCargo(document: Record<string, unknown>, into: Map<string, string>): void {
  const sections = (owner: Record<string, unknown>, prefix: string) => {
    for (const section of CARGO_SECTIONS) {
      for (const [name, spec] of Object.entries(table(owner[section])))
        into.set(`${prefix}${section} ${name}`, typeof spec === 'string' ? spec : JSON.stringify(spec));
    }
  };
  sections(document, '');
  for (const [target, body] of Object.entries(table(document['target']))) sections(table(body), `target.${target}.`);
  for (const [name, spec] of Object.entries(table(table(document['workspace'])['dependencies']))) {
    into.set(`workspace.dependencies ${name}`, typeof spec === 'string' ? spec : JSON.stringify(spec));
  }
}

/** go.mod's `require` directives, one-line and block form; `// indirect` is a comment, the requirement still counts. */
function readGoMod(text: string): Map<string, string> {
  const dependencies = new Map<string, string>();
  let inBlock = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (line === '') continue;
    if (inBlock) {
      if (line === ')') inBlock = false;
      else requirement(line);
      continue;
    }
    const directive = /^require\s*(.*)$/.exec(line);
    if (directive === null) continue;
    const rest = (directive[1] ?? '').trim();
    if (rest === '(') inBlock = true;
    else if (rest.startsWith('(')) requirement(rest.slice(1).replace(/\)$/, '').trim());
    else requirement(rest);
  }
  return dependencies;

  function requirement(line: string): void {
    const [path, version] = line.split(/\s+/);
    if (path !== undefined && path !== '' && version !== undefined) dependencies.set(`require ${unquote(path)}`, version);
  }
}

/** pip requirements: one requirement a line, `\` continues a line, `#` starts a comment; options (`-r`, `--hash`) are not requirements. */
function readRequirements(text: string): Map<string, string> {
  const dependencies = new Map<string, string>();
  const lines = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/);
  for (const raw of lines) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line === '') continue;
    const editable = /^(?:-e|--editable)[\s=]+(\S+)/.exec(line);
    if (editable !== null) {
      dependencies.set(`requirements ${editable[1] ?? ''}`, editable[1] ?? '');
      continue;
    }
    if (line.startsWith('-')) continue;
    const requirement = pep508(line.replace(/\s--\S+(?:[=\s]\S+)?/g, ''));
    if (requirement !== undefined) dependencies.set(`requirements ${requirement.name}`, requirement.spec);
  }
  return dependencies;
}

/** A PEP 508 requirement's normalised name and the rest (extras, version, markers). */
function pep508(text: string): { name: string; spec: string } | undefined {
  const match = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(.*)$/.exec(text);
  if (match === null) return undefined;
  return { name: normalizePythonName(match[1] ?? ''), spec: (match[2] ?? '').replace(/\s+/g, '') };
}

function normalizePythonName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

function unquote(text: string): string {
  return text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;
}

function table(value: unknown): Record<string, unknown> {
  return isTable(value) ? value : {};
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
