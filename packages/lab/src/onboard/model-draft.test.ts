import { rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRulebook } from '@holdfast/core/rules';
import { git, makeGitRepo } from '../harness/test-support/git-repo.js';
import { createOpenAiCompatibleAdapter } from '../models/index.js';
import { chatCompletion, startFakeOpenAi } from '../models/test-support/fake-openai-server.js';
import type { FakeReply, FakeServer, RecordedRequest } from '../models/test-support/fake-openai-server.js';
import { testRuntime } from '../models/test-support/test-runtime.js';
import { draftRulebook } from './draft-rulebook.js';
import type { DraftedRulebook } from './draft-rulebook.js';
import { checkHistory } from './history-check.js';
import { draftWithModel, formatModelDraft } from './model-draft.js';
import { OnboardError } from './onboard-error.js';
import { listRepoPaths, readRepoFacts } from './repo-facts.js';

const KEY = 'sk-drafter-test-key-0123456789';

const RULES = `# Widgets

## Style

- Mark temporary hacks with the word HACK so they can be found later.
- Keep modules short and focused on one thing.
- Widgets reach the billing service only through the gateway module.
- Never leave debugger statements behind.
- Name exported functions in camelCase.
- Write every commit message in the imperative mood.
`;

const write = (path: string, content: string) => ({ type: 'write', path, content });

/** What the scripted model proposes, one per rule, each built to meet one fate. */
const PROPOSALS = [
  {
    // Kept: trips on its violation, quiet on its compliance and on history. Its `why` echoes the key.
    rule: 'R4',
    check: { kind: 'forbidden-pattern', patterns: ['\\bdebugger\\b'], files: ['src/**/*.ts'], what: 'a `debugger` statement' },
    why: `no debugger statement in src/ (key ${KEY})`,
    violation: [write('src/widget.ts', 'export function widget() {\n  debugger;\n}\n')],
    compliance: [write('src/widget.ts', 'export function widget() {\n  return 1;\n}\n')],
  },
  {
    // Does not trip on its own violation: the example holds no HACK.
    rule: 'R1',
    check: { kind: 'forbidden-pattern', patterns: ['\\bHACK\\b'], files: ['src/**/*.ts'], what: 'a HACK marker' },
    why: 'hacks are marked',
    violation: [write('src/widget.ts', '// TODO: tidy\nexport const widget = 1;\n')],
    compliance: [write('src/widget.ts', 'export const widget = 1;\n')],
  },
  {
    // Fires on its own compliance: every module exports something.
    rule: 'R2',
    check: { kind: 'forbidden-pattern', patterns: ['\\bexport\\b'], files: ['src/**/*.ts'], what: 'an export' },
    why: 'modules stay short',
    violation: [write('src/widget.ts', 'export const a = 1;\nexport const b = 2;\n')],
    compliance: [write('src/widget.ts', 'export const a = 1;\n')],
  },
  {
    // Noisy on history: the team's own commits import modules.
    rule: 'R3',
    check: { kind: 'forbidden-pattern', patterns: ['\\bimport\\b'], files: ['src/**/*.ts'], what: 'an import' },
    why: 'billing only through the gateway',
    violation: [write('src/widget.ts', 'import { charge } from "./billing.js";\n')],
    compliance: [write('src/widget.ts', 'export const widget = () => gateway.charge();\n')],
  },
  {
    // Not the rulebook's schema: no such check kind.
    rule: 'R5',
    check: { kind: 'naming', style: 'camelCase' },
    why: 'camelCase names',
    violation: [write('src/widget.ts', 'export function Widget() {}\n')],
    compliance: [write('src/widget.ts', 'export function widget() {}\n')],
  },
  {
    // A custom check would run code the model wrote.
    rule: 'R6',
    check: { kind: 'custom', exec: ['sh', '-c', 'exit 1'] },
    why: 'imperative commit messages',
    violation: [{ type: 'commit', message: 'Added things' }],
    compliance: [{ type: 'commit', message: 'Add things' }],
  },
];

let repo: string;
let draft: DraftedRulebook;

beforeAll(() => {
  repo = makeGitRepo({ 'AGENTS.md': RULES, 'src/index.ts': 'export const version = 1;\n' }, 'holdfast-model-draft-');
  // The team's history: a commit that imports, which R3's check would refuse.
  makeCommit(repo, 'src/widget.ts', 'import { version } from "./index.js";\nexport const widget = version;\n', 'Add widget');
  draft = draftRulebook([{ path: 'AGENTS.md', text: RULES }], readRepoFacts(repo));
});

afterAll(() => rmSync(repo, { recursive: true, force: true }));

function makeCommit(root: string, path: string, content: string, message: string): void {
  writeFileSync(`${root}/${path}`, content);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', message);
}

