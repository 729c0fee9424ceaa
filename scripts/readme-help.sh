#!/bin/sh
# Rewrite the README's command block from `hotsim help` (tests/test_cli.c
# fails when the two differ). Usage: scripts/readme-help.sh [HOTSIM]
set -eu
bin=${1:-./hotsim}
tmp=$(mktemp)
"$bin" help > "$tmp"
awk -v help="$tmp" '
	/^<!-- hotsim help -->$/ { print; print "```"; while ((getline l < help) > 0) print l; skip = 1; next }
	/^```$/ && skip == 1 { skip = 2; next }
	/^<!-- end hotsim help -->$/ { print "```"; print; skip = 0; next }
	skip { next }
	{ print }
' README.md > README.md.tmp
mv README.md.tmp README.md
rm -f "$tmp"
