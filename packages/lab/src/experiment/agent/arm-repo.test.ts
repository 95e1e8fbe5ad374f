import { describe, expect, it } from 'vitest';
import { withObserve } from './arm-repo.js';

describe('withObserve', () => {
  it('adds --observe after the agent in the plain command and in the fail-closed script', () => {
    expect(withObserve('/usr/bin/node /x/bin/holdfast.js hook claude-code --rulebook /r.json')).toBe(
      '/usr/bin/node /x/bin/holdfast.js hook claude-code --observe --rulebook /r.json',
    );
    expect(withObserve(`/bin/sh -c ': holdfast gate v1; "$holdfast_node" "$holdfast_entry" "codex" "--deadline-ms" "24000"; exit 2'`)).toBe(
      `/bin/sh -c ': holdfast gate v1; "$holdfast_node" "$holdfast_entry" "codex" "--observe" "--deadline-ms" "24000"; exit 2'`,
    );
  });
});
