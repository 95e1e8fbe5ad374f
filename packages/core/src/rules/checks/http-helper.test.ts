import { describe, expect, it } from 'vitest';
import { judge, write } from '../test-support/rulebooks.js';

describe('R5 HTTP', () => {
  it('refuses a direct fetch in a feature, naming the line and the helper', async () => {
    const content = "import { get } from '../lib/http';\n\nexport async function load() {\n  return fetch('/api/orders');\n}\n";
    expect(await judge('R5', [write('src/features/orders/api.ts', content)])).toEqual([
      {
        rule: 'R5',
        name: 'HTTP',
        actionIndex: 0,
        ok: false,
        detail: 'R5 HTTP: write to "src/features/orders/api.ts" calls fetch directly at line 4; import the helper from src/lib/http.ts instead.',
      },
    ]);
  });

  it.each(["import axios from 'axios';", 'await axios.get(url)', 'new XMLHttpRequest()', 'window.fetch (url)'])('finds %j in a component', async (content) => {
    expect((await judge('R5', [write('src/components/List.tsx', content)]))[0]?.ok).toBe(false);
  });

  it('allows the helper itself and files outside the guarded folders', async () => {
    const content = 'export const get = (url: string) => fetch(url);';
    expect(await judge('R5', [write('src/lib/http.ts', content), write('src/server/proxy.ts', content)], ['src/lib/http.ts'])).toEqual([]);
  });

  it('allows a feature that goes through the helper', async () => {
    const content = "import { get } from '../../lib/http';\nexport const prefetchOrders = () => get('/api/orders');\n";
    expect((await judge('R5', [write('src/features/orders/api.ts', content)]))[0]?.ok).toBe(true);
  });
});
