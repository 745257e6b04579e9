#!/usr/bin/env bash
# The release as a team takes it: the near cache library, built from its own pom, deployed to a file repository, and this
# sample, a new Spring Boot application, built and tested against that repository, the only place it may find anything of
# this project's. Its tests run on a Redis server this script starts on a free loopback port and stops after.
#
#   near-cache-library/sample/ci.sh <redis-server>     (or REDIS_SERVER=<redis-server>; .ci/run passes the Redis 8.0
#                                                       that benchmark/fetch-servers.sh prints)
#
# Third-party artifacts come from the usual local repository, so that nothing of Spring is downloaded again. The library's
# release is removed from it before and after: the sample can only take the library from the file repository, which the
# checks at the end confirm, and later builds take it from the reactor or an install, as before. The library's own tests
# are not run here: they need the project's test-kit, and run in the reactor (./mvnw verify).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
server="${1:-${REDIS_SERVER:-}}"
[ -n "$server" ] && [ -x "$server" ] || { echo "usage: $0 <redis-server> (or REDIS_SERVER=<redis-server>)" >&2; exit 2; }
export MAVEN_ARGS="${MAVEN_ARGS:-} --batch-mode --no-transfer-progress"
began=$SECONDS

version="$(sed -n 's|^  <version>\(.*\)</version>.*|\1|p' "$root/near-cache-library/pom.xml" | head -1)"
grep -q "<version>$version</version>" "$here/pom.xml" \
  || { echo "the sample does not depend on the library's version, $version: change its pom" >&2; exit 1; }
installed="${HOME}/.m2/repository/dev/colorbench/redis-near-cache/$version"
work="$(mktemp -d)"
release="$work/repository"
redis=""
cleanup() {
  if [ -n "$redis" ]; then kill "$redis" 2>/dev/null || true; wait "$redis" 2>/dev/null || true; fi
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

# A Redis of the sample's own, on a free loopback port: a port something listens on is passed over, and one taken
# between the check and the start ends the server, and another is tried.
for _ in 1 2 3 4 5 6 7 8 9 10; do
  port=$((20000 + RANDOM % 20000))
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then continue; fi
  "$server" --port "$port" --bind 127.0.0.1 --save '' --appendonly no --logfile "$work/redis.log" &
  redis=$!
  for _ in $(seq 1 100); do
    kill -0 "$redis" 2>/dev/null || break
    if (exec 3<>"/dev/tcp/127.0.0.1/$port" && printf 'PING\r\n' >&3 && read -r -t 1 reply <&3 && [ "${reply%$'\r'}" = +PONG ]) 2>/dev/null; then
      break 2
    fi
    sleep 0.1
  done
  kill "$redis" 2>/dev/null || true
  wait "$redis" 2>/dev/null || true
  redis=""
done
[ -n "$redis" ] || { cat "$work/redis.log" >&2 2>/dev/null || true; echo "no Redis could be started with $server" >&2; exit 1; }
echo "the sample's tests on $("$server" --version | head -1), port $port"

REDIS_URL="redis://127.0.0.1:$port" "$root/mvnw" -s "$work/settings.xml" -f "$here/pom.xml" verify dependency:list \
  -DincludeGroupIds=dev.colorbench -DoutputFile="$work/project-artifacts.txt"

# What the sample took of this project's: the library alone, and from the file repository
project="$(grep -o 'dev\.colorbench:[^ ]*' "$work/project-artifacts.txt" || true)"
[ "$project" = "dev.colorbench:redis-near-cache:jar:$version:compile" ] \
  || { echo "the sample resolved, of this project's: ${project:-nothing}" >&2; exit 1; }
grep -q '>near-cache-release=' "$installed/_remote.repositories" \
  || { echo "the library did not come from the file repository:" >&2; cat "$installed/_remote.repositories" >&2; exit 1; }
echo "the sample: built and tested against the library deployed to a file repository, in $((SECONDS - began)) s"
