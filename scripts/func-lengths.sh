#!/bin/sh
# Functions longer than N lines (default 80) in the given C files: a function
# starts at a line beginning with a name and "(" in column 0 that is followed
# by a line "{", and ends at the next "}" in column 0.
n=${N:-80}
for f in "$@"; do
	awk -v max="$n" -v file="$f" '
		/^[a-z].*\(/ { name = $0 }
		/^\{/ { start = NR; fn = name }
		/^\}/ && start { len = NR - start + 1; if (len > max) printf "%s: %s (%d lines)\n", file, fn, len; start = 0 }
	' "$f"
done
