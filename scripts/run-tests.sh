#!/bin/bash
# Run every Criterion test binary; print each suite's summary line (with its
# seconds) as it ends, and fail if any fails.
# Usage: scripts/run-tests.sh BUILD_DIR test-binary...
# Tests find the CLI through HOTSIM_BIN (the build flavour's own binary).
#
# Two suites run at once (HOTSIM_TEST_LANES), each with two test workers:
# one suite's tests alone left a core idle a fifth of the time (a suite's
# last long test, the snapshot files' I/O), and CI's budget is 60 minutes
# (docs/reliability.md). The suites whose tests take minutes start first, so the lanes
# end together. Every test keeps its own scratch files and the caches take
# locks, so a suite beside another sees what it would alone, only later.
set -u
build=$1; shift
export HOTSIM_BIN="$build/hotsim"
[ -x "$HOTSIM_BIN" ] || { echo "run-tests: $HOTSIM_BIN missing" >&2; exit 2; }
case "$build" in
*san*) export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 HOTSIM_SAN=1 \
		LSAN_OPTIONS=suppressions=$(cd "$(dirname "$0")" && pwd)/lsan.supp ;;
esac
lanes=${HOTSIM_TEST_LANES:-2}
# the long ones first (measured: docs/reliability.md, "A fresh machine")
long="test_booted test_pair test_series_kernel test_ci test_compare test_cli test_formats test_kcache"
order=()
for l in $long; do for t in "$@"; do [ "$(basename "$t")" = "$l" ] && order+=("$t"); done; done
for t in "$@"; do case " $long " in *" $(basename "$t") "*) ;; *) order+=("$t") ;; esac; done

tmp=$(mktemp -d /tmp/hotsim-tests.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# one suite into $tmp/NAME.{out,rc,secs}
suite() {
	local t=$1 n t0
	n=$(basename "$t"); t0=$(date +%s)
	"$t" -j2 --verbose > "$tmp/$n.out" 2>&1
	echo $? > "$tmp/$n.rc.tmp"
	echo $(( $(date +%s) - t0 )) > "$tmp/$n.secs"
	mv "$tmp/$n.rc.tmp" "$tmp/$n.rc"
}

# its summary line, and (failed) its failing assertions, at most 60 lines
report() {
	local n=$1 out rc summary skipped
	out="$tmp/$n.out"; rc=$(cat "$tmp/$n.rc")
	summary=$(grep 'Synthesis:' "$out" | tail -1 | sed 's/ *$//')
	skipped=$(grep -c '^\[SKIP\]' "$out")
	[ "$skipped" -gt 0 ] && summary="$summary | Skipped: $skipped"
	printf '%-28s %s (%ss)\n' "$n" "${summary:-no summary (crashed?)}" "$(cat "$tmp/$n.secs")"
	# each skip's reason, unless they are the real-kernel tests make test
	# leaves to make check (one line says so then)
	if [ "$skipped" -gt 0 ]; then
		if [ "${HOTSIM_KERNELS:-}" = skip ]; then
			grep '^\[SKIP\]' "$out" | grep -vc 'make check runs it' | grep -qx 0 ||
				grep '^\[SKIP\]' "$out" | grep -v 'make check runs it' | head -5 | sed 's/^/    /'
		else
			grep '^\[SKIP\]' "$out" | head -5 | sed 's/^/    /'
		fi
	fi
	if [ "$rc" -ne 0 ]; then
		# which tests failed first (one line each), then their assertions
		grep '^\[FAIL\]' "$out" | head -20 | sed 's/^/    /'
		grep -v '^\[====\]\|^\[RUN \]\|^\[PASS\]\|^\[SKIP\]\|^\[FAIL\]' "$out" | head -60
		return 1
	fi
}

fail=0
start_all=$(date +%s)
reported=" "
# print what has ended, in the order it ended
drain() {
	local f n
	for f in "$tmp"/*.rc; do
		[ -e "$f" ] || continue
		n=$(basename "$f" .rc)
		case "$reported" in *" $n "*) continue ;; esac
		reported="$reported$n "
		report "$n" || fail=1
	done
}
for t in "${order[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$lanes" ]; do sleep 1; drain; done
	suite "$t" &
done
wait
drain
[ $fail -eq 0 ] && echo "all test suites passed ($build, $(( $(date +%s) - start_all ))s)"
exit $fail
