#!/usr/bin/env bash
# Renders the README's headline picture, docs/images/headline.png: every row of the sample run's table
# (the full run at 6b524ce, docs/results.md) as throughput with its range, and what one request costs
# its store. The figures are typed in below from that table, not read from a run; Chart.js comes from
# the webjar every build puts in the local Maven repository, inlined, so the page opens offline.
# Headless Chromium as render-charts.sh runs it (Debian: apt-get install chromium).
#   docs/render-headline.sh [docs/images/headline.png]
set -euo pipefail
out="${1:-$(dirname "$0")/images/headline.png}"
jar="${HOME}/.m2/repository/org/webjars/npm/chart.js/4.5.1/chart.js-4.5.1.jar"
[ -f "$jar" ] || { echo "No Chart.js webjar at $jar: build the project once (./mvnw -o -q install -DskipTests)" >&2; exit 2; }
browser="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
[ -n "$browser" ] || { echo "No Chromium found: apt-get install chromium" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
page="$work/headline.html"
width=1100
height=860
{
  cat <<EOF
<!doctype html><html><head><meta charset="utf-8"><style>
body { margin: 0; background: #fff; font-family: "DejaVu Sans", Arial, sans-serif; }
#box { width: ${width}px; height: ${height}px; padding: 0; }
</style><script>
EOF
  unzip -p "$jar" META-INF/resources/webjars/chart.js/4.5.1/dist/chart.umd.min.js
  cat <<'EOF'
</script></head><body><div id="box"><canvas id="c"></canvas></div><script>
// module, store work per request, round trips per request, TPS median, min, max, x cacheable-loop:
// docs/results.md, the run at 6b524ce
const rows = [
  ['in-memory', 'none (the ceiling)', 0, 18344, 17738, 18433, '49.93'],
  ['in-memory+objects', 'none', 0, 13896, 12828, 14177, '37.82'],
  ['cacheable-loop', '148 GET', 148, 367, 357, 371, '1.00'],
  ['redis-hash-repository', '148 HGETALL + 1 SMEMBERS', 149, 321, 299, 325, '0.87'],
  ['template-mget', '1 MGET', 1, 5252, 4872, 5642, '14.29'],
  ['reactive-mget', '1 MGET', 1, 4933, 4649, 5261, '13.43'],
  ['cacheable-list', '1 GET', 1, 6131, 6105, 6794, '16.69'],
  ['cacheable-multiget', '1 MGET', 1, 4840, 4716, 5374, '13.17'],
  ['cacheable-async', '148 GET', 9.5, 1024, 994, 1106, '2.79'],
  ['cacheable-async+flush-per-command', '148 GET', 52.7, 642, 549, 665, '1.75'],
  ['pipelined-get', '148 GET', 1, 3254, 3008, 3456, '8.86'],
  ['pipelined-get+observed', '148 GET', 1, 1392, 1259, 1411, '3.79'],
  ['mget-raw', '1 MGET', 1, 8155, 8096, 8170, '22.20'],
  ['hash-hmget', '1 HMGET', 1, 4928, 4849, 5153, '13.41'],
  ['near-cache', 'none (warm)', 0, 17124, 16315, 19270, '46.61'],
  ['jdbc-loop', '148 SQL queries', 148, 282, 277, 282, '0.77'],
  ['jdbc-batch', '1 SQL query', 1, 4035, 3572, 4088, '10.98'],
].sort((a, b) => b[3] - a[3]);
const kinds = [
  { name: 'no store on the read path', test: t => t === 0, color: '#2e8b57' },
  { name: '1 round trip', test: t => t === 1, color: '#1f77b4' },
  { name: 'a few to dozens of round trips', test: t => t > 1 && t < 100, color: '#e69500' },
  { name: '148 or 149 round trips, one after another', test: t => t >= 100, color: '#c0392b' },
];
const kind = t => kinds.find(k => k.test(t));
const fmt = n => n.toLocaleString('en-US');
const trips = t => t === 0 ? 'no round trip' : (t === 1 ? '1 round trip' : fmt(t) + ' round trips');
// each row's range, and its median and store cost written beside the bar
const annotate = {
  id: 'annotate',
  afterDatasetsDraw(chart) {
    const { ctx, scales: { x, y } } = chart;
    ctx.save();
    rows.forEach((r, i) => {
      const cy = y.getPixelForValue(i);
      const x0 = x.getPixelForValue(r[4]), x1 = x.getPixelForValue(r[5]);
      ctx.strokeStyle = '#222'; ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(x0, cy); ctx.lineTo(x1, cy);
      ctx.moveTo(x0, cy - 6); ctx.lineTo(x0, cy + 6);
      ctx.moveTo(x1, cy - 6); ctx.lineTo(x1, cy + 6);
      ctx.stroke();
      const bold = 'bold 13px "DejaVu Sans", Arial, sans-serif', plain = '13px "DejaVu Sans", Arial, sans-serif';
      const tps = fmt(r[3]) + ' TPS';
      const rest = '  ' + r[1] + ', ' + trips(r[2]) + '  (' + r[6] + ' x cacheable-loop)';
      ctx.textBaseline = 'middle';
      ctx.font = bold; const w = ctx.measureText(tps).width;
      ctx.font = plain; const w2 = ctx.measureText(rest).width;
      let tx = Math.max(x1, x.getPixelForValue(r[3])) + 8, ink = '#111', soft = '#444';
      if (tx + w + w2 > chart.chartArea.right) {
        // no room to the right of the bar: inside it, ending before its whisker
        tx = Math.min(x0, x.getPixelForValue(r[3])) - 10 - w - w2; ink = '#fff'; soft = '#fff';
      }
      ctx.font = bold; ctx.fillStyle = ink; ctx.fillText(tps, tx, cy);
      ctx.font = plain; ctx.fillStyle = soft; ctx.fillText(rest, tx + w, cy);
    });
    ctx.restore();
  }
};
new Chart(document.getElementById('c'), {
  type: 'bar',
  data: {
    labels: rows.map(r => r[0]),
    datasets: [{
      data: rows.map(r => r[3]),
      backgroundColor: rows.map(r => kind(r[2]).color),
      barPercentage: 0.78, categoryPercentage: 1.0,
    }],
  },
  options: {
    indexAxis: 'y', animation: false, responsive: true, maintainAspectRatio: false,
    layout: { padding: { right: 12, left: 4, top: 4, bottom: 4 } },
    plugins: {
      title: { display: true, align: 'start', font: { size: 17, weight: 'bold' }, color: '#111',
        text: 'GET /colors (all 148 colors): requests per second, and what one request costs its store' },
      subtitle: { display: true, align: 'start', font: { size: 13 }, color: '#444', padding: { bottom: 10 },
        text: ['./mvnw -Pbenchmark verify at 6b524ce, 2026-11-25: 2-core 24 GB Linux VM, OpenJDK 17, embedded Redis 6.2 and PostgreSQL 14, JMeter on the same cores;',
               '10 closed-model threads; bar: median of 3 runs of 10 s, whisker: min-max. Log scale. Your machine gives other numbers; the ratios are the point.'] },
      legend: { display: true, position: 'bottom', labels: { font: { size: 13 }, color: '#222',
        generateLabels: () => kinds.map(k => ({ text: k.name, fillStyle: k.color, strokeStyle: k.color, lineWidth: 0 })) } },
      tooltip: { enabled: false },
    },
    scales: {
      x: { type: 'logarithmic', min: 100, max: 30000,
        title: { display: true, text: 'requests per second (TPS, log scale)', font: { size: 13 }, color: '#222' },
        ticks: { font: { size: 13 }, color: '#333', maxRotation: 0, callback: v => [100, 300, 1000, 3000, 10000, 30000, 100000].includes(v) ? fmt(v) : '' },
        grid: { color: '#e4e4e4' } },
      y: { ticks: { font: { size: 13 }, color: '#111', autoSkip: false }, grid: { display: false } },
    },
  },
  plugins: [annotate],
});
</script></body></html>
EOF
} > "$page"
profile="$work/profile"
mkdir -p "$(dirname "$out")"
# --no-sandbox: Chromium refuses to run as root with it; the background-networking flags keep it off the network
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --disable-background-networking --disable-component-update \
  --disable-sync --no-first-run --user-data-dir="$profile" --window-size=${width},${height} \
  --screenshot="$(realpath "$(dirname "$out")")/$(basename "$out")" "file://$page" 2>/dev/null
echo "$out"
