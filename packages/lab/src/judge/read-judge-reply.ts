import { z } from 'zod';
import type { JudgeEvidence } from '@holdfast/core/contract';
import { findFencedBlocks } from '@holdfast/core/reply';
import { safeParseJson } from '@holdfast/core/contract';
import { scanBracketSpans } from '@holdfast/core/reply';

/** What one judge reply says, or why it cannot be read as a grade. */
export type JudgeReplyReading =
  | {
      readonly ok: true;
      readonly verdict: 'violated' | 'clean';
      readonly confidence: number;
      readonly reason: string;
      readonly evidence: JudgeEvidence[];
      readonly native: boolean;
    }
  | { readonly ok: false; readonly code: 'E_JUDGE_REFUSED' | 'E_JUDGE_MALFORMED'; readonly message: string };

const AnswerSchema = z.object({
  verdict: z.enum(['violated', 'clean']),
  confidence: z.number().min(0).max(1),
  reason: z.string().min(1),
  evidence: z
    .array(
      z.object({
        file: z.string().min(1),
        line: z.number().int().positive().nullish(),
        quote: z.string().nullish(),
      }),
    )
    .default([]),
});

const REFUSAL = /\b(?:can(?:no|')t|won't|will not|unable to|not able to)\b[^.]{0,40}\b(?:help|assist|comply|grade|evaluate|judge|provide)\b|^\s*I'm sorry\b/i;

/**
 * Reads a judge's reply. The whole reply as JSON (native structured output) is tried first, then
 * a fenced block, then the first balanced `{…}` in prose (holdfast's reply parser habits). Never
 * throws: a reply that is not a grade is a refusal (the provider said so, or the text reads as
 * one) or malformed, and becomes a judge-error upstream.
 */
export function readJudgeReply(text: string, finishReason?: string): JudgeReplyReading {
  if (finishReason === 'refusal') return { ok: false, code: 'E_JUDGE_REFUSED', message: `the judge refused: ${snippet(text)}` };
  const candidates: { text: string; native: boolean }[] = [{ text: text.trim(), native: true }];
  for (const block of findFencedBlocks(text)) candidates.push({ text: block.content.trim(), native: false });
  const braced = firstObject(text);
  if (braced !== undefined) candidates.push({ text: braced, native: false });
  let problem = 'no JSON object in the reply';
  for (const candidate of candidates) {
    const json = safeParseJson(candidate.text);
    if (!json.ok) continue;
    const answer = AnswerSchema.safeParse(json.value);
    if (!answer.success) {
      const issue = answer.error.issues[0];
      problem = `the JSON answer has ${issue === undefined ? 'a bad shape' : `a bad field ${issue.path.join('.') || '(top level)'}: ${issue.message}`}`;
      continue;
    }
    const evidence = answer.data.evidence.map((item): JudgeEvidence => ({
      file: item.file,
      ...(item.line != null ? { line: item.line } : {}),
      ...(item.quote != null && item.quote !== '' ? { quote: item.quote } : {}),
    }));
    return { ok: true, verdict: answer.data.verdict, confidence: answer.data.confidence, reason: answer.data.reason, evidence, native: candidate.native };
  }
  if (problem === 'no JSON object in the reply' && REFUSAL.test(text))
    return { ok: false, code: 'E_JUDGE_REFUSED', message: `the judge refused: ${snippet(text)}` };
  return { ok: false, code: 'E_JUDGE_MALFORMED', message: `the judge's reply is not a grade (${problem}): ${snippet(text)}` };
}

/** The first closed `{…}` in the reply, strings respected (the reply parser's one-pass scan). */
function firstObject(text: string): string | undefined {
  const spans = scanBracketSpans(text);
  for (let index = 0; index < spans.count; index += 1) {
    const start = spans.starts[index]!;
    const end = spans.ends[index]!;
    if (end !== -1 && text[start] === '{') return text.slice(start, end + 1);
  }
  return undefined;
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat === '' ? '(empty reply)' : flat.length > 160 ? `${flat.slice(0, 160)}…` : JSON.stringify(flat);
}
