#!/bin/sh
# Nothing built is tracked: every build flavour's output directory, objects,
# libraries and executables stay out of git (.gitignore), and no tracked
# file is a binary - but for the fuzzer's regression inputs, which are
# crafted images (tests/fuzz/regress/). Outside a git checkout (a tarball)
# there is nothing to check.
set -eu
cd "$(dirname "$0")/.."
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
   [ "$(git rev-parse --show-toplevel)" != "$(pwd -P)" ]; then
	echo "tracked: not a git checkout of hotsim, nothing to check"
	exit 0
fi
bad=0
# tracked although .gitignore says it is built
ignored=$(git ls-files -ci --exclude-standard)
for f in $ignored; do
	echo "tracked: $f is a build output (.gitignore covers it): git rm --cached it" >&2
	bad=1
done
# a binary, as git itself decides it (numstat counts no lines of one),
# over what is staged to be committed
empty=$(git hash-object -t tree /dev/null)
for f in $(git diff --cached --numstat "$empty" | awk -F'\t' '$1 == "-" { print $3 }'); do
	case "$f" in tests/fuzz/regress/*) continue ;; esac
	echo "tracked: $f is a binary file (only tests/fuzz/regress/ may hold binaries)" >&2
	bad=1
done
[ $bad = 0 ] && echo "tracked: no build output and no binary in git"
exit $bad
