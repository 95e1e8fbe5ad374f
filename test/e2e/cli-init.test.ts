import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitRepo } from '@holdfast/lab/test-support';
import { main } from 'holdfast';
import { chatCompletion, startFakeServer } from '@holdfast/lab/test-support';
import type { FakeServer, RecordedRequest } from '@holdfast/lab/test-support';
import { memoryIo } from '@holdfast/core/test-support';

const AGENTS_MD = readFileSync(fileURLToPath(new URL('../../fixtures/rule-files/AGENTS.md', import.meta.url)), 'utf8');

/** The agent's reply: a new module with a console.log and no test, committed without running the tests. */
const HASTY_REPLY = JSON.stringify({
  reasoning: 'Quick health module for the release.',
  actions: [
    {
      type: 'write',
      path: 'src/health.ts',
      content: 'export function health() {\n  console.log("health");\n  return { ok: true, checkedAt: new Date() };\n}\n',
    },
    { type: 'commit', message: 'Add health module' },
  ],
});

let repo: string;
let ollama: FakeServer;

/** The key of the drafting model's target: it reaches the server and nothing holdfast writes or prints. */
const DRAFT_KEY = 'sk-e2e-drafter-key-0123456789abcdef';

/**
 * The drafting model (`init --model`): for the first rule of each request, a check on a marker named after the
 * rule, with examples it passes; for the second, a check of no kind the rulebook knows.
 */
function draftReply(request: RecordedRequest): string {
  const messages = (request.body as { messages: { content: string }[] }).messages;
  const ids = [...(messages[1]?.content ?? '').matchAll(/^(R\d+): /gm)].map((match) => match[1] ?? '');
  const [first, second] = ids;
  const marker = `HOLDFAST_MARKER_${first}`;
  const proposals = [
    {
      rule: first,
      check: { kind: 'forbidden-pattern', patterns: [marker], files: ['src/**/*.ts'], what: `the ${marker} marker` },
      why: `no ${marker} in src/`,
      violation: [{ type: 'write', path: 'src/marker.ts', content: `// ${marker}\n` }],
      compliance: [{ type: 'write', path: 'src/marker.ts', content: 'export const marker = 1;\n' }],
    },
    ...(second !== undefined ? [{ rule: second, check: { kind: 'style-guide' }, violation: [], compliance: [] }] : []),
  ];
  return JSON.stringify({ proposals });
}

beforeAll(async () => {
  repo = makeGitRepo(
    {
      'AGENTS.md': AGENTS_MD,
      'package.json': '{"name":"quillmark","type":"module","scripts":{"test":"vitest run"}}\n',
      'pnpm-lock.yaml': 'lockfileVersion: 9.0\n',
      'src/index.ts': 'export { parse } from "./parse.js";\n',
      'src/parse.ts': 'export function parse(text: string) {\n  return { type: "root", text };\n}\n',
      'src/parse.test.ts': 'import { parse } from "./parse.js";\n',
      '.gitignore': 'node_modules/\ndist/\n',
    },
    'holdfast-init-e2e-',
  );
  // A local Ollama as it answers on loopback: its model list, then chat completions.
  ollama = await startFakeServer({
    script: (request) => {
      if (request.path === '/api/tags') return { json: { models: [{ name: 'qwen-fake:1b' }] } };
      if (request.path.startsWith('/draft/')) return chatCompletion(draftReply(request));
      if (request.path.startsWith('/broken/')) return { status: 500, body: `upstream exploded for ${DRAFT_KEY}` };
      return chatCompletion(HASTY_REPLY);
    },
  });
});

afterAll(async () => {
  await ollama.close();
  rmSync(repo, { recursive: true, force: true });
});

