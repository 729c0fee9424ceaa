#!/bin/sh
# Install the Debian packages hotsim needs, or print the exact command and stop.
# Everything comes from Debian 12's archive: no downloads from elsewhere.
set -eu

# linux-source-7.2 is not in bookworm: kernels/linux/source.sh fetches it
# through a private apt state (kernels/debian/apt.sh), as it does Debian's
# own arm64 kernels (kernels/debian/fetch.sh).
PKGS="make gcc pkg-config
libunicorn-dev libcapstone-dev libelf-dev libcriterion-dev
gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross
clang lld llvm
linux-source-6.1 linux-source-6.12 flex bison bc libssl-dev dwarves xz-utils patch
debian-archive-keyring ca-certificates
valgrind libclang-rt-14-dev
man-db groff-base python3 python3-yaml
qemu-system-arm curl librsvg2-bin"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "hotsim: missing Debian packages:$missing" >&2
	echo "hotsim: run as root:  apt-get update && $cmd" >&2
	exit 1
fi
echo "hotsim: installing$missing"
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have stale or empty package lists.
apt-get update -qq >/dev/null 2>&1 || true
if ! $cmd >/tmp/hotsim-apt.log 2>&1; then
	tail -20 /tmp/hotsim-apt.log >&2
	echo "hotsim: '$cmd' failed (log: /tmp/hotsim-apt.log)" >&2
	exit 1
fi
