#!/usr/bin/env bash
# Renders the README's headline picture, docs/images/headline.png, from a run's summary.json: every row of the
# headline as its throughput (median, min-max whisker) beside what one request cost the CPU (the module's JVM and the
# store it reads, medians), each bar labelled with what the request asks of its store. Nothing is typed in: the page
# reads the figures, the commit and the machine from the summary. Chart.js comes from the webjar every build puts in
# the local Maven repository, inlined, so the page opens offline. Headless Chromium (Debian: apt-get install chromium).
#   docs/render-headline.sh [benchmark/target/benchmark/summary.json] [docs/images/headline.png]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
summary="${1:-$here/../benchmark/target/benchmark/summary.json}"
out="${2:-$here/images/headline.png}"
[ -f "$summary" ] || { echo "No $summary: run ./mvnw -Pbenchmark verify first" >&2; exit 2; }
jar="${HOME}/.m2/repository/org/webjars/npm/chart.js/4.5.1/chart.js-4.5.1.jar"
[ -f "$jar" ] || { echo "No Chart.js webjar at $jar: build the project once (./mvnw -o -q install -DskipTests)" >&2; exit 2; }
browser="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
[ -n "$browser" ] || { echo "No Chromium found: apt-get install chromium" >&2; exit 2; }
command_line="${HEADLINE_COMMAND:-./mvnw -Pbenchmark verify}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
page="$work/headline.html"
width=1400
height=900
{
  cat <<EOF
<!doctype html><html><head><meta charset="utf-8"><style>
body { margin: 0; background: #fff; font-family: "DejaVu Sans", Arial, sans-serif; }
#title { padding: 8px 10px 0 10px; } h1 { font-size: 19px; margin: 0 0 4px 0; } p { font-size: 13px; color: #444; margin: 0; }
#charts { display: flex; width: ${width}px; height: $((height - 78))px; }
#tps { width: 64%; } #cpu { width: 36%; }
</style><script>
EOF
  unzip -p "$jar" META-INF/resources/webjars/chart.js/4.5.1/dist/chart.umd.min.js
  printf '</script><script>const summary = '
  cat "$summary"
  printf ';\nconst command = %s;\n' "$(printf '%s' "$command_line" | sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$/"/')"
  cat <<'EOF'
</script></head><body>
<div id="title"><h1>GET /colors, all 148 colors: requests per second, and the CPU one request costs</h1><p id="run"></p></div>
<div id="charts"><div id="tps"><canvas id="t"></canvas></div><div id="cpu"><canvas id="c"></canvas></div></div>
<script>
const env = summary.environment;
const rows = summary.modules.filter(m => m.tpsMedian !== null).sort((a, b) => b.tpsMedian - a.tpsMedian);
const fmt = n => Math.round(n).toLocaleString('en-US');
const trips = t => t === null ? '' : t === 0 ? 'no round trip' : (t === 1 ? '1 round trip' : fmt(t) + ' round trips');
const kinds = [
  { name: 'no store on the read path', test: t => t === 0, color: '#2e8b57' },
  { name: '1 round trip', test: t => t === 1, color: '#1f77b4' },
  { name: 'a few to dozens of round trips', test: t => t > 1 && t < 100, color: '#e69500' },
  { name: '148 or 149 round trips, one after another', test: t => t >= 100, color: '#c0392b' },
];
const kind = m => kinds.find(k => k.test(m.storeRoundTripsPerRequest ?? 0));
const label = m => m.module + (m.knownStale ? ' (known stale)' : '') + (m.tuning ? ' *' : '');
document.getElementById('run').textContent = command + ' at ' + env.gitCommit + ', ' + env.date.substring(0, 10) + ': '
  + env.cores + ' cores, ' + fmt(env.memoryMb / 1024) + ' GB, ' + env.moduleJdk + ', Redis ' + env.redisVersion + ', JMeter on the same cores; '
  + env.threads + ' closed-model threads, bar: median of ' + env.repetitions + ' runs of ' + (env.durationSeconds - env.rampupSeconds)
  + ' s, whisker: min-max. * tuned beyond the stock pattern (module README). Your machine gives other TPS; the CPU per request travels.';
const whiskers = {
  id: 'whiskers',
  afterDatasetsDraw(chart) {
    const { ctx, scales: { x, y } } = chart;
    ctx.save();
    rows.forEach((m, i) => {
      const cy = y.getPixelForValue(i);
      const x0 = x.getPixelForValue(m.tpsMin), x1 = x.getPixelForValue(m.tpsMax);
      ctx.strokeStyle = '#222'; ctx.lineWidth = 1.5;
      ctx.beginPath(); ctx.moveTo(x0, cy); ctx.lineTo(x1, cy);
      ctx.moveTo(x0, cy - 5); ctx.lineTo(x0, cy + 5); ctx.moveTo(x1, cy - 5); ctx.lineTo(x1, cy + 5); ctx.stroke();
      const text = fmt(m.tpsMedian) + ' TPS  ' + (m.storeWork === 'none' ? 'no store work' : m.storeWork) + ', ' + trips(m.storeRoundTripsPerRequest);
      ctx.font = '12px "DejaVu Sans", Arial, sans-serif'; ctx.textBaseline = 'middle';
      let tx = Math.max(x1, x.getPixelForValue(m.tpsMedian)) + 6, ink = '#111';
      if (tx + ctx.measureText(text).width > chart.chartArea.right) { tx = x.getPixelForValue(m.tpsMin) - 8 - ctx.measureText(text).width; ink = '#fff'; }
      ctx.fillStyle = ink; ctx.fillText(text, tx, cy);
    });
    ctx.restore();
  }
};
new Chart(document.getElementById('t'), {
  type: 'bar',
  data: { labels: rows.map(label), datasets: [{ data: rows.map(m => m.tpsMedian), backgroundColor: rows.map(m => kind(m).color), barPercentage: 0.78, categoryPercentage: 1.0 }] },
  options: {
    indexAxis: 'y', animation: false, responsive: true, maintainAspectRatio: false, layout: { padding: { right: 8, left: 4 } },
    plugins: { legend: { display: true, position: 'bottom', labels: { font: { size: 12 }, color: '#222',
        generateLabels: () => kinds.map(k => ({ text: k.name, fillStyle: k.color, strokeStyle: k.color, lineWidth: 0 })) } },
      title: { display: true, text: 'throughput on this machine (TPS, log scale)', font: { size: 14 } }, tooltip: { enabled: false } },
    scales: { x: { type: 'logarithmic', min: 100, max: 60000, ticks: { font: { size: 12 }, callback: v => [100, 300, 1000, 3000, 10000, 30000].includes(v) ? fmt(v) : '' } },
      y: { ticks: { font: { size: 12 }, color: '#111', autoSkip: false }, grid: { display: false } } },
  },
  plugins: [whiskers],
});
const cpuLabels = {
  id: 'cpuLabels',
  afterDatasetsDraw(chart) {
    const { ctx, scales: { x, y } } = chart;
    ctx.save(); ctx.font = '12px "DejaVu Sans", Arial, sans-serif'; ctx.textBaseline = 'middle'; ctx.fillStyle = '#111';
    rows.forEach((m, i) => {
      if (!m.cpu || !m.cpu.totalMicros) return;
      ctx.fillText(fmt(m.cpu.totalMicros.median) + ' µs = ' + fmt(m.cpu.requestsPerCoreSecond) + '/s per core',
        x.getPixelForValue(m.cpu.totalMicros.median) + 6, y.getPixelForValue(i));
    });
    ctx.restore();
  }
};
new Chart(document.getElementById('c'), {
  type: 'bar',
  data: { labels: rows.map(label), datasets: [
    { label: "the module's JVM", data: rows.map(m => m.cpu && m.cpu.moduleMicros ? m.cpu.moduleMicros.median : null), backgroundColor: '#6b8fb5', stack: 'cpu' },
    { label: 'its store (Redis, PostgreSQL)', data: rows.map(m => m.cpu && m.cpu.storeMicros ? m.cpu.storeMicros.median : null), backgroundColor: '#c9a227', stack: 'cpu' } ] },
  options: {
    indexAxis: 'y', animation: false, responsive: true, maintainAspectRatio: false, layout: { padding: { right: 150 } },
    plugins: { legend: { display: true, position: 'bottom', labels: { font: { size: 12 }, color: '#222' } },
      title: { display: true, text: 'CPU µs one request cost, counted from outside the processes', font: { size: 14 } }, tooltip: { enabled: false } },
    scales: { x: { stacked: true, ticks: { font: { size: 12 } } }, y: { stacked: true, ticks: { display: false }, grid: { display: false } } },
  },
  plugins: [cpuLabels],
});
</script></body></html>
EOF
} > "$page"
profile="$work/profile"
mkdir -p "$(dirname "$out")"
# --no-sandbox: Chromium refuses to run as root without it; the background-networking flags keep it off the network
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --disable-background-networking --disable-component-update \
  --disable-sync --no-first-run --user-data-dir="$profile" --window-size=${width},${height} \
  --screenshot="$(realpath "$(dirname "$out")")/$(basename "$out")" "file://$page" 2>/dev/null
echo "$out"