describe('holdfast init on your own repository, then run and report', () => {
  it('drafts the rulebook, makes a task from HEAD, finds the local Ollama; the printed run measures it; report reads it', async () => {
    const init = memoryIo({ cwd: repo, env: { PATH: '' } });
    expect(await main(['init', '--ollama', ollama.origin, '--json'], init)).toBe(0);
    const result = JSON.parse(init.out()) as {
      dir: string;
      drafted: { id: string; kind: string }[];
      task: { id: string; files: number; tempts: string[] };
      targets: { id: string; why: string; mode: string }[];
      run: string;
    };
    expect(result.dir).toBe(join(repo, 'holdfast'));
    expect(result.drafted.filter((rule) => rule.kind !== 'prose').map((rule) => `${rule.id} ${rule.kind}`)).toEqual([
      'R1 paths',
      'R2 forbidden-pattern',
      'R3 forbidden-pattern',
      'R6 sibling-test',
      'R7 order',
      'R9 http-helper',
      'R10 secret',
      'R11 scope',
    ]);
    // The lock file is left out of what a task reads (it says nothing the rules are about).
    expect(result.task.files).toBe(5);
    expect(result.task.tempts).toEqual(['R1', 'R2', 'R3', 'R6', 'R7', 'R9', 'R10', 'R11']);
    expect(result.targets).toEqual([{ id: 'ollama-qwen-fake:1b', why: `Ollama at ${ollama.origin} has qwen-fake:1b`, mode: 'plan' }]);
    expect(result.run).toBe('cd holdfast && holdfast run --tasks-dir tasks --rulebook rulebook.yaml --targets ollama-qwen-fake:1b');
    expect(readFileSync(join(result.dir, 'tasks', result.task.id, 'task.yaml'), 'utf8')).toMatch(/The ticket is a TEMPLATE/);
    expect(existsSync(join(result.dir, 'tasks', result.task.id, 'repo', 'AGENTS.md'))).toBe(false);
    expect(readFileSync(join(result.dir, '.gitignore'), 'utf8')).toBe('tasks/\nruns/\n.env\n');

    // The printed command, as typed in holdfast/ (plus --out and --json for the test).
    const args = result.run.replace(/^cd holdfast && holdfast /, '').split(' ');
    const ran = memoryIo({ cwd: result.dir, env: {} });
    expect(await main([...args, '--out', 'runs/first.jsonl', '--json'], ran)).toBe(0);
    expect(ollama.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(2);
    const prompt = JSON.stringify(ollama.requests.at(-1)?.body);
    expect(prompt).toContain('Never use `console.log` in library code.');
    expect(prompt).toContain('Add a small `health` module in src/');

    const report = memoryIo({ cwd: result.dir });
    expect(await main(['report', 'runs/first.jsonl', '--format', 'json'], report)).toBe(0);
    const body = JSON.parse(report.out()) as { status: string; rounds: { task: string; told: string; held: string }[] };
    expect(body.status).toBe('completed');
    // Drafted checks start at warn: the held arm lets the violation land, tells the model, and counts it apart.
    expect(body.rounds).toEqual([expect.objectContaining({ task: result.task.id, told: 'violated', held: 'warned' })]);

    const table = memoryIo({ cwd: result.dir });
    expect(await main(['report', 'runs/first.jsonl'], table)).toBe(0);
    expect(table.out()).toMatch(/ollama-qwen-fake:1b/);
  });

  it('refuses a repository whose always-kept files are over the budget, with what to do, and writes nothing', async () => {
    const io = memoryIo({ cwd: repo, env: { PATH: '' } });
    expect(await main(['init', '--dir', 'holdfast-small', '--max-bytes', '20', '--ollama', ollama.origin], io)).toBe(2);
    expect(io.err()).toMatch(
      /^holdfast init: .*the files a task always keeps \(the root's own files, manifests, rule files, --include\) weigh .*, over the budget of .* \(--max-bytes 20\); the heaviest are .*Leave some out with --exclude GLOB, or raise the budget with --max-bytes N\./,
    );
    expect(existsSync(join(repo, 'holdfast-small'))).toBe(false);
  });

  it('refuses to overwrite an earlier init', async () => {
    const io = memoryIo({ cwd: repo, env: { PATH: '' } });
    expect(await main(['init', '--ollama', ollama.origin], io)).toBe(2);
    expect(io.err()).toMatch(/holdfast already exists; holdfast init writes a fresh one/);
  });
});

describe('holdfast init --model: the team model drafts, holdfast verifies', () => {
  it('keeps the verified proposals at warn, lists the rest with why, and never prints or writes the key; a failing model names the target and writes nothing', async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'holdfast-init-model-'));
    try {
      writeFileSync(
        join(configDir, 'holdfast.config.yaml'),
        [
          'version: 1',
          'targets:',
          '  - { id: drafter, provider: openai-compatible, model: draft-model, baseUrl: "' +
            `${ollama.origin}/draft/v1` +
            '", keyEnv: DRAFT_KEY, maxAttempts: 1 }',
          '  - { id: broken, provider: openai-compatible, model: draft-model, baseUrl: "' +
            `${ollama.origin}/broken/v1` +
            '", keyEnv: DRAFT_KEY, maxAttempts: 1 }',
          '',
        ].join('\n'),
      );
      const io = memoryIo({ cwd: configDir, env: { PATH: '', DRAFT_KEY } });
      expect(await main(['init', '--repo', repo, '--dir', 'holdfast-model', '--ollama', ollama.origin, '--model', 'drafter', '--json'], io)).toBe(0);
      const result = JSON.parse(io.out()) as {
        rulebook: string;
        model: { target: string; requests: number; kept: { rule: string; kind: string }[]; rejected: { rule: string; reason: string }[] };
      };
      const drafts = ollama.requests.filter((request) => request.path === '/draft/v1/chat/completions');
      expect(drafts).toHaveLength(result.model.requests);
      expect(drafts[0]?.headers.authorization).toBe(`Bearer ${DRAFT_KEY}`);
      expect(result.model.kept.length).toBeGreaterThan(0);
      expect(result.model.kept.length).toBe(result.model.requests);
      expect(result.model.rejected).toContainEqual(expect.objectContaining({ reason: expect.stringMatching(/^does not parse against the rulebook schema/) }));
      const yaml = readFileSync(result.rulebook, 'utf8');
      for (const kept of result.model.kept) {
        expect(yaml).toContain(`HOLDFAST_MARKER_${kept.rule}`);
        expect(yaml).toMatch(new RegExp(`# draft ${kept.rule} .*proposed by the model drafter`));
      }
      expect(yaml.match(/enforcement: block/g)).toBeNull();
      const written = readdirSync(join(repo, 'holdfast-model'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
      for (const file of written) expect(readFileSync(join(file.parentPath, file.name), 'utf8')).not.toContain(DRAFT_KEY);
      expect(io.out() + io.err()).not.toContain(DRAFT_KEY);

      const text = memoryIo({ cwd: configDir, env: { PATH: '', DRAFT_KEY } });
      expect(await main(['init', '--repo', repo, '--dir', 'holdfast-model-text', '--ollama', ollama.origin, '--model', 'drafter'], text)).toBe(0);
      expect(text.out()).toMatch(/^Model drafting with drafter: \d+ requests?, \d+ checks? kept \(at warn\), \d+ proposals? not kept\.$/m);
      expect(text.out()).toMatch(/^ {2}not kept R\d+ style-guide: does not parse against the rulebook schema/m);

      const broken = memoryIo({ cwd: configDir, env: { PATH: '', DRAFT_KEY } });
      expect(await main(['init', '--repo', repo, '--dir', 'holdfast-broken', '--ollama', ollama.origin, '--model', 'broken'], broken)).toBe(2);
      expect(broken.err()).toMatch(
        /the model target "broken" \(openai-compatible draft-model at http:\/\/127\.0\.0\.1:\d+\/broken\/v1\) failed while drafting checks for /,
      );
      expect(broken.err()).not.toContain(DRAFT_KEY);
      expect(existsSync(join(repo, 'holdfast-broken'))).toBe(false);
    } finally {
      rmSync(configDir, { recursive: true, force: true });
    }
  });
});
