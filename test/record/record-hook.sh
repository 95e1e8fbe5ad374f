#!/bin/sh
# A hook that records what the agent sends it and lets everything through: stdin to a numbered file,
# plus how it was started (its parent's argv shows whether the agent ran the command through a shell),
# plus the session transcript as it stood when the hook ran (what a hook can read of the session then).
dir="$1"
stamp=$(date +%s%N)
cat > "$dir/$stamp-$$.json"
tr '\0' ' ' < /proc/$PPID/cmdline > "$dir/$stamp-$$.parent"
transcript=$(sed -n 's/.*"transcript_path":"\([^"]*\)".*/\1/p' "$dir/$stamp-$$.json")
[ -n "$transcript" ] && cp "$transcript" "$dir/$stamp-$$.transcript" 2>/dev/null
exit 0
