/**
 * Why a confined command failed, when its output says it was the trial and not the code: a program
 * that is not there, a name that does not resolve, a dependency that is not installed. Each with the
 * fix. Undefined when the output names none of these (then the tests themselves failed).
 */
export function trialFailureCause(output: string): string | undefined {
  const program =
    /bwrap: execvp ([^:\s]+): No such file or directory/.exec(output) ?? /(?:^|\n)(?:sh: \d+: |\/bin\/sh: )?([\w.-]+): (?:command )?not found/.exec(output);
  if (program !== null)
    return `${program[1]} is not available in the trial: it runs the programs on your PATH (read-only), so install ${program[1]} where your shell finds it, or pass --accept with the command that runs the tests`;
  const name =
    /getaddrinfo (?:EAI_AGAIN|ENOTFOUND) ([^\s'"]+)/.exec(output) ??
    /(?:Temporary failure in name resolution|Could not resolve host:?) ?([^\s'"]*)/.exec(output);
  if (name !== null)
    return `the name ${name[1] !== '' ? name[1] : 'a host'} does not resolve in the trial (its network is loopback only, and /etc/hosts is the host's): a test that needs another machine cannot be a hidden test`;
  const missing =
    /Cannot find (?:package|module) '([^'./][^']*)'/.exec(output) ??
    /ModuleNotFoundError: No module named '([^']+)'/.exec(output) ??
    /no required module provides package ([^\s;]+)/.exec(output) ??
    /cannot find module providing package ([^\s:]+)/.exec(output) ??
    /no matching package named `([^`]+)`/.exec(output) ??
    /failed to (?:download|get) `?([^`\s]+)`? as a dependency/.exec(output);
  if (missing !== null)
    return `the dependency ${missing[1]} is not installed for the trial: install the repository's dependencies in it first (npm/pnpm/yarn install, pip install into .venv, go mod download, cargo fetch), then try again; the trial is offline and reads them read-only`;
  return undefined;
}
