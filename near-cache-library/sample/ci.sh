#!/usr/bin/env bash
# The release as a team takes it: the near cache library, built from its own pom, deployed to a file repository, and this
# sample, a new Spring Boot application, built and tested against that repository, the only place it may find anything of
# this project's. Its tests run on Redis servers this script starts on free loopback ports and stops after: the README's
# service on each server given (ItemServiceTest); then, on the first, under a Sentinel across a failover with another
# writer writing during it (ItemServiceSentinelTest), and on a Redis Cluster of three masters with a replica each, across a
# failover and a slot's move with another writer writing during them (ItemServiceClusterTest).
#
#   near-cache-library/sample/ci.sh <redis-server>...  (or REDIS_SERVER=<redis-server>; .ci/run passes Redis 8.0, Redis 6.2
#                                                       and Valkey 9, each a server that runs a Sentinel with --sentinel too)
#
# Third-party artifacts come from the usual local repository, so that nothing of Spring is downloaded again. The library's
# release is removed from it before and after: the sample can only take the library from the file repository, which the
# checks at the end confirm, and later builds take it from the reactor or an install, as before. The library's own tests
# are not run here: they need the project's test-kit, and run in the reactor (./mvnw verify).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
servers=("$@")
[ ${#servers[@]} -gt 0 ] || [ -z "${REDIS_SERVER:-}" ] || servers=("$REDIS_SERVER")
[ ${#servers[@]} -gt 0 ] || { echo "usage: $0 <redis-server>... (or REDIS_SERVER=<redis-server>)" >&2; exit 2; }
for server in "${servers[@]}"; do
  [ -x "$server" ] || { echo "$server is not an executable Redis server" >&2; exit 2; }
done
export MAVEN_ARGS="${MAVEN_ARGS:-} --batch-mode --no-transfer-progress"
began=$SECONDS

version="$(sed -n 's|^  <version>\(.*\)</version>.*|\1|p' "$root/near-cache-library/pom.xml" | head -1)"
grep -q "<version>$version</version>" "$here/pom.xml" \
  || { echo "the sample does not depend on the library's version, $version: change its pom" >&2; exit 1; }
installed="${HOME}/.m2/repository/dev/colorbench/redis-near-cache/$version"
work="$(mktemp -d)"
release="$work/repository"
pids=()
stop_servers() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  pids=()
}
cleanup() {
  stop_servers
  rm -rf "$work" "$installed" "$(dirname "$installed")/maven-metadata-near-cache-release.xml"
}
trap cleanup EXIT

# The release: the pom installed and deployed is flattened (no parent, no test dependencies); -Dmaven.test.skip=true leaves
# out the test-kit the tests need, and nothing goes to the local repository.
"$root/mvnw" -q -f "$root/near-cache-library/pom.xml" deploy -Dmaven.test.skip=true -Dmaven.install.skip=true \
  -DaltDeploymentRepository="near-cache-release::file://$release"
deployed="$release/dev/colorbench/redis-near-cache/$version"
for file in "redis-near-cache-$version.jar" "redis-near-cache-$version.pom" "redis-near-cache-$version-sources.jar" \
            "redis-near-cache-$version-javadoc.jar"; do
  [ -s "$deployed/$file" ] || { echo "the file repository has no $file" >&2; exit 1; }
done
if grep -q -e SNAPSHOT -e '<parent>' "$deployed/redis-near-cache-$version.pom"; then
  echo "the deployed pom names a parent or a SNAPSHOT:" >&2; cat "$deployed/redis-near-cache-$version.pom" >&2; exit 1
fi
[ "$(ls "$release/dev/colorbench")" = redis-near-cache ] || { echo "the file repository holds more of the project than the library" >&2; exit 1; }

# The file repository, as a team's settings would name theirs; these settings stand in for ~/.m2/settings.xml in the build
cat > "$work/settings.xml" <<EOF
<settings>
  <profiles>
    <profile>
      <id>near-cache-release</id>
      <repositories>
        <repository>
          <id>near-cache-release</id>
          <url>file://$release</url>
          <snapshots><enabled>false</enabled></snapshots>
        </repository>
      </repositories>
    </profile>
  </profiles>
  <activeProfiles>
    <activeProfile>near-cache-release</activeProfile>
  </activeProfiles>
</settings>
EOF
rm -rf "$installed"

# A server of the sample's own: `launch <name> <server> <argument>...` runs it on a free loopback port, left in $port, given
# where an argument is PORT. Each name has a folder of its own, as a replica receives its copy as a file there. A port
# something listens on is passed over, and one taken between the check and the start ends the server, and another is tried.
launch() {
  local name="$1" binary="$2" pid _ attempt argument arguments
  shift 2
  for attempt in 1 2 3 4 5 6 7 8 9 10; do
    port=$((20000 + RANDOM % 20000))
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then continue; fi
    arguments=()
    for argument in "$@"; do [ "$argument" = PORT ] && arguments+=("$port") || arguments+=("$argument"); done
    mkdir -p "$work/$name"
    "$binary" "${arguments[@]}" --bind 127.0.0.1 --dir "$work/$name" --logfile "$work/$name.log" &
    pid=$!
    for _ in $(seq 1 100); do
      kill -0 "$pid" 2>/dev/null || break
      if (exec 3<>"/dev/tcp/127.0.0.1/$port" && printf 'PING\r\n' >&3 && read -r -t 1 reply <&3 && [ "${reply%$'\r'}" = +PONG ]) 2>/dev/null; then
        pids+=("$pid")
        return 0
      fi
      sleep 0.1
    done
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  cat "$work/$name.log" >&2 2>/dev/null || true
  echo "no $name could be started with $binary" >&2
  exit 1
}
sample() { "$root/mvnw" -s "$work/settings.xml" -f "$here/pom.xml" "$@"; }

for server in "${servers[@]}"; do
  launch redis "$server" --port PORT --save '' --appendonly no
  echo "the sample's tests on $("$server" --version | head -1), port $port"
  REDIS_URL="redis://127.0.0.1:$port" sample verify -Dtest=ItemServiceTest dependency:list -DincludeGroupIds=dev.colorbench \
    -DoutputFile="$work/project-artifacts.txt"
  stop_servers
done

# Under a Sentinel, on the first server: a master, its replica, and a Sentinel that watches them as "items" with a quorum of 1
launch master "${servers[0]}" --port PORT --save '' --appendonly no
master=$port
launch replica "${servers[0]}" --port PORT --save '' --appendonly no --replicaof 127.0.0.1 "$master"
cat > "$work/sentinel.conf" <<EOF
sentinel monitor items 127.0.0.1 $master 1
sentinel down-after-milliseconds items 1000
sentinel failover-timeout items 10000
EOF
launch sentinel "${servers[0]}" "$work/sentinel.conf" --sentinel --port PORT
echo "the sample's tests under a Sentinel on $("${servers[0]}" --version | head -1): master on port $master, Sentinel on $port"
REDIS_SENTINEL="127.0.0.1:$port" sample verify -Dtest=ItemServiceSentinelTest
stop_servers

# On a Redis Cluster of the first server: three masters, a replica each, the slots in thirds. `ask <port> <argument>...` sends
# one command and prints its reply (a status, an integer or a bulk string); an error reply fails.
ask() {
  local port="$1" argument line LC_ALL=C
  shift
  exec 4<>"/dev/tcp/127.0.0.1/$port"
  { printf '*%d\r\n' $#; for argument in "$@"; do printf '$%d\r\n%s\r\n' "${#argument}" "$argument"; done; } >&4
  IFS= read -r -t 10 line <&4 || { exec 4>&-; echo "port $port did not answer $1 $2 within 10 s" >&2; return 1; }
  line="${line%$'\r'}"
  case "$line" in
    '$-1') ;;
    '$'*) head -c "${line#\$}" <&4 ;;
    '+'*|':'*) printf '%s\n' "${line#?}" ;;
    *) exec 4>&-; echo "port $port answered $* with $line" >&2; return 1 ;;
  esac
  exec 4>&-
}
cluster=()
for node in 0 1 2 3 4 5; do
  launch "node-$node" "${servers[0]}" --port PORT --save '' --appendonly no --cluster-enabled yes --cluster-node-timeout 2000 \
    --cluster-config-file "$work/nodes-$node.conf" --repl-diskless-sync yes --repl-diskless-sync-delay 0
  cluster+=("$port")
