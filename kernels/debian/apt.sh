#!/bin/bash
# apt-get / apt-cache with a private state directory, for packages the
# machine's apt does not list (sid, trixie-backports) or architectures it does
# not have (arm64 on an amd64 host). Nothing of the machine's apt changes: not
# its sources, not dpkg's status or architectures.
#
#   kernels/debian/apt.sh ARCH update           refresh the private lists (once a day)
#   kernels/debian/apt.sh ARCH get ...          apt-get ARGS (e.g. download PKG=VER)
#   kernels/debian/apt.sh ARCH cache ...        apt-cache ARGS (e.g. policy PKG)
#
# ARCH is host (the machine's own, for Architecture: all sources) or arm64. State lives in
# $HOTSIM_CACHE/apt/ARCH; the suites are kernels/debian/sources.list.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${HOTSIM_CACHE:-$HOME/.cache/hotsim}
arch=${1:?usage: apt.sh ARCH update|get|cache ...}; shift
what=${1:?usage: apt.sh ARCH update|get|cache ...}; shift
state="$cache/apt/$arch"
mkdir -p "$state/lists/partial" "$state/archives/partial"

opts=(-o "Dir::State::Lists=$state/lists" -o "Dir::Cache=$state"
      -o "Dir::Cache::archives=$state/archives"
      -o "Dir::Etc::SourceList=$here/sources.list" -o "Dir::Etc::SourceParts=/nonexistent"
      -o "Dir::State::Status=/dev/null" -o "APT::Sandbox::User=root"
      -o "Acquire::Retries=3")
[ "$arch" = host ] || opts+=(-o "APT::Architecture=$arch" -o "APT::Architectures::=$arch")

case "$what" in
update)
	# lists younger than a day are good enough (packages come with versions)
	if [ -n "$(find "$state/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 2>/dev/null | head -1)" ] &&
	   [ "${HOTSIM_APT_REFRESH:-0}" = 0 ]; then
		exit 0
	fi
	echo "apt: refreshing private package lists for $arch" >&2
	timeout "${HOTSIM_APT_TIMEOUT:-1800}" apt-get "${opts[@]}" -qq update >&2 ;;
get)	timeout "${HOTSIM_APT_TIMEOUT:-1800}" apt-get "${opts[@]}" -qq "$@" ;;
cache)	apt-cache "${opts[@]}" "$@" ;;
*)	echo "apt.sh: unknown action $what" >&2; exit 2 ;;
esac
