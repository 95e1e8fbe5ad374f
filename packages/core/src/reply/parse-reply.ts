import type { ParseMethod, ParsedReply } from '../contract/index.js';
import { findFencedBlocks, followsFence } from './fences.js';
import { onlyGlueBetween } from './glue.js';
import { ReadingList, combineReadings, readValue } from './readings.js';
import type { Reading } from './readings.js';
import { safeParseJson } from '../contract/json.js';
import { readProseRefusal } from './prose-refusal.js';
import { repairJson } from './repair-json.js';
import { MAX_DEPTH, matchBracket, nestsDeeperThan, scanBracketSpans } from './scan.js';
import { splitThinking } from './thinking.js';

/**
 * Failed JSON.parse attempts allowed per stage. A failed parse can read to the end of the text, so
 * an unbounded retry on every nested `{` would be quadratic on adversarial input; with the bound
 * the whole parse stays O(n).
 */
const MAX_FAILED_ATTEMPTS = 24;
const MAX_REPAIR_ATTEMPTS = 3;
const KEYWORDS = /"(?:actions|decline|declined|refusal|reasoning|type)"\s*:/g;
const ACTIONS_KEY = /"actions"\s*:\s*\[/g;
const REASONING_KEY = /"reasoning"\s*:\s*"/g;

/** What was seen along the way, so a failure can say why. */
interface Findings {
  other?: string;
  syntaxError?: string;
  repairError?: string;
}

/**
 * Reads a model reply into actions, a decline, or a reason it could not be read. Never throws, on
 * any string. Tries, in order: the whole text as JSON (`json`); fenced blocks (`fenced`); the
 * outermost objects in surrounding prose (`object`, or `fenced` when the object sits in a fence);
 * `"actions": [...]` arrays found by string-aware bracket matching (`salvaged`); a one-pass repair as the
 * last resort (`repaired`). Several objects that each carry part of the reply are merged and
 * reported as `salvaged`. A leading `<think>` block is never searched for the answer; it becomes
 * the reasoning when the JSON has none.
 */
export function parseReply(text: string): ParsedReply {
  if (text.trim() === '') return unparseable('the reply is empty');
  const whole = readWhole(text, 'json');
  if (whole !== undefined) return whole;

  const split = splitThinking(text);
  if (split.unclosed) return unparseable('the reply ended inside its <think> reasoning block; no answer followed it');
  if (split.thinking !== undefined && split.answer.trim() === '') {
    return unparseable('the reply holds only a <think> reasoning block; no answer followed it');
  }
  const parsed = readAnswer(split.answer, split.thinking !== undefined);
  if (parsed.kind === 'unparseable' && split.orphan) {
    const unsplit = readAnswer(text, false);
    if (unsplit.kind !== 'unparseable') return unsplit;
  }
  if (parsed.kind === 'actions' && parsed.reasoning === undefined && split.thinking) {
    return { ...parsed, reasoning: split.thinking };
  }
  return parsed;
}

function readAnswer(answer: string, afterThinking: boolean): ParsedReply {
  const findings: Findings = {};
  const found =
    (afterThinking ? readWhole(answer, 'json') : undefined) ??
    readFences(answer, findings) ??
    readObjects(answer, findings) ??
    salvageActions(answer) ??
    repair(answer, findings);
  if (found !== undefined) return found;
  const refusal = readProseRefusal(answer);
  if (refusal !== undefined) return { kind: 'declined', reason: refusal };
  return unparseable(failureReason(answer, findings));
}

function readWhole(text: string, origin: ParseMethod): ParsedReply | undefined {
  if (nestsDeeperThan(text, MAX_DEPTH)) return undefined;
  const parsed = safeParseJson(text.trim());
  if (!parsed.ok) return undefined;
  return combineReadings(readValue(parsed.value, origin), { bareActions: true, merged: 'salvaged' });
}

function readFences(answer: string, findings: Findings): ParsedReply | undefined {
  const kept = new ReadingList();
  for (const block of findFencedBlocks(answer)) {
    if (nestsDeeperThan(block.content, MAX_DEPTH)) continue;
    const parsed = safeParseJson(block.content.trim());
    if (parsed.ok) for (const reading of readValue(parsed.value, 'fenced')) kept.add(reading);
  }
  noteOther(kept.readings, findings);
  return combineReadings(kept.readings, { bareActions: false, merged: 'salvaged' });
}

/**
 * The outermost JSON values in prose. Spans are visited in order; a span that parses is used whole
 * and its children are skipped, a span that does not is descended into (the reply may be an object
 * inside an unclosed prose brace). Spans without a reply key are skipped unparsed.
 */
function readObjects(answer: string, findings: Findings): ParsedReply | undefined {
  const { count, starts, ends, depths } = scanBracketSpans(answer);
  const hasKeywordWithin = keywordFinder(answer);
  const kept = new ReadingList();
  // Whether only commas, whitespace and fence markers lie around the values used so far.
  let glueOnly = true;
  let usedUntil = 0;
  let skipUntil = -1;
  let brokenUntil = -1;
  let failures = 0;
  for (let span = 0; span < count && failures < MAX_FAILED_ATTEMPTS; span += 1) {
    const start = starts[span] as number;
    const end = ends[span] as number;
    if (start < skipUntil) continue;
    if (end === -1 || (depths[span] as number) > MAX_DEPTH) continue;
    if (!hasKeywordWithin(start, end)) {
      skipUntil = end;
      continue;
    }
    const parsed = safeParseJson(answer.slice(start, end + 1));
    if (!parsed.ok) {
      failures += 1;
      findings.syntaxError ??= parsed.error;
      brokenUntil = Math.max(brokenUntil, end);
      continue;
    }
    skipUntil = end;
    const found = readValue(parsed.value, followsFence(answer, start) ? 'fenced' : 'object');
    // Inside a broken object only a whole reply counts: its bare action array or action objects
    // are pieces of the broken reply, which salvage and repair read with what surrounds them.
    const usable = start < brokenUntil ? found.filter(isWholeReply) : found;
    if (usable.length > 0) {
      glueOnly &&= onlyGlueBetween(answer, usedUntil, start);
      usedUntil = end + 1;
    }
    for (const reading of usable) kept.add(reading);
  }
  noteOther(kept.readings, findings);
  const bareActions = glueOnly && onlyGlueBetween(answer, usedUntil, answer.length);
  return combineReadings(kept.readings, { bareActions, merged: 'salvaged' });
}

/**
 * The `"actions": [...]` arrays of a reply whose surrounding object is broken (an unescaped quote
 * in the reasoning, a stray word between keys), recovered by string-aware bracket matching.
 */
function salvageActions(answer: string): ParsedReply | undefined {
  const readings: Reading[] = [];
  let consumedUntil = -1;
  let failures = 0;
  ACTIONS_KEY.lastIndex = 0;
  for (let match = ACTIONS_KEY.exec(answer); match !== null && failures < MAX_FAILED_ATTEMPTS; match = ACTIONS_KEY.exec(answer)) {
    const open = match.index + match[0].length - 1;
    if (open < consumedUntil) continue;
    const close = matchBracket(answer, open, MAX_DEPTH);
    const parsed = close === -1 ? undefined : safeParseJson(answer.slice(open, close + 1));
    if (parsed === undefined || !parsed.ok || !Array.isArray(parsed.value)) {
      failures += 1;
      continue;
    }
    consumedUntil = close;
    readings.push({ shape: 'reply', origin: 'salvaged', actions: parsed.value, bare: false });
  }
  if (readings.length === 0) return undefined;
  const reasoning = salvageReasoning(answer);
  if (reasoning !== undefined) readings.push({ shape: 'reasoning', origin: 'salvaged', reasoning });
  return combineReadings(readings, { bareActions: false, merged: 'salvaged' });
}

function salvageReasoning(answer: string): string | undefined {
  REASONING_KEY.lastIndex = 0;
  const match = REASONING_KEY.exec(answer);
  if (match === null) return undefined;
  const open = match.index + match[0].length - 1;
  let index = open + 1;
  while (index < answer.length && answer.charCodeAt(index) !== 34) index += answer.charCodeAt(index) === 92 ? 2 : 1;
  if (index >= answer.length) return undefined;
  const parsed = safeParseJson(answer.slice(open, index + 1));
  return parsed.ok && typeof parsed.value === 'string' && parsed.value.trim() !== '' ? parsed.value.trim() : undefined;
}

/**
 * The last resort: trailing commas, single quotes, comments, a reply cut off mid-string. Each
 * candidate is repaired in one linear pass (repair-json.ts), so the whole stage stays O(n).
 */
function repair(answer: string, findings: Findings): ParsedReply | undefined {
  for (const candidate of repairCandidates(answer)) {
    const repaired = repairJson(candidate);
    if (repaired === undefined) {
      findings.repairError ??= 'the text around the JSON is not JSON that a repair could fix';
      continue;
    }
    const parsed = safeParseJson(repaired);
    if (!parsed.ok) {
      findings.repairError ??= parsed.error;
      continue;
    }
    const readings = readValue(parsed.value, 'repaired');
    const found = combineReadings(readings, { bareActions: false, merged: 'repaired' });
    if (found !== undefined) return found;
    noteOther(readings, findings);
  }
  return undefined;
}

function repairCandidates(answer: string): string[] {
  const candidates: string[] = [];
  const fence = findFencedBlocks(answer)[0];
  if (fence !== undefined && fence.content.trim() !== '') candidates.push(fence.content);
  const firstBrace = answer.indexOf('{');
  const firstBracket = answer.indexOf('[');
  const first =
    firstBracket !== -1 && (firstBrace === -1 || firstBracket < firstBrace) && /^\[\s*\{/.test(answer.slice(firstBracket, firstBracket + 64))
      ? firstBracket
      : firstBrace;
  if (first !== -1) {
    const last = Math.max(answer.lastIndexOf('}'), answer.lastIndexOf(']'));
    if (last > first) candidates.push(answer.slice(first, last + 1));
    candidates.push(answer.slice(first));
  }
  return [...new Set(candidates)].slice(0, MAX_REPAIR_ATTEMPTS);
}

/**
 * Whether a reply key starts within [start, end), for spans asked about in order of their start.
 * The first key at or after the last start asked about is kept, so the pattern only moves forward
 * (the text is read at most once) and text without a closed span is not searched at all.
 */
function keywordFinder(text: string): (start: number, end: number) => boolean {
  let next = -1;
  return (start, end) => {
    if (next < start) {
      KEYWORDS.lastIndex = start;
      next = KEYWORDS.exec(text)?.index ?? Number.POSITIVE_INFINITY;
    }
    return next < end;
  };
}

function isWholeReply(reading: Reading): boolean {
  return (reading.shape === 'reply' && !reading.bare) || reading.shape === 'decline' || reading.shape === 'invalid';
}

function noteOther(readings: readonly Reading[], findings: Findings): void {
  const other = readings.find((reading) => reading.shape === 'other' || reading.shape === 'reasoning' || reading.shape === 'action');
  if (other === undefined || findings.other !== undefined) return;
  if (other.shape === 'other') findings.other = other.description;
  else if (other.shape === 'reasoning') findings.other = 'an object with reasoning but no "actions" array';
  else findings.other = 'a lone action object in prose, not an "actions" array';
}

function failureReason(answer: string, findings: Findings): string {
  if (findings.other !== undefined) return `no "actions" array or decline found; the JSON read was ${findings.other}`;
  if (!/[{[]/.test(answer)) return 'no JSON in the reply';
  const details = [
    findings.syntaxError === undefined ? undefined : `invalid JSON (${clip(findings.syntaxError)})`,
    findings.repairError === undefined ? undefined : `repair failed (${clip(findings.repairError)})`,
  ].filter((detail) => detail !== undefined);
  return `no readable JSON reply${details.length === 0 ? '' : `: ${details.join('; ')}`}`;
}

function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

function unparseable(reason: string): ParsedReply {
  return { kind: 'unparseable', reason };
}
