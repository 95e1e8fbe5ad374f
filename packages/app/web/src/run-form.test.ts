import { describe, expect, it } from 'vitest';
import type { ApiRunFile, ConfigResponse } from '@holdfast/core/browser';
import { initialForm, replayRounds, replayable, runBlocker } from './run-form.js';

type Target = ConfigResponse['targets'][number];
const target = (id: string, provider: Target['provider'], extra: Partial<Target> = {}): Target => ({
  id,
  provider,
  hasKey: true,
  reachable: true,
  detail: 'found',
  ...extra,
});
const config = (targets: Target[]): ConfigResponse =>
  ({ targets, tasks: [], rulebook: { version: 1, rules: [] }, rulebookProse: '', defaultRun: 'example.jsonl' }) as unknown as ConfigResponse;
const file = (name: string, extra: Partial<ApiRunFile> = {}): ApiRunFile => ({ name, size: 1, mtime: '', status: 'completed', mode: 'plan', ...extra });

describe('the run form', () => {
  it('opens on the first mode with a target that can run, that target chosen', () => {
    const form = initialForm(
      config([target('openai', 'openai-compatible', { problem: 'no key: set OPENAI_API_KEY in .env' }), target('cc', 'claude-code', { modes: ['agent'] })]),
      [file('example.jsonl')],
    );
    expect(form).toEqual({ mode: 'agent', targets: ['cc'], replay: 'example.jsonl', replayFirst: false });
  });

  it('offers the replay first when nothing can run, and says why Run is disabled', () => {
    const shipped = config([target('ollama', 'openai-compatible', { reachable: false, problem: 'ollama not running at localhost:11434: run `ollama serve`' })]);
    const files = [file('other.jsonl'), file('example.jsonl', { demo: 'hand-written' }), file('agents.jsonl', { mode: 'agent' })];
    expect(initialForm(shipped, files)).toEqual({ mode: 'plan', targets: [], replay: 'example.jsonl', replayFirst: true });
    expect(runBlocker(shipped, 'plan', [], 3)).toMatch(/No plan-mode target can run here/);
    expect(runBlocker(shipped, 'agent', [], 3)).toMatch(/No configured target plays agent mode/);
    expect(runBlocker(shipped, 'plan', [], 0)).toBe('Choose at least one task.');
    expect(files.filter(replayable).map((candidate) => candidate.name)).toEqual(['other.jsonl', 'example.jsonl']);
  });

  it('counts the rounds a replay plays with one task and N reps', () => {
    const example = file('example.jsonl', { targets: ['a', 'b', 'c'], tasks: Array.from({ length: 8 }, (_, index) => `t${index}`), reps: 2 });
    expect(replayRounds(example, 'all', 2)).toBe(48);
    expect(replayRounds(example, 't0', 1)).toBe(3);
    expect(replayRounds(file('old.jsonl'), 'all', 1)).toBeUndefined();
  });
});
