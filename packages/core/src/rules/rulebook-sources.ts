import { createRequire } from 'node:module';
import type { Rulebook } from '../contract/index.js';

type Path = readonly PropertyKey[];

/** The hash a rule file is kept under: sha256 of its UTF-8 bytes, lower-case hex. */
export function ruleFileHash(text: string): string {
  // Required here, not imported: the live hook bundles this file and most hook processes hash nothing.
  const { createHash } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * What the schema cannot say about a rulebook's kept rule files and sections: a kept file matches
 * its hash (an edited copy would be shown to the told arm as if the team wrote it), a rule's
 * source names a kept file and lines inside it, and a section names each rule once.
 */
export function sourceProblems(rulebook: Rulebook): { path: Path; message: string }[] {
  const problems: { path: Path; message: string }[] = [];
  const files = new Map<string, number>();
  (rulebook.sourceFiles ?? []).forEach((file, index) => {
    if (files.has(file.path)) problems.push({ path: ['sourceFiles', index, 'path'], message: `"${file.path}" is kept twice; keep each rule file once` });
    // CR, CRLF and LF all end a line, as the drafter reads them.
    files.set(file.path, file.text.split(/\r\n|\r|\n/).length);
    if (ruleFileHash(file.text) !== file.sha256)
      problems.push({
        path: ['sourceFiles', index, 'sha256'],
        message: `the kept text of ${file.path} does not match its sha256; draft the rulebook again from the file (holdfast rulebook init) instead of editing the copy`,
      });
  });
  const lists: [string, readonly { readonly id: string; readonly source?: { file: string; lines: [number, number] } | undefined }[]][] = [
    ['rules', rulebook.rules],
    ['proseRules', rulebook.proseRules ?? []],
    ['judgeRules', rulebook.judgeRules ?? []],
  ];
  const ids = new Set<string>();
  for (const [section, list] of lists)
    list.forEach((rule, index) => {
      ids.add(rule.id);
      if (rule.source === undefined || rulebook.sourceFiles === undefined) return;
      const lines = files.get(rule.source.file);
      const [first, last] = rule.source.lines;
      if (lines === undefined)
        problems.push({
          path: [section, index, 'source', 'file'],
          message: `rule ${rule.id} cites "${rule.source.file}", which is not among sourceFiles (${[...files.keys()].join(', ')})`,
        });
      else if (first > last || last > lines)
        problems.push({
          path: [section, index, 'source', 'lines'],
          message: `rule ${rule.id} cites lines ${first}-${last} of ${rule.source.file}, which has ${lines} lines`,
        });
    });
  const placed = new Set<string>();
  (rulebook.sections ?? []).forEach((section, index) => {
    section.rules.forEach((id, position) => {
      if (!ids.has(id))
        problems.push({ path: ['sections', index, 'rules', position], message: `unknown rule "${id}"; a section lists rules this rulebook defines` });
      else if (placed.has(id))
        problems.push({ path: ['sections', index, 'rules', position], message: `rule ${id} is in two sections; put each rule under one heading` });
      placed.add(id);
    });
  });
  return problems;
}
