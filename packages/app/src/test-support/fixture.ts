import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunEvent } from '@holdfast/core/contract';
import { readRunFileStrict } from '@holdfast/lab/store';
import type { LiveRun } from '../live-run.js';
import { projectRoot } from './project-root.js';

export const EXAMPLE = 'example.jsonl';
export const KEY_VALUE = 'sk-ant-api03-test-value-that-must-never-leave';

/**
 * A scratch folder as `holdfast serve` would see it: a runs/ folder holding a copy of the shipped
 * example run, and a holdfast.config.yaml whose targets need no network (an Anthropic target is
 * never probed; the OpenAI-compatible one points at a closed loopback port).
 */
export function makeWorkspace(): { cwd: string; runsDir: string; env: NodeJS.ProcessEnv; cleanup: () => void } {
  const cwd = mkdtempSync(join(tmpdir(), 'holdfast-serve-'));
  const runsDir = join(cwd, 'runs');
  mkdirSync(runsDir);
  copyFileSync(join(projectRoot(), 'runs', EXAMPLE), join(runsDir, EXAMPLE));
  writeFileSync(
    join(cwd, 'holdfast.config.yaml'),
    [
      'version: 1',
      'targets:',
      '  - id: claude',
      '    provider: anthropic',
      '    model: claude-test',
      '    keyEnv: ANTHROPIC_API_KEY',
      '  - id: closed-local',
      '    provider: openai-compatible',
      '    model: tiny',
      '    baseUrl: http://127.0.0.1:9/v1',
      '',
    ].join('\n'),
  );
  return { cwd, runsDir, env: { ANTHROPIC_API_KEY: KEY_VALUE }, cleanup: () => rmSync(cwd, { recursive: true, force: true }) };
}

export async function exampleEvents(runsDir: string): Promise<RunEvent[]> {
  return readRunFileStrict(join(runsDir, EXAMPLE));
}

/** Resolves with the first stored event of the run that satisfies `predicate` (now or later). */
export function waitForEvent<E extends RunEvent>(run: LiveRun, predicate: (event: RunEvent) => event is E): Promise<E> {
  const found = run.events.find(predicate);
  if (found !== undefined) return Promise.resolve(found);
  return new Promise((resolve, reject) => {
    const unsubscribe = run.follow(run.events.at(-1)?.seq ?? -1, {
      event: (event) => {
        if (predicate(event)) {
          queueMicrotask(() => unsubscribe());
          resolve(event);
        }
      },
      end: () => reject(new Error(`run ${run.runId} ended without the awaited event`)),
    });
  });
}
