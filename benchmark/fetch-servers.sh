#!/usr/bin/env bash
# Fetches current Redis and Valkey servers from Debian's archive into a folder of the project, without installing anything:
# each server's package and the libraries it links, from the same Debian suite, are downloaded with apt-get (its own lists,
# not the system's) and unpacked with dpkg-deb. Each server gets a launcher that runs it with the dynamic loader and the
# libraries unpacked beside it, so a Debian 12 or Ubuntu machine runs a server built for a newer Debian.
#
#   benchmark/fetch-servers.sh [folder]     (default: benchmark/target/servers)
#
# Prints the path of each server's launcher, one per line: what -Dbenchmark.servers takes, and what
# `<launcher> --port 6390 --save ''` starts for REDIS_URL. COLORBENCH_SERVER_PACKAGES chooses the servers, as
# package/suite pairs (default: Redis 8.0 and Valkey 8.1 from trixie, the newest Valkey from sid).
# Needs apt-get, dpkg-deb and Debian's archive key (package debian-archive-keyring). See docs/servers.md.
set -euo pipefail

packages="${COLORBENCH_SERVER_PACKAGES:-redis-tools/trixie valkey-tools/trixie valkey-tools/sid}"
here="$(cd "$(dirname "$0")" && pwd)"
folder="${1:-$here/target/servers}"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
mirror="${COLORBENCH_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
# What the servers link (ld.so --list on each), from the server's own suite: libc6 brings the dynamic loader.
libraries="libc6 libatomic1 libjemalloc2 liblzf1 libssl3t64 libstdc++6 libgcc-s1 libsystemd0 libcap2"

for tool in apt-get dpkg-deb; do
  command -v "$tool" > /dev/null || { echo "fetch-servers: $tool is missing: this script needs a Debian or Ubuntu machine" >&2; exit 2; }
done
[ -r "$keyring" ] || { echo "fetch-servers: $keyring is missing: install the package debian-archive-keyring" >&2; exit 2; }

mkdir -p "$folder/.apt/lists/partial" "$folder/.apt/cache/archives/partial"
suites="$(for pair in $packages; do echo "${pair#*/}"; done | sort -u)"
for suite in $suites; do
  echo "deb [signed-by=$keyring] $mirror $suite main"
done > "$folder/.apt/sources.list"
apt=(-o "Dir::Etc::SourceList=$folder/.apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
     -o "Dir::State::Lists=$folder/.apt/lists" -o "Dir::Cache=$folder/.apt/cache" -o Dir::State::status=/dev/null
     -o APT::Sandbox::User=root -o Debug::NoLocking=1)
apt-get "${apt[@]}" -qq update > /dev/null

candidate() { # the version of package $1 in suite $2
  apt-cache "${apt[@]}" show "$1/$2" 2> /dev/null | awk '/^Version:/ && !v { v = $2 } END { print v }'
}

for pair in $packages; do
  package="${pair%/*}"
  suite="${pair#*/}"
  name="${package%-tools}"
  version="$(candidate "$package" "$suite")"
  [ -n "$version" ] || { echo "fetch-servers: $suite has no $package" >&2; exit 1; }
  plain="${version#*:}"
  plain="${plain%%[-+]*}"
  server="$folder/$name-$plain"
  launcher="$server/$name-server"
  if [ -x "$launcher" ] && "$launcher" --version > /dev/null 2>&1; then
    echo "$launcher"
    continue
  fi
  rm -rf "$server"
  mkdir -p "$server/root" "$server/bin"
  downloads="$server/.debs"
  mkdir -p "$downloads"
  (cd "$downloads" && apt-get "${apt[@]}" -qq download "$package/$suite" $(for library in $libraries; do echo "$library/$suite"; done) > /dev/null)
  for deb in "$downloads"/*.deb; do
    dpkg-deb -x "$deb" "$server/root"
  done
  rm -rf "$downloads"
  # The package ships the server as <name>-check-rdb, which acts as the server under any other name.
  cp "$server/root/usr/bin/$name-check-rdb" "$server/bin/$name-server"
  loader="$(cd "$server/root" && ls usr/lib/*/ld-linux*.so.* | head -1)"
  cat > "$launcher" <<EOF
#!/bin/sh
# $name $version from Debian $suite, run with its own dynamic loader and libraries (benchmark/fetch-servers.sh).
here="\$(dirname "\$(readlink -f "\$0")")"
exec "\$here/root/$loader" --library-path "\$here/root/$(dirname "$loader")" "\$here/bin/$name-server" "\$@"
EOF
  chmod +x "$launcher"
  "$launcher" --version > /dev/null || { echo "fetch-servers: $launcher does not run on this machine" >&2; exit 1; }
  echo "$launcher"
done
rm -rf "$folder/.apt/lists"
