/** How a shell call ended, as far as its agent tells the hooks: it failed (and how), or nothing says it did. */
export type ShellOutcome = { readonly failed: false } | { readonly failed: true; readonly ending: string };
