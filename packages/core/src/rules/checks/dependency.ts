import type { DependencyCheck } from '../../contract/index.js';
import { manifestOf, readDependencies } from '../dependencies/read-dependencies.js';
import type { Dependencies } from '../dependencies/read-dependencies.js';
import { compileGlobs } from '../glob.js';
import type { CheckHandler } from './check-handler.js';
import { result } from './check-handler.js';

const NONE: Dependencies = new Map();
const SHOWN = 5;

/**
 * A new (or, with `changed`, re-versioned) dependency in a manifest is refused, or needs a write
 * matching `needs` in the same round (the decision record). The written manifest is compared with what
 * the file held before the round; when that is not known for a file that existed, the comparison
 * cannot be made and the write is refused (fail closed). A manifest that does not parse is refused.
 */
export const dependencyCheck: CheckHandler<DependencyCheck> = {
  description: 'Refuses a new (or changed) dependency in a manifest, or asks for a file written with it.',
  timing: 'action',
  reads: 'round',
  prepare(check, rule) {
    const manifests = new Set(check.manifests);
    const needs = check.needs === undefined ? undefined : compileGlobs(check.needs);
    const needsText = check.needs?.join(', ');
    return (round) => {
      const record = needs === undefined ? undefined : round.actions.find((action) => action.type === 'write' && action.path.ok && needs(action.path.path));
      return round.actions.flatMap((action) => {
        if (action.type !== 'write' || !action.path.ok) return [];
        const path = action.path.path;
        const manifest = manifestOf(path);
        if (manifest === undefined || !manifests.has(manifest)) return [];
        const what = `write to ${action.shownPath}`;
        if (action.content === undefined) return [result(rule, action.index, false, `${what} has no content to read its dependencies from.`)];
        const written = readDependencies(manifest, action.content);
        if (!written.ok) return [result(rule, action.index, false, `${what} cannot be read as ${manifest} (${written.reason}); write a valid manifest.`)];
        let before = NONE;
        if (round.existing.has(path)) {
          const text = round.contentOf?.(path);
          if (text === undefined) {
            return [
              result(
                rule,
                action.index,
                false,
                `${what} cannot be compared with the file as it was (its earlier content is not known here), so its dependencies count as new; change it where the gate can see the file.`,
              ),
            ];
          }
          const earlier = readDependencies(manifest, text);
          before = earlier.ok ? earlier.dependencies : NONE;
        }
        const added: string[] = [];
        const changed: string[] = [];
        for (const [key, version] of written.dependencies) {
          const old = before.get(key);
          if (old === undefined) added.push(`${key} ${version}`.trim());
          else if (check.changed && old !== version) changed.push(`${key} ${old} -> ${version}`);
        }
        if (added.length === 0 && changed.length === 0) return [result(rule, action.index, true, `${what} adds or changes no dependency.`)];
        const list = [...added.map((entry) => `new ${entry}`), ...changed.map((entry) => `changed ${entry}`)];
        const shown = `${list.slice(0, SHOWN).join(', ')}${list.length > SHOWN ? ` and ${list.length - SHOWN} more` : ''}`;
        if (record !== undefined) {
          return [result(rule, action.index, true, `${what} (${shown}) comes with ${record.shownPath} (action ${record.index}), which the rule asks for.`)];
        }
        const instead =
          needsText === undefined
            ? 'use what the project already depends on'
            : `write the decision record (${needsText}) in the same change, or leave the dependencies as they are`;
        return [result(rule, action.index, false, `${what} ${list.length === 1 ? 'brings a dependency' : 'brings dependencies'} (${shown}); ${instead}.`)];
      });
    };
  },
};
