#!/bin/sh
# Every C file opens with a comment naming itself: "/*\n * name.c - what it
# does" (or "/* name.h - ..." on one line). Prints the files that do not
# (stale names after a move or rename); exit 1 if any.
bad=0
for f in "$@"; do
	b=$(basename "$f")
	first=$(sed -n '1,3p' "$f" | grep -m1 -o '^\(/\*\| \*\) *[A-Za-z0-9_.+-]* -' | sed 's/^\(\/\*\| \*\) *//; s/ -$//')
	if [ "$first" != "$b" ]; then
		echo "$f: its header names '${first:-nothing}', not $b"
		bad=1
	fi
done
exit $bad
