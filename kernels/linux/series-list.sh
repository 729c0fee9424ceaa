# shellcheck shell=bash disable=SC2154
# series-list.sh - the commits of a series, for scripts/hotsim-series: from a
# git range (the first-parent commits after BASE up to TIP) or from patch
# files (an mbox, a patch, a directory of them, a quilt series). Sets n, and
# for K = 0 (the base) to n: ids[K], subjects[K], status[K] ("ok", or why
# the patch does not apply); series_diff writes the diff from one commit's
# tree to a later one's.
#
# The caller sets tree, commits or patches, tmp; defines die().

# A line without tabs or carriage returns (the list is tab-separated).
one_line() { tr '\t\r' '  '; }

series_from_git() {
	local tip_rev k
	git -C "$tree" rev-parse --git-dir >/dev/null 2>&1 || die "$tree is not a git checkout (--commits needs one)"
	case "$commits" in
	*...*|..*|*..) die "--commits is BASE..TIP, not '$commits'" ;;
	*..*) ;;
	*) die "--commits is BASE..TIP, not '$commits'" ;;
	esac
	base_rev=$(git -C "$tree" rev-parse --verify -q "${commits%%..*}^{commit}") ||
		die "no commit '${commits%%..*}' in $tree"
	tip_rev=$(git -C "$tree" rev-parse --verify -q "${commits#*..}^{commit}") ||
		die "no commit '${commits#*..}' in $tree"
	git -C "$tree" merge-base --is-ancestor "$base_rev" "$tip_rev" ||
		die "${commits%%..*} is not an ancestor of ${commits#*..}"
	mapfile -t revs < <(git -C "$tree" rev-list --reverse --first-parent "$base_rev..$tip_rev")
	n=${#revs[@]}
	[ "$n" -gt 0 ] || die "$commits has no commits"
	git -C "$tree" cat-file -e "$base_rev:arch/arm64/Kconfig" 2>/dev/null ||
		die "$tree at ${commits%%..*} is not a Linux source tree (no arch/arm64/)"
	revs=("$base_rev" "${revs[@]}")
	for ((k = 0; k <= n; k++)); do
		ids[k]=$(git -C "$tree" rev-parse --short=12 "${revs[k]}")
		subjects[k]=$(git -C "$tree" log -1 --format=%s "${revs[k]}" | one_line)
		status[k]=ok
	done
	what="$tree at ${commits%%..*}"
}

# split_patch FILE NAME: each message of FILE (an mbox; a patch is one) that
# carries a diff becomes $tmp/p/K.diff, with its id and subject.
split_patch() {
	local f=$1 name=$2 piece nparts i sha subj
	rm -rf "$tmp/split"
	mkdir -p "$tmp/split"
	awk -v d="$tmp/split" '
		/^From [^ ]+ +(Mon|Tue|Wed|Thu|Fri|Sat|Sun) / && started { k++ }
		{ started = 1; print > (d "/" sprintf("%04d", k)) }' "$f"
	nparts=$(find "$tmp/split" -type f | wc -l)
	i=0
	for piece in "$tmp/split"/*; do
		i=$((i + 1))
		grep -q '^+++ ' "$piece" || continue	# a cover letter: no diff
		n=$((n + 1))
		mv "$piece" "$tmp/p/$n.diff"
		sha=$(sed -n '1s/^From \([0-9a-f]\{40\}\) .*/\1/p' "$tmp/p/$n.diff")
		if [ -n "$sha" ]; then
			ids[n]=${sha:0:12}
		elif [ "$nparts" -gt 1 ]; then
			ids[n]=$name:$i
		else
			ids[n]=$name
		fi
		subj=$(awk '/^Subject: / { s = substr($0, 10)
				while ((getline l) > 0 && l ~ /^[ \t]/) s = s l
				print s; exit }
			    /^(diff |--- |Index: )/ { exit }' "$tmp/p/$n.diff" | sed 's/^\[[^]]*\] *//')
		[ -n "$subj" ] ||
			subj=$(awk '/^(diff |--- |Index: )/ { exit } NF { print; exit }' "$tmp/p/$n.diff")
		subjects[n]=$(printf '%s' "${subj:-${ids[n]}}" | one_line)
	done
}

# The patch files PATH names, in order, into $tmp/list: a quilt directory's
# series file (names relative to it, or absolute), a directory's *.patch
# and *.diff by name, or PATH itself.
patch_files() {
	local p f
	: > "$tmp/list"
	if [ -f "$patches/series" ]; then
		while read -r p _; do
			case "$p" in ''|'#'*) continue ;; /*) f=$p ;; *) f=$patches/$p ;; esac
			[ -f "$f" ] || die "$patches/series names $p, which is not there"
			echo "$f" >> "$tmp/list"
		done < "$patches/series"
	elif [ -d "$patches" ]; then
		find "$patches" -maxdepth 1 -type f \( -name '*.patch' -o -name '*.diff' \) | sort > "$tmp/list"
	else
		echo "$patches" > "$tmp/list"
	fi
}

# Which patches apply, each on the ones before it that did: tried on a
# copy of the files they touch (TREE is only read).
apply_status() {
	local k why
	mkdir -p "$tmp/dry"
	patched_files "$tmp/p/"*.diff | while IFS= read -r f; do
		[ -f "$tree/$f" ] && (cd "$tree" && cp --parents "$f" "$tmp/dry/")
		true
	done
	for ((k = 1; k <= n; k++)); do
		if patch -p1 -f --dry-run -d "$tmp/dry" < "$tmp/p/$k.diff" > "$tmp/why" 2>&1; then
			patch -p1 -f -s -d "$tmp/dry" < "$tmp/p/$k.diff" > /dev/null 2>&1
			status[k]=ok
			continue
		fi
		why=$(awk '/^checking file / { f = $3 ": " }
			   /FAILED|can.t find file|malformed|Only garbage|No file to patch|not supported/ { print f $0; exit }' \
			  "$tmp/why")
		[ -n "$why" ] || why=$(head -1 "$tmp/why")
		status[k]="does not apply: $(printf '%s' "$why" | one_line)"
	done
}

series_from_patches() {
	local f name
	[ -e "$patches" ] || die "$patches: no such file or directory"
	[ -f "$tree/Makefile" ] && [ -d "$tree/arch/arm64" ] ||
		die "$tree is not a Linux source tree (no Makefile and arch/arm64/)"
	mkdir -p "$tmp/p"
	n=0
	patch_files
	while IFS= read -r f; do
		name=$(basename "$f")
		split_patch "$f" "${name%.*}"
	done < "$tmp/list"
	[ "$n" -gt 0 ] || die "$patches: no patches (nothing with a '+++ ' file header)"
	ids[0]=base
	subjects[0]=$(printf '%s' "$tree" | one_line)
	status[0]=ok
	apply_status
	what=$tree
}

# series_diff A B OUT: what takes commit A's tree to commit B's (A < B; the
# patches between that apply, or git's diff).
series_diff() {
	local a=$1 b=$2 out=$3 k
	if [ -n "$commits" ]; then
		git -C "$tree" diff --no-color --no-ext-diff "${revs[a]}" "${revs[b]}" > "$out"
		return
	fi
	: > "$out"
	for ((k = a + 1; k <= b; k++)); do
		[ "${status[k]}" = ok ] && cat "$tmp/p/$k.diff" >> "$out"
	done
	return 0
}
