#!/usr/bin/env bash
# fresh-root.sh - run a command in a clone of this checkout inside a fresh,
# minimal Debian 12 root: the newcomer's machine. Nothing installed on this
# machine by hand is visible there, so a package scripts/deps.sh forgets is
# a failure here, not on a user's machine. CI runs `make check` this way
# (.ci/run); anyone can run `make demo` the same way.
#
#   scripts/fresh-root.sh [--dirty] [--keep] [--no-cache] COMMAND...
#     COMMAND     run as root in the clone, e.g.  make demo   or   make check
#     --dirty     clone the working tree as it is (uncommitted changes too),
#                 not just the committed HEAD
#     --keep      leave the root in place afterwards (its path is printed)
#     --no-cache  an empty kernel cache inside (kernels are built again)
#
# The root is Debian's minbase plus make, git and ca-certificates, made by
# debootstrap once and kept as a tarball ($HOTSIM_FRESH_ROOT_TAR, default
# /var/tmp/hotsim-bookworm-minbase.tar), so a run costs seconds, not
# minutes, before COMMAND starts. It reaches the package registry through
# this machine's apt configuration, bound read-only. The kernel cache
# ($HOTSIM_CACHE, default ~/.cache/hotsim) is bound in: kernels and Debian's
# images there are verified by SHA-256 on every use, so sharing it is safe.
# Downloaded packages are kept in the cache's apt-archives/ between runs
# (apt checks every package against the archive's signed lists).
# Cleanup ends every process left inside and undoes every mount (the
# command's own first, deepest first) before anything is deleted; a root
# with a mount that will not go is left in place and named.
#
# Exit status: COMMAND's; 3 when no root can be made here (no root rights,
# no debootstrap, no mount) - the one line on stderr says which.
set -euo pipefail

dirty=0 keep=0 usecache=1
while [ $# -gt 0 ]; do
	case $1 in
	--dirty) dirty=1; shift ;;
	--keep) keep=1; shift ;;
	--no-cache) usecache=0; shift ;;
	-h|--help) sed -n '2,29p' "$0"; exit 0 ;;
	--) shift; break ;;
	-*) echo "fresh-root: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { echo "usage: scripts/fresh-root.sh [--dirty] [--keep] [--no-cache] COMMAND..." >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
cannot() { echo "fresh-root: cannot make a fresh root here: $*" >&2; exit 3; }
[ "$(id -u)" -eq 0 ] || cannot "needs root (chroot and bind mounts)"
command -v debootstrap >/dev/null || cannot "debootstrap is not installed (apt-get install debootstrap)"
command -v git >/dev/null || cannot "git is not installed"

cache=${HOTSIM_CACHE:-$HOME/.cache/hotsim}
tarball=${HOTSIM_FRESH_ROOT_TAR:-/var/tmp/hotsim-bookworm-minbase.tar}
if [ ! -s "$tarball" ]; then
	# the machine's own Debian mirror, as its apt sources name it
	mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null |
		 grep -v security | head -1 || true)
	[ -n "$mirror" ] || mirror=$(awk '$1=="deb" && $0 !~ /security/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
	[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
	b=$(mktemp -d /var/tmp/hotsim-root-build.XXXXXX)
	echo "fresh-root: making a minbase Debian 12 root (once, about 2 minutes)" >&2
	if ! timeout 1200 debootstrap --variant=minbase bookworm "$b" "$mirror" > "$b.log" 2>&1; then
		tail -5 "$b.log" >&2
		rm -rf --one-file-system "$b"
		cannot "debootstrap failed (log $b.log)"
	fi
	tar -C "$b" -cf "$tarball.tmp.$$" . && mv "$tarball.tmp.$$" "$tarball"
	rm -rf --one-file-system "$b" "$b.log"
fi

R=$(mktemp -d /var/tmp/hotsim-root.XXXXXX)
mounts=()
bind() { mkdir -p "$R$2"; mount --bind "$1" "$R$2" && mounts=("$R$2" "${mounts[@]}"); }
cleanup() {
	local p m
	# what is still running inside, then the mounts: the command's own
	# (a test's tmpfs), deepest first, then ours, newest first
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$R" ] && kill -9 "${p#/proc/}" 2>/dev/null || true
	done
	sleep 1
	for m in $(findmnt -rn -o TARGET | grep "^$R/" | sort -r); do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
	done
	for m in "${mounts[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
	if [ "$keep" -eq 1 ]; then echo "fresh-root: kept $R" >&2; return; fi
	if findmnt -rn -o TARGET | grep -q "^$R"; then
		echo "fresh-root: mounts remain under $R; not deleting it" >&2
	else
		rm -rf --one-file-system "$R"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
# The root a mount point of its own: in a chroot whose / is not one,
# `unshare -m` cannot make the new namespace's mounts private (EINVAL), so
# a test that mounts a tmpfs in a namespace of its own (cache::full_disk)
# could not run here or in CI. Unmounted last (mounts[] is newest first).
mount --bind "$R" "$R" && mounts=("$R") || cannot "cannot bind-mount the root onto itself"
tar -C "$R" -xf "$tarball"
bind /proc /proc || cannot "cannot bind-mount /proc"
bind /sys /sys; bind /dev /dev; bind /dev/pts /dev/pts
bind /etc/apt /etc/apt && mount -o remount,ro,bind "$R/etc/apt"
cp /etc/resolv.conf "$R/etc/resolv.conf"
if [ "$usecache" -eq 1 ]; then
	mkdir -p "$cache/apt-archives/partial"
	bind "$cache" /root/.cache/hotsim
	bind "$cache/apt-archives" /var/cache/apt/archives
fi
chroot "$R" /bin/sh -c 'export DEBIAN_FRONTEND=noninteractive; apt-get update -qq >/dev/null 2>&1;
	apt-get install -y -qq --no-install-recommends make git ca-certificates >/tmp/base-install.log 2>&1' ||
	{ echo "fresh-root: could not install make and git in the root" >&2; exit 1; }
rev=HEAD
if [ "$dirty" -eq 1 ]; then
	# the working tree as a commit object, without touching the checkout
	rev=$(cd "$src" && git stash create 2>/dev/null || true)
	[ -n "$rev" ] || rev=HEAD
fi
git clone -q "$src" "$R/root/p"
git -C "$R/root/p" fetch -q "$src" "$rev" 2>/dev/null && git -C "$R/root/p" checkout -q FETCH_HEAD
if [ "$dirty" -eq 1 ]; then
	# untracked files are not in a stash: copy them (what git would add)
	(cd "$src" && git ls-files -o --exclude-standard -z | tar --null -T - -cf -) | tar -C "$R/root/p" -xf -
fi
echo "fresh-root: $(git -C "$R/root/p" rev-parse --short HEAD)$([ "$dirty" -eq 1 ] && echo ' (with the working tree)') in a fresh Debian 12 root: $*" >&2
set +e
chroot "$R" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb \
	/bin/sh -c 'cd /root/p && exec "$@"' sh "$@"
rc=$?
set -e
echo "fresh-root: exit $rc" >&2
exit $rc
