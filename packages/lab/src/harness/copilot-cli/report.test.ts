import { describe, expect, it } from 'vitest';
import { createCopilotReader, readCopilotResult } from './report.js';

// Lines of what the real Copilot CLI 1.0.102 printed with `-p … --output-format json` on a scripted model (ids and
// fields it repeats trimmed): one create call, then the answer.
const RUN = [
  '{"type":"session.tools_updated","data":{"model":"gpt-4.1"},"ephemeral":true,"id":"08c24d77","timestamp":"2026-12-07T12:18:56.638Z"}',
  '{"type":"assistant.turn_start","data":{"turnId":"0","interactionId":"a9d34cd6"},"id":"f1271f34","timestamp":"2026-12-07T12:18:56.651Z"}',
  '{"type":"assistant.message","data":{"messageId":"10b666c4","model":"gpt-4.1","content":"","toolRequests":[{"toolCallId":"call_scripted1_0","name":"create","arguments":{"path":"/tmp/r/src/a.ts","file_text":"export const a = 1;\\n"},"type":"function"}],"turnId":"0"},"id":"039882ea"}',
  '{"type":"tool.execution_complete","data":{"toolCallId":"call_scripted1_0","model":"gpt-4.1","turnId":"0","success":true,"result":{"content":"Created file /tmp/r/src/a.ts with 20 characters"}},"id":"9f41f4d4"}',
  '{"type":"assistant.turn_end","data":{"turnId":"0"},"id":"852148ae"}',
  '{"type":"assistant.turn_start","data":{"turnId":"1","interactionId":"a9d34cd6"},"id":"0fd20750"}',
  '{"type":"assistant.message_delta","data":{"messageId":"a6a59b3f","deltaContent":"All done."},"ephemeral":true,"id":"035e026d"}',
  '{"type":"assistant.message","data":{"messageId":"a6a59b3f","model":"gpt-4.1","content":"All done.","toolRequests":[],"turnId":"1"},"id":"b7646582"}',
  '{"type":"assistant.turn_end","data":{"turnId":"1"},"id":"de9c9823"}',
  '{"type":"result","timestamp":"2026-12-07T12:18:58.448Z","sessionId":"e49b47e2-5ef1-42ae-b59f-4b56b2177a1b","exitCode":0,"usage":{"premiumRequests":0,"totalApiDurationMs":250,"sessionDurationMs":2399}}',
];

describe('Copilot CLI report', () => {
  it('reads the turns, the last thing the model said, the session and how it ended; no tokens', () => {
    expect(readCopilotResult(RUN.join('\n'))).toEqual({
      turns: 2,
      deniedCalls: 0,
      ending: 'success',
      finalMessage: 'All done.',
      sessionId: 'e49b47e2-5ef1-42ae-b59f-4b56b2177a1b',
    });
  });

  it('counts turns as they stream, so the run cap can stop it; an exit other than 0 is said', () => {
    const reader = createCopilotReader();
    reader.push(RUN[1]!);
    expect(reader.turns()).toBe(1);
    reader.push(RUN[5]!);
    expect(reader.turns()).toBe(2);
    reader.push(RUN[9]!.replace('"exitCode":0', '"exitCode":1'));
    expect(reader.report('')).toMatchObject({ turns: 2, ending: 'error: exit code 1' });
  });

  it('says nothing for output that holds no event', () => {
    expect(readCopilotResult('Error: no model\n')).toEqual({});
  });
});
