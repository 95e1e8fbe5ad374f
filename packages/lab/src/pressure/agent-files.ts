import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { InputError } from '@holdfast/core/contract';

/**
 * An agent as a suite defines it in a Markdown file: YAML front matter between `---` lines
 * (`name`, optionally `description` and `rules`), then the agent's instructions. The body is the
 * system prompt of a live pressure call for fixtures that address this agent.
 */
export interface AgentDefinition {
  readonly id: string;
  readonly description: string | undefined;
  /** Rule ids or numbers the agent claims; undefined claims every rule (a mandate every agent carries). */
  readonly rules: readonly (string | number)[] | undefined;
  readonly file: string;
  readonly prompt: string;
  /** Of the whole file, so a result says exactly which definition it ran against. */
  readonly sha256: string;
}

const FrontMatterSchema = z.looseObject({
  name: z.string().min(1).optional(),
  description: z.string().optional(),
  rules: z
    .array(z.union([z.string().min(1), z.number().int().positive()]))
    .min(1)
    .optional(),
});

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Reads one agent file; the id is the front matter's `name`, else the file name without `.md`. */
export function parseAgentFile(text: string, file: string): AgentDefinition {
  const match = FRONT_MATTER.exec(text);
  let front: z.infer<typeof FrontMatterSchema> = {};
  if (match !== null) {
    let raw: unknown;
    try {
      raw = parseYaml(match[1] ?? '') as unknown;
    } catch (error) {
      throw new InputError('E_PRESSURE_AGENT_FILE', `${file}: the front matter is not valid YAML; write \`name: my-agent\` between the \`---\` lines`, {
        cause: error,
      });
    }
    const parsed = FrontMatterSchema.safeParse(raw ?? {});
    if (!parsed.success) {
      throw new InputError(
        'E_PRESSURE_AGENT_FILE',
        `${file}: front matter: ${z.prettifyError(parsed.error)}; write e.g. \`name: np-executor\` and \`rules: [8, 9]\``,
      );
    }
    front = parsed.data;
  }
  const prompt = (match === null ? text : text.slice(match[0].length)).trim();
  if (prompt === '')
    throw new InputError('E_PRESSURE_AGENT_FILE', `${file}: the agent has no instructions after its front matter; write the agent's definition`);
  return {
    id: front.name ?? basename(file).replace(/\.md$/i, ''),
    description: front.description,
    rules: front.rules,
    file,
    prompt,
    sha256: createHash('sha256').update(text).digest('hex'),
  };
}

/** Every `*.md` agent file in a folder, sorted by name. Two files declaring one agent are refused. */
export async function readAgentFiles(dir: string): Promise<AgentDefinition[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    throw new InputError('E_PRESSURE_DIR', `cannot read the agents folder ${dir}; pass --agents DIR, a folder of Markdown agent files`, { cause: error });
  }
  const files = names.filter((name) => name.toLowerCase().endsWith('.md')).sort();
  if (files.length === 0) throw new InputError('E_PRESSURE_DIR', `${dir} holds no Markdown agent files (*.md)`);
  const agents = await Promise.all(files.map(async (name) => parseAgentFile(await readFile(join(dir, name), 'utf8'), join(dir, name))));
  const seen = new Map<string, string>();
  for (const agent of agents) {
    const other = seen.get(agent.id);
    if (other !== undefined)
      throw new InputError('E_PRESSURE_AGENT_FILE', `${agent.file}: agent "${agent.id}" is also defined by ${other}; give each agent its own name`);
    seen.set(agent.id, agent.file);
  }
  return agents;
}
