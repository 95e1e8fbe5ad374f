import { fileURLToPath } from 'node:url';
import { draftRulebook, draftWithModel, measureDrafter, measureDrafting, readCorpus, resolveDraftModel } from '@holdfast/lab/onboard';
import type { SetMeasure } from '@holdfast/lab/onboard';
import type { BenchContext } from './index.js';

function figures(label: string, measure: SetMeasure, context: BenchContext, print: (line: string) => void): void {
  print(
    `${label}: ${measure.files} rule files, ${measure.rules} rules drafted, ${measure.proposed} checks proposed: ${measure.right} right, ${measure.inverted} inverted; ${measure.checkable} checkable rules labelled, ${measure.checkable - measure.missed.length} enforced by a right check`,
  );
  for (const check of measure.checks)
    if (check.verdict !== 'right')
      print(`  ${check.verdict}: ${check.dir}:${check.line} ${check.kind} ${check.polarity} ${check.objects.join(', ')} (${check.reason ?? ''})`);
  for (const miss of measure.missed) print(`  missed: ${miss.dir}:${miss.line} ${miss.kind}`);
  context.figure({
    name: `drafted-check precision (${label})`,
    value: measure.precision,
    unit: 'ratio',
    better: 'higher',
    target: { on: 'value', atLeast: 0.9 },
    detail: `${measure.right} of ${measure.proposed} drafted checks right in kind, polarity and object`,
  });
  context.figure({
    name: `drafted checks inverted (${label})`,
    value: measure.inverted,
    unit: 'count',
    better: 'lower',
    target: { on: 'value', atMost: 0 },
    detail: `drafted checks that forbid what their sentence, or another line of the file, requires or allows`,
  });
  context.figure({
    name: `checkable-rule recall (${label})`,
    value: measure.recall,
    unit: 'ratio',
    better: 'higher',
    target: { on: 'value', atLeast: 0.5 },
    detail: `${measure.checkable - measure.missed.length} of ${measure.checkable} rules labelled checkable are enforced by a right check`,
  });
}

/**
 * Drafting against the labelled corpus of real rule files (fixtures/rule-files): each drafted check judged
 * by kind, polarity and object together, on the files the drafter was tuned on and on the held-out files.
 * With `--model TARGET`, the same figures for `init --model`'s drafter (the offline draft plus the model's
 * verified checks) with that live target. The corpus files come without their repositories, so its proposals
 * are verified on their own examples only, not on a history; and a scripted model would measure the script,
 * so the model drafter is measured only on a live target, never in `npm test`.
 */
export async function runBench(print: (line: string) => void, context: BenchContext): Promise<void> {
  const corpus = readCorpus(fileURLToPath(new URL('../../fixtures/rule-files/', import.meta.url)));
  const measure = measureDrafting(corpus);
  figures('tuning', measure.tuning, context, print);
  figures('held-out', measure.heldOut, context, print);
  if (context.model === undefined) {
    print('drafting: the model drafter (holdfast init --model) is measured only with a live target: npm run bench -- drafting --model TARGET');
    return;
  }
  const { model, secrets } = await resolveDraftModel(context.model, process.cwd(), process.env, []);
  let requests = 0;
  let kept = 0;
  const withModel = await measureDrafter(corpus, async (file, facts) => {
    const offline = draftRulebook([{ path: file.entry.file, text: file.text }], facts);
    const drafted = await draftWithModel(offline, { model, facts, existing: ['package.json', 'src/index.ts', 'src/index.test.ts'], secrets });
    requests += drafted.requests;
    kept += drafted.kept.length;
    print(`  ${file.entry.dir}: ${drafted.requests} requests, ${drafted.kept.length} kept, ${drafted.rejected.length} not kept`);
    return drafted.drafted;
  });
  print(`model drafter with ${context.model}: ${requests} requests, ${kept} checks kept on top of the offline draft`);
  figures(`tuning, model ${context.model}`, withModel.tuning, context, print);
  figures(`held-out, model ${context.model}`, withModel.heldOut, context, print);
}