done
# ADDSLOTS, not ADDSLOTSRANGE: Redis 6.2 has no ranges
ask "${cluster[0]}" CLUSTER ADDSLOTS $(seq 0 5460) > /dev/null
ask "${cluster[1]}" CLUSTER ADDSLOTS $(seq 5461 10922) > /dev/null
ask "${cluster[2]}" CLUSTER ADDSLOTS $(seq 10923 16383) > /dev/null
for port in "${cluster[@]:1}"; do ask "${cluster[0]}" CLUSTER MEET 127.0.0.1 "$port" > /dev/null; done
formed() {
  local master replica port
  for master in 0 1 2; do
    replica=$((master + 3))
    # a replica knows its master once the meeting has gossiped to it; until then REPLICATE is refused
    ask "${cluster[$replica]}" INFO replication | grep -q '^master_link_status:up' && continue
    ask "${cluster[$replica]}" CLUSTER REPLICATE "$(ask "${cluster[$master]}" CLUSTER MYID)" > /dev/null 2>&1 || true
    return 1
  done
  for port in "${cluster[@]}"; do
    ask "$port" CLUSTER INFO | grep -q '^cluster_state:ok' || return 1
    [ "$(ask "$port" CLUSTER INFO | sed -n 's/^cluster_known_nodes:\([0-9]*\).*/\1/p')" = 6 ] || return 1
  done
}
for _ in $(seq 1 300); do formed && break; sleep 0.1; done
formed || { echo "the cluster did not form within 30 s" >&2; exit 1; }
echo "the sample's tests on a Redis Cluster of $("${servers[0]}" --version | head -1): masters on ports ${cluster[*]:0:3}, replicas on ${cluster[*]:3}"
nodes="$(printf '127.0.0.1:%s,' "${cluster[@]}")"
REDIS_CLUSTER="${nodes%,}" sample verify -Dtest=ItemServiceClusterTest
stop_servers

# What the sample took of this project's: the library alone, and from the file repository
project="$(grep -o 'dev\.colorbench:[^ ]*' "$work/project-artifacts.txt" || true)"
[ "$project" = "dev.colorbench:redis-near-cache:jar:$version:compile" ] \
  || { echo "the sample resolved, of this project's: ${project:-nothing}" >&2; exit 1; }
grep -q '>near-cache-release=' "$installed/_remote.repositories" \
  || { echo "the library did not come from the file repository:" >&2; cat "$installed/_remote.repositories" >&2; exit 1; }
echo "the sample: built and tested against the library deployed to a file repository, in $((SECONDS - began)) s"
