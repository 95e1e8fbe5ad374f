export declare function workspaceAliases(): { find: RegExp; replacement: string }[];
