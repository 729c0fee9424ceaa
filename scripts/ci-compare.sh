#!/bin/bash
# ci-compare.sh - the one step a CI job runs (docs/ci.md): compare a pair of
# kernel images and leave what a pull request needs in OUTDIR.
#
#   scripts/ci-compare.sh BASE_VMLINUX PATCHED_VMLINUX OUTDIR [compare options]
#   scripts/ci-compare.sh --pair TREE BASE..HEAD OUTDIR [compare options]
#   scripts/ci-compare.sh --shard K/N BASE_VMLINUX PATCHED_VMLINUX OUTDIR [compare options]
#   scripts/ci-compare.sh --merge OUTDIR SHARD.json...
#
# The second form builds the pair first (hotsim pair TREE --commits
# BASE..HEAD). OUTDIR gets compare.json (schema hotsim-compare/2),
# compare.svg (bars), compare.md (the comment to post) and compare.txt. The
# compare options are passed to every run (e.g. --fail-above 1 --noise 8;
# not --format, --svg, --md or --txt). Exit status: compare's - 0; 1 when --fail-above
# trips (the files are written all the same); 2 on errors.
#
# Split over N jobs: job K runs --shard K/N (OUTDIR gets shard-K.json,
# compare --shard's rows), and one job then runs --merge OUTDIR with all N
# shards, which writes the four files the unsharded form writes, byte for
# byte, with its exit status. The merge runs from the directory the shards
# ran from, with the images at the same paths (docs/ci.md).
set -euo pipefail

die() { echo "ci-compare: $*" >&2; exit 2; }

here=$(cd "$(dirname "$0")" && pwd)
hotsim=${HOTSIM_BIN:-}
for h in "$here/../hotsim" "$here/../build/hotsim" "$(command -v hotsim || true)"; do
	[ -n "$hotsim" ] && break
	if [ -n "$h" ] && [ -x "$h" ]; then hotsim=$h; fi
done
[ -n "$hotsim" ] && [ -x "$hotsim" ] || die "no hotsim (build it: make; or install it: make install)"

if [ "${1:-}" = --merge ]; then
	[ $# -ge 3 ] || die "usage: ci-compare.sh --merge OUTDIR SHARD.json..."
	out=$2
	shift 2
	mkdir -p "$out"
	rc=0
	"$hotsim" merge "$@" > "$out/compare.json" || rc=$?
	[ $rc -le 1 ] || exit $rc
	echo "ci-compare: merged $# shards into $out/compare.json, compare.svg, compare.md, compare.txt (exit $rc)" >&2
	exit $rc
fi
shard=
if [ "${1:-}" = --shard ]; then
	[ $# -ge 5 ] || die "usage: ci-compare.sh --shard K/N BASE_VMLINUX PATCHED_VMLINUX OUTDIR [compare options]"
	shard=$2
	shift 2
fi
if [ "${1:-}" = --pair ]; then
	[ $# -ge 4 ] || die "usage: ci-compare.sh --pair TREE BASE..HEAD OUTDIR [compare options]"
	tree=$2 commits=$3 out=$4
	shift 4
	mkdir -p "$out/pair"
	"$hotsim" pair "$tree" --commits "$commits" --out "$out/pair" > "$out/pair/pair.txt" ||
		die "hotsim pair failed (its messages are above)"
	base=$out/pair/base.vmlinux patched=$out/pair/patched.vmlinux
else
	[ $# -ge 3 ] || die "usage: ci-compare.sh BASE_VMLINUX PATCHED_VMLINUX OUTDIR [compare options]"
	base=$1 patched=$2 out=$3
	shift 3
fi
for a in "$@"; do
	case "$a" in
	--format*|--json|--svg*|--md*|--txt*|--shard*) die "$a: ci-compare.sh chooses the formats and the files itself" ;;
	esac
done
mkdir -p "$out"

# A share of the work: its rows, for the merge (the report options travel
# in them and act there).
if [ -n "$shard" ]; then
	k=${shard%%/*}
	"$hotsim" compare "$base" "$patched" "$@" --format json --svg "$out/compare.svg" --md "$out/compare.md" \
		--txt "$out/compare.txt" --shard "$shard" > "$out/shard-$k.json"
	echo "ci-compare: wrote $out/shard-$k.json (shard $shard)" >&2
	exit 0
fi

# One run, every format (--txt, --md: the same measurement); its status is
# the job's.
rc=0
"$hotsim" compare "$base" "$patched" "$@" --format json --svg "$out/compare.svg" --md "$out/compare.md" \
	--txt "$out/compare.txt" > "$out/compare.json" || rc=$?
[ $rc -le 1 ] || exit $rc
echo "ci-compare: wrote $out/compare.json, compare.svg, compare.md, compare.txt (exit $rc)" >&2
exit $rc
