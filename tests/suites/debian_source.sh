#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Fetches the upstream archive of a Debian source package into a folder, once, and checks
# its sha256: the other projects' test suites (tests/suites/mpich, tests/suites/petsc) come
# from the Debian archives this machine's apt is set up with, read as source archives in a
# private apt state (the system's package lists are left alone; no root needed). None of
# their sources is kept in this repository.
#   tests/suites/debian_source.sh <package> <debian-version> <orig-archive> <sha256> <dir>
# Exit 2 when the archive cannot be had (no network to Debian's archive), 1 when its
# checksum differs.
set -euo pipefail
usage="usage: debian_source.sh <package> <debian-version> <orig-archive> <sha256> <dir>"
package=${1:?$usage} version=${2:?$usage} archive=${3:?$usage} sha256=${4:?$usage} dir=${5:?$usage}
mkdir -p "$dir"
if [ ! -f "$dir/$archive" ]; then
  mkdir -p "$dir/apt/lists/partial" "$dir/apt/parts"
  : >"$dir/apt/sources.list"
  [ ! -f /etc/apt/sources.list ] || sed -n 's/^deb /deb-src /p' /etc/apt/sources.list >"$dir/apt/sources.list"
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && sed 's/^Types:.*$/Types: deb-src/' "$f" >"$dir/apt/parts/${f##*/}"
  done
  apt=(-o "Dir::Etc::SourceList=$dir/apt/sources.list" -o "Dir::Etc::SourceParts=$dir/apt/parts"
       -o "Dir::State::Lists=$dir/apt/lists" -o Debug::NoLocking=1)
  if ! (apt-get "${apt[@]}" update -qq && cd "$dir" &&
        apt-get "${apt[@]}" source --download-only -qq "$package=$version") >"$dir/fetch.log" 2>&1; then
    echo "debian_source: could not fetch Debian's $package $version sources (see $dir/fetch.log)" >&2
    exit 2
  fi
fi
echo "$sha256  $dir/$archive" | sha256sum -c --quiet || { echo "debian_source: $dir/$archive: wrong checksum" >&2; exit 1; }
