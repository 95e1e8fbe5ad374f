import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AgentClientName } from '@holdfast/lab/harness';
import { runScenario } from '@holdfast/lab/test-support';
import { holdfast } from '@holdfast/lab/test-support';
import type { ModelTurn } from '@holdfast/lab/test-support';
import { makeRepo, settle, toldText, violations } from './gate-guarantee-routes.js';

// Issue 10: a tool the installed matchers did not send (an MCP server's file tool) wrote with no check.
// A real client, a real MCP server over stdio, a scripted model that calls its write_file tool.
const SERVER = fileURLToPath(new URL('./file-tool-mcp-server.mjs', import.meta.url));
const LOGGED = "export const m = () => { console.log('m'); };\n";

/** The client's own name for the server's tool (Claude Code: mcp__files__write_file). */
function writeThroughMcp(turn: ModelTurn) {
  const name = turn.toolNames.find((tool) => tool.includes('write_file'));
  if (name === undefined) return { text: `no MCP write tool among: ${turn.toolNames.join(', ')}` };
  return { tool: name, input: { path: 'src/features/m.ts', content: LOGGED } };
}

/** Claude Code loads the server from --mcp-config; -p mode runs only the tools allowed by name. */
function mcpArgs(repo: string): string[] {
  const config = { mcpServers: { files: { type: 'stdio', command: process.execPath, args: [SERVER, repo] } } };
  return ['--mcp-config', JSON.stringify(config), '--allowedTools', 'Bash', 'mcp__files__write_file'];
}

async function tryMcpWrite(client: AgentClientName, gate: boolean) {
  const { parent, repo } = makeRepo();
  if (gate) holdfast(repo, 'install', client);
  const base = settle(repo, false);
  const result = await runScenario({ client, repo, steps: [writeThroughMcp, { text: 'Done.' }], args: mcpArgs(repo) });
  const called = result.turns.some((turn) => turn.allToolResults.some((each) => /wrote src\/features\/m\.ts/.test(each.text)));
  return { result, called, found: violations(parent, repo, base, undefined), told: result.requests.map(toldText).join('\n') };
}

// Codex 0.171.0 offers MCP tools to the model only through its tool_search tool (the features that
// should turn that off did not), which the scripted model server does not speak: not measured there.
describe.each(['claude-code'] as const)('an MCP file tool, %s real binary', (client) => {
  it('held: a console.log written through it is put back and the model is told', async () => {
    const { result, called, found, told } = await tryMcpWrite(client, true);
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(called, result.explain()).toBe(true);
    expect(found, result.explain()).toEqual([]);
    expect(told, result.explain()).toMatch(/R4 NOLOG/);
  });

  it('told (no gate): it lands', async () => {
    const { result, called, found } = await tryMcpWrite(client, false);
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(called, result.explain()).toBe(true);
    expect(found, result.explain()).not.toEqual([]);
  });
});
