#!/bin/sh
# make fuzz FUZZ_SECONDS=N: libFuzzer over the image parsers (clang, ASan,
# UBSan), seeded with the fixture ELFs (small: quick executions). Crashes
# land in build-fuzz/crashes/; copy each into tests/fuzz/regress/ (with the
# fix) so the regression test keeps it.
set -eu
secs=${FUZZ_SECONDS:-60}
out=build-fuzz
mkdir -p $out/corpus $out/crashes
# the parser layers and the core registry the patcher takes its cores from
# (docs/how-it-works.md, "Layers"; models never reach the emulator): no emulator here
# every library layer but those above the image parsers (a new layer below
# them is taken without a change here: a list by hand missed sim/cpu/ once)
srcs="tests/fuzz/fuzz_image.c $(ls sim/*/*.c models/*.c | grep -v -e '^sim/vm/' -e '^sim/emu/' -e '^sim/paths/' -e '^sim/measure/')"
if [ ! -x $out/fuzz_image ] || [ -n "$(find sim models include tests/fuzz scripts/fuzz.sh -newer $out/fuzz_image -name '*.[ch]' -o -newer $out/fuzz_image -name fuzz.sh | head -1)" ]; then
	echo "  CLANG   $out/fuzz_image"
	clang -std=c11 -D_GNU_SOURCE -DHS_LIBFUZZER -O1 -g -fno-omit-frame-pointer \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-Iinclude -Isim -I/usr/include/capstone -o $out/fuzz_image $srcs -lelf -lcapstone -lm
fi
for f in kernels/fixtures/build/*.elf tests/fuzz/regress/*; do
	[ -f "$f" ] && cp "$f" $out/corpus/ 2>/dev/null || true
done
echo "fuzz: $secs s over $(ls $out/corpus | wc -l) seeds"
$out/fuzz_image -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
	-artifact_prefix=$out/crashes/ -print_final_stats=1 $out/corpus 2>$out/fuzz.log || {
	tail -40 $out/fuzz.log
	echo "fuzz: crash found, input in $out/crashes/" >&2
	exit 1
}
grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' $out/fuzz.log
echo "fuzz: no crash ($(grep -c . $out/fuzz.log) log lines in $out/fuzz.log)"
