/** Edit semantics of Claude Code's Edit and Gemini CLI's replace: the first occurrence, or every one with replace_all (allow_multiple). */
export function applyEdit(content: string, edit: { old_string: string; new_string: string; replace_all?: boolean | undefined }): string {
  if (edit.old_string === '') return content === '' ? edit.new_string : content + edit.new_string;
  if (!content.includes(edit.old_string)) {
    // The edit will fail in the agent; judging the new text anyway keeps a content rule from missing it.
    return content === '' ? edit.new_string : `${content}\n${edit.new_string}`;
  }
  return edit.replace_all === true ? content.split(edit.old_string).join(edit.new_string) : content.replace(edit.old_string, () => edit.new_string);
}
