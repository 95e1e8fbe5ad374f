import type { CommandSite } from './command-site.js';
import { checkConfigField, checkGitDirectory } from './git-command.js';
import { checkProgramVariable } from './program-settings.js';
import { syntheticField } from '@holdfast/core/shell';
import type { Field } from '@holdfast/core/shell';

/**
 * Variables that move git's hooks or switch the gate, judged wherever they are set: GIT_CONFIG_KEY_n
 * (with its VALUE_n, which an earlier statement may have set: `earlier` looks it up), GIT_CONFIG_PARAMETERS,
 * GIT_CONFIG_GLOBAL/SYSTEM pointed at another file, GIT_DIR pointed at another repository, HOME or
 * XDG_CONFIG_HOME moved in a command that commits, HOLDFAST_*, and variables that name a program for
 * another to run (program-settings.ts).
 */
export function checkEnvironment(assignments: ReadonlyMap<string, Field>, site: CommandSite, earlier: (name: string) => Field | undefined): void {
  const lookup = (name: string): Field | undefined => assignments.get(name) ?? earlier(name);
  const configIndexes = new Set<string>();
  for (const [name, field] of assignments) {
    const configEntry = /^GIT_CONFIG_(?:KEY|VALUE)_(\d+)$/.exec(name);
    if (configEntry !== null) configIndexes.add(configEntry[1] as string);
    else if (name.startsWith('HOLDFAST_')) site.bypass(`sets ${name}, an attempt to change how the holdfast gate runs`);
    else if (name === 'GIT_CONFIG_PARAMETERS') site.bypass('passes git configuration through GIT_CONFIG_PARAMETERS, which can move the hooks folder');
    else if (name === 'GIT_CONFIG_GLOBAL' || name === 'GIT_CONFIG_SYSTEM') {
      if (!(field.literal && field.text === '/dev/null'))
        site.bypass(`points git at another configuration file (${name}=${field.text}), which can move the hooks folder`);
    } else if (name === 'GIT_DIR') checkGitDirectory(field, site.cwd, site, 'GIT_DIR=');
    else if ((name === 'HOME' || name === 'XDG_CONFIG_HOME') && site.mayCommit) {
      site.bypass(`points git at another global configuration (${name}=${field.text}), which can move the hooks folder`);
    } else checkProgramVariable(name, field, site);
  }
  for (const index of configIndexes) {
    const key = lookup(`GIT_CONFIG_KEY_${index}`);
    if (key === undefined) continue;
    const value = lookup(`GIT_CONFIG_VALUE_${index}`) ?? syntheticField('');
    const keyKnown = key.literal ? key.text : key.knownPrefix === '' ? undefined : key.knownPrefix;
    if (keyKnown === undefined) site.bypass(`sets GIT_CONFIG_KEY_${index} to a configuration key that cannot be read, which could move the hooks folder`);
    else checkConfigField({ ...value, text: `${key.text}=${value.text}`, literal: key.literal && value.literal, knownPrefix: `${keyKnown}=` }, site, new Map());
  }
}
