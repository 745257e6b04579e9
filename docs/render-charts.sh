#!/usr/bin/env bash
# Renders charts of a finished benchmark run to PNG images for the README, in headless Chromium
# (Debian: apt-get install chromium). Each chart already has a page of its own in the run's
# charts/ folder, with Chart.js inlined; this only takes its picture.
#   docs/render-charts.sh benchmark/target/benchmark docs/images tps distance-tps keys-micros
set -euo pipefail
run="${1:?the folder of a finished run, e.g. benchmark/target/benchmark}"
out="${2:?the folder for the images, e.g. docs/images}"
shift 2
browser="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
[ -n "$browser" ] || { echo "No Chromium found: apt-get install chromium" >&2; exit 2; }
mkdir -p "$out"
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
for id in "$@"; do
  page="$run/charts/$id.html"
  [ -f "$page" ] || { echo "No chart '$id' in $run/charts (there: $(ls "$run/charts" | sed 's/\.html//' | tr '\n' ' '))" >&2; exit 2; }
  height="$(grep -o 'style="height: [0-9]*px' "$page" | grep -o '[0-9]*' | head -1)"
  # --no-sandbox: Chromium refuses to run as root with it; the background-networking flags keep it off the network
  "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --disable-background-networking --disable-component-update \
    --disable-sync --no-first-run --user-data-dir="$profile" --window-size=990,$((height + 50)) \
    --screenshot="$(realpath "$out")/$id.png" "file://$(realpath "$page")" 2>/dev/null
  echo "$out/$id.png"
done
