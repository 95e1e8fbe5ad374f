import { describe, expect, it } from 'vitest';
import type { ApiRunFile, ConfigResponse } from '@holdfast/core/browser';
import { initialForm, replayChoice, replayRounds, replayable, runBlocker } from './run-form.js';

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
    );
    expect(form).toEqual({ mode: 'agent', targets: ['cc'], replayFirst: false });
  });

  it('offers the replay first when nothing can run, and says why Run is disabled', () => {
    const shipped = config([target('ollama', 'openai-compatible', { reachable: false, problem: 'ollama not running at localhost:11434: run `ollama serve`' })]);
    const files = [file('other.jsonl'), file('example.jsonl', { demo: 'hand-written' }), file('agents.jsonl', { mode: 'agent' })];
    expect(initialForm(shipped)).toEqual({ mode: 'plan', targets: [], replayFirst: true });
    expect(replayChoice('example.jsonl', files, undefined)).toBe('example.jsonl');
    expect(runBlocker(shipped, 'plan', [], 3)).toMatch(/No plan-mode target can run here/);
    expect(runBlocker(shipped, 'agent', [], 3)).toMatch(/No configured target plays agent mode/);
    expect(runBlocker(shipped, 'plan', [], 0)).toBe('Choose at least one task.');
    expect(files.filter(replayable).map((candidate) => candidate.name)).toEqual(['other.jsonl', 'example.jsonl']);
  });

  it('offers the default run once the run list arrives after the form, and keeps a pick only while its file is listed', () => {
    // The configuration can arrive first: the form is drawn with no files, and nothing is offered yet.
    expect(replayChoice('example.jsonl', [], undefined)).toBeUndefined();
    const files = [file('other.jsonl'), file('example.jsonl')];
    expect(replayChoice('example.jsonl', files, undefined)).toBe('example.jsonl');
    expect(replayChoice('example.jsonl', files, 'other.jsonl')).toBe('other.jsonl');
    // A picked file that left the list (deleted, or not replayable) falls back to the default; without it, the first.
    expect(replayChoice('example.jsonl', [file('example.jsonl')], 'other.jsonl')).toBe('example.jsonl');
    expect(replayChoice('gone.jsonl', files, undefined)).toBe('other.jsonl');
    expect(replayChoice(undefined, [file('agents.jsonl', { mode: 'agent' })], undefined)).toBeUndefined();
  });

  it('counts the rounds a replay plays with one task and N reps', () => {
    const example = file('example.jsonl', { targets: ['a', 'b', 'c'], tasks: Array.from({ length: 8 }, (_, index) => `t${index}`), reps: 2 });
    expect(replayRounds(example, 'all', 2)).toBe(48);
    expect(replayRounds(example, 't0', 1)).toBe(3);
    expect(replayRounds(file('old.jsonl'), 'all', 1)).toBeUndefined();
  });
});
