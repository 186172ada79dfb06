#!/bin/sh
# ZeoCore sample provider "text-stats": reads text on stdin and writes a one-line summary on stdout.
# ZeoCore starts it with an empty environment (no PATH), so it uses shell built-ins and absolute paths only.
# Markers in the text drive the demo's failure paths:
#   #fail   exit 75 (EX_TEMPFAIL): mapped to TRANSIENT by zeocore.subprocess.providers.text-stats.exit-codes
#   #crash  exit 1: PERMANENT
#   #hang   ignores SIGTERM and sleeps: ZeoCore kills the whole process group after the grace period
text=''
lines=0
while IFS= read -r line || [ -n "$line" ]; do
  text="$text $line"
  lines=$((lines + 1))
done
case "$text" in
  *'#fail'*) exit 75 ;;
  *'#crash'*) exit 1 ;;
  *'#hang'*) trap '' TERM; /bin/sleep 3600; exit 0 ;;
esac
set -f
# shellcheck disable=SC2086
set -- $text
printf '%s words in %s lines, summarized by the local text-stats provider\n' "$#" "$lines"
