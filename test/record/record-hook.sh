#!/bin/sh
# A hook that records what the agent sends it and lets everything through: stdin to a numbered file,
# plus how it was started (its parent's argv shows whether the agent ran the command through a shell).
dir="$1"
stamp=$(date +%s%N)
cat > "$dir/$stamp-$$.json"
tr '\0' ' ' < /proc/$PPID/cmdline > "$dir/$stamp-$$.parent"
exit 0
