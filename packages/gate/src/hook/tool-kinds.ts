/**
 * A matcher (a JavaScript regex, as Claude Code reads any matcher that is not a plain `|` list) for
 * every tool but those named: Claude Code tests it against the tool's name and each of its aliases.
 */
export function everyToolBut(names: readonly string[]): string {
  return `^(?!(?:${names.join('|')})$).*`;
}

/** What the model and the audit log read for a tool judged only after it ran (an opaque tool). */
export function opaqueEffect(tool: string): string {
  return `\`${tool}\` is a tool whose effect on files cannot be known before it runs`;
}
