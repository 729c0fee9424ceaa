#!/bin/sh
# Run every Criterion test binary; print each suite's summary line and fail
# if any fails. Usage: scripts/run-tests.sh BUILD_DIR test-binary...
# Tests find the CLI through HOTSIM_BIN (the build flavour's own binary).
set -u
build=$1; shift
export HOTSIM_BIN="$build/hotsim"
[ -x "$HOTSIM_BIN" ] || { echo "run-tests: $HOTSIM_BIN missing" >&2; exit 2; }
case "$build" in
*san*) export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 HOTSIM_SAN=1 \
		LSAN_OPTIONS=suppressions=$(cd "$(dirname "$0")" && pwd)/lsan.supp ;;
esac
fail=0
for t in "$@"; do
	out=$("$t" -j2 --verbose 2>&1)
	rc=$?
	summary=$(printf '%s\n' "$out" | grep 'Synthesis:' | tail -1 | sed 's/ *$//')
	skipped=$(printf '%s\n' "$out" | grep -c '^\[SKIP\]')
	[ "$skipped" -gt 0 ] && summary="$summary | Skipped: $skipped (need real kernels)"
	printf '%-28s %s\n' "$(basename "$t")" "${summary:-no summary (crashed?)}"
	if [ $rc -ne 0 ]; then
		# bounded: failing assertions only, at most 60 lines
		printf '%s\n' "$out" | grep -v '^\[====\]\|^\[RUN \]\|^\[PASS\]\|^\[SKIP\]' | head -60
		fail=1
	fi
done
[ $fail -eq 0 ] && echo "all test suites passed ($build)"
exit $fail
