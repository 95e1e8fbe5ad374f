// A minimal MCP server over stdio (newline-delimited JSON-RPC 2.0) with one tool, `write_file`, that
// writes a file under the folder named by its first argument: the kind of MCP file tool an agent can
// be given, which no file rule sees before it runs. Used by the gate's end-to-end routes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const root = resolve(process.argv[2] ?? process.cwd());

const TOOL = {
  name: 'write_file',
  description: 'Writes text to a file of the project (path relative to the project root).',
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string' }, content: { type: 'string' } },
    required: ['path', 'content'],
  },
};

function reply(id, result) {
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
}

function answer(message) {
  const { id, method, params } = message;
  if (id === undefined) return; // a notification
  if (method === 'initialize') {
    reply(id, { protocolVersion: params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'files', version: '1.0.0' } });
  } else if (method === 'tools/list') {
    reply(id, { tools: [TOOL] });
  } else if (method === 'tools/call' && params?.name === 'write_file') {
    const target = resolve(root, String(params.arguments?.path ?? ''));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, String(params.arguments?.content ?? ''));
    reply(id, { content: [{ type: 'text', text: `wrote ${params.arguments?.path}` }] });
  } else {
    process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: `no method ${method}` } })}\n`);
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === '') return;
  try {
    answer(JSON.parse(line));
  } catch {
    // not JSON-RPC: ignored
  }
});