async function drafter(
  script: (request: RecordedRequest) => FakeReply,
): Promise<{ server: FakeServer; model: ReturnType<typeof createOpenAiCompatibleAdapter> }> {
  const server = await startFakeOpenAi({ script });
  const model = createOpenAiCompatibleAdapter({
    id: 'drafter',
    model: 'draft-model',
    baseUrl: server.baseUrl,
    apiKey: KEY,
    runtime: testRuntime(),
    retry: { maxAttempts: 1 },
  });
  return { server, model };
}

describe('init --model: a model drafts, holdfast verifies', () => {
  it('keeps only the proposal that parses, trips on its violation, is quiet on its compliance and on history, at warn; lists the rest with why', async () => {
    expect(draft.rules.map((rule) => rule.kind)).toEqual(['prose', 'prose', 'prose', 'prose', 'prose', 'prose']);
    const { server, model } = await drafter(() => chatCompletion(`Here you are:\n\`\`\`json\n${JSON.stringify({ proposals: PROPOSALS })}\n\`\`\``));
    try {
      const result = await draftWithModel(draft, {
        model,
        facts: readRepoFacts(repo),
        existing: listRepoPaths(repo),
        secrets: [KEY],
        history: (rulebook) => checkHistory(repo, rulebook, 20),
      });
      // One section, one request, holding every prose-only rule and the schema of a check.
      expect(server.requests).toHaveLength(1);
      const prompt = JSON.stringify(server.requests[0]?.body);
      for (const id of ['R1', 'R2', 'R3', 'R4', 'R5', 'R6']) expect(prompt).toContain(`${id}: `);
      expect(prompt).toContain('forbidden-pattern');
      expect(prompt).not.toContain('"custom"');

      expect(result.kept).toEqual([expect.objectContaining({ rule: 'R4', kind: 'forbidden-pattern', history: 'quiet on the last 2 commits (0 refused)' })]);
      const reasons = Object.fromEntries(result.rejected.map((item) => [item.rule, item.reason]));
      expect(reasons).toEqual({
        R1: 'does not trip on its own example of the violation',
        R2: expect.stringMatching(/^fires on its own example of compliance \(.*an export/),
        R3: "refuses 1 of the last 2 commits, more than 5 % of the team's own history: probably wrong",
        R5: expect.stringMatching(/^does not parse against the rulebook schema \(check\.kind: /),
        R6: expect.stringMatching(/^a custom check runs code, and holdfast never runs code a model wrote/),
      });

      const rulebook = parseRulebook(result.drafted.yaml, 'rulebook.yaml');
      expect(rulebook.rules.map((rule) => [rule.id, rule.enforcement, rule.check.kind])).toEqual([['R4', 'warn', 'forbidden-pattern']]);
      expect(rulebook.rules[0]?.prose).toBe('Never leave debugger statements behind.');
      expect((rulebook.proseRules ?? []).map((rule) => rule.id)).toEqual(['R1', 'R2', 'R3', 'R5', 'R6']);
      expect(result.drafted.yaml).toMatch(/# draft R4 .*proposed by the model drafter/);
      expect(result.drafted.yaml).toMatch(/# the model drafter proposed a check; not kept: does not trip on its own example of the violation/);
      expect(result.drafted.table).toMatch(/\| R4 .* \| forbidden-pattern check \|/);
      // The key the model echoed is in neither the rulebook nor what a person reads.
      expect(result.drafted.yaml).not.toContain(KEY);
      expect(formatModelDraft(result).join('\n')).not.toContain(KEY);
      expect(formatModelDraft(result)[0]).toBe('Model drafting with drafter: 1 request, 1 check kept (at warn), 5 proposals not kept.');
    } finally {
      await server.close();
    }
  });

  it('a reply that is not JSON drops the section, with what the model said', async () => {
    const { server, model } = await drafter(() => chatCompletion('I would suggest a linter.'));
    try {
      const result = await draftWithModel(draft, { model, facts: readRepoFacts(repo), existing: [] });
      expect(result.kept).toEqual([]);
      expect(result.rejected).toEqual([
        {
          rule: 'R1, R2, R3, R4, R5, R6',
          reason: `the model's reply for AGENTS.md, section "Style" is not read (no JSON object in the reply): "I would suggest a linter."`,
        },
      ]);
      expect(result.drafted.yaml).toBe(draft.yaml);
    } finally {
      await server.close();
    }
  });

  it('a server error is an error naming the target, never the key', async () => {
    const { server, model } = await drafter(() => ({ status: 500, body: `upstream exploded for key ${KEY}` }));
    try {
      const failure = await draftWithModel(draft, { model, facts: readRepoFacts(repo), existing: [], secrets: [KEY] }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(OnboardError);
      const message = (failure as OnboardError).message;
      expect(message).toMatch(
        /^the model target "drafter" \(openai-compatible draft-model at http:\/\/127\.0\.0\.1:\d+\/v1\) failed while drafting checks for AGENTS\.md, section "Style": /,
      );
      expect(message).toMatch(/Nothing was written\. .*run holdfast init without --model to draft offline\.$/);
      expect(message).not.toContain(KEY);
    } finally {
      await server.close();
    }
  });
});
