// The headline chart: every row's throughput (bar: the figure over the rounds, whisker: its 95 % interval), coloured by the round trips one request
// makes, beside the CPU one request costs the module and its store. The one drawing of it: report.html and the README's
// picture (docs/results/headline.png, a screenshot of headline.html) both call this function, so they cannot differ.
// It reads summary.json's shape: { environment, modules: [...] } and the one ranking (report.Ranking) beside it, { ranking: [{ id }] }:
// the rows come in that order, cheapest per request first, the A/A twin right after its row. It ranks nothing itself.
function colorbenchHeadline(summary, tpsCanvas, cpuCanvas) {
  const order = new Map((summary.ranking || []).map((place, i) => [place.id, i]));
  const place = m => order.has(m.module) ? order.get(m.module) : order.has(m.twinOf) ? order.get(m.twinOf) + 0.5 : order.size;
  const rows = summary.modules.filter(m => m.tpsMedian !== null && m.tpsMedian !== undefined)
    .map((m, i) => ({ m, i })).sort((a, b) => place(a.m) - place(b.m) || a.i - b.i).map(entry => entry.m);
  const fmt = n => Math.round(n).toLocaleString('en-US');
  // one decimal where the count is a mean between two whole numbers (cacheable-async's 5.5), as the tables print it
  const trips = t => t === null || t === undefined ? '' : t === 0 ? 'no round trip'
    : t === 1 ? '1 round trip' : (Math.abs(t - Math.round(t)) >= 0.05 ? t.toFixed(1) : fmt(t)) + ' round trips';
  const kinds = [
    { name: 'no store on the read path', test: t => t === 0, color: '#2e8b57' },
    { name: '1 round trip', test: t => t === 1, color: '#1f77b4' },
    { name: 'a few to dozens of round trips', test: t => t > 1 && t < 100, color: '#e69500' },
    { name: '148 or more round trips, one after another', test: t => t >= 100, color: '#c0392b' },
  ];
  const roundTrips = m => m.storeRoundTripsPerRequest ?? 0;
  const kind = m => kinds.find(k => k.test(Math.round(roundTrips(m)))) || kinds[2];
  const tuned = m => m.tuning && !m.tuning.startsWith('stock: ');
  const label = m => m.module + (m.knownStale ? ' (known stale)' : '') + (tuned(m) ? ' *' : '');
  const font = '12px "DejaVu Sans", Arial, sans-serif';
  // the whisker is the 95 % interval over the rounds (tps); a summary without it (one round) shows the bar alone
  const lowOf = m => m.tps ? m.tps.low : m.tpsMedian, highOf = m => m.tps ? m.tps.high : m.tpsMedian;
  const highest = Math.max(...rows.map(highOf));
  const lowest = Math.min(...rows.map(lowOf));
  const decade = v => Math.pow(10, Math.floor(Math.log10(v)));
  const whiskers = {
    id: 'whiskers',
    afterDatasetsDraw(chart) {
      const { ctx, scales: { x, y } } = chart;
      ctx.save();
      rows.forEach((m, i) => {
        const cy = y.getPixelForValue(i);
        const low = lowOf(m), high = highOf(m);
        const x0 = x.getPixelForValue(low), x1 = x.getPixelForValue(high);
        ctx.strokeStyle = '#222'; ctx.lineWidth = 1.5;
        ctx.beginPath(); ctx.moveTo(x0, cy); ctx.lineTo(x1, cy);
        ctx.moveTo(x0, cy - 5); ctx.lineTo(x0, cy + 5); ctx.moveTo(x1, cy - 5); ctx.lineTo(x1, cy + 5); ctx.stroke();
        const work = m.storeWork === 'none' ? 'no store work' : m.storeWork;
        const text = fmt(m.tpsMedian) + ' TPS  ' + work + ', ' + trips(m.storeRoundTripsPerRequest);
        ctx.font = font; ctx.textBaseline = 'middle';
        let tx = Math.max(x1, x.getPixelForValue(m.tpsMedian)) + 6, ink = '#111';
        if (tx + ctx.measureText(text).width > chart.chartArea.right) {
          tx = x.getPixelForValue(low) - 8 - ctx.measureText(text).width; ink = '#fff';
        }
        ctx.fillStyle = ink; ctx.fillText(text, tx, cy);
      });
      ctx.restore();
    }
  };
  const tpsChart = new Chart(tpsCanvas, {
    type: 'bar',
    data: { labels: rows.map(label), datasets: [{ data: rows.map(m => m.tpsMedian), backgroundColor: rows.map(m => kind(m).color),
      barPercentage: 0.78, categoryPercentage: 1.0 }] },
    options: {
      indexAxis: 'y', animation: false, responsive: true, maintainAspectRatio: false, layout: { padding: { right: 8, left: 4 } },
      plugins: { legend: { display: true, position: 'bottom', labels: { font: { size: 12 }, color: '#222',
          generateLabels: () => kinds.map(k => ({ text: k.name, fillStyle: k.color, strokeStyle: k.color, lineWidth: 0 })) } },
        title: { display: true, text: 'requests per second on this machine (log scale)', font: { size: 14 } }, tooltip: { enabled: false } },
      scales: { x: { type: 'logarithmic', min: decade(lowest), max: highest * 1.6,
          ticks: { font: { size: 12 }, callback: v => [1, 3].includes(v / decade(v)) ? fmt(v) : '' } },
        y: { ticks: { font: { size: 12 }, color: '#111', autoSkip: false }, grid: { display: false } } },
    },
    plugins: [whiskers],
  });
  const median = s => s ? s.median : null;
  const cpuLabels = {
    id: 'cpuLabels',
    afterDatasetsDraw(chart) {
      const { ctx, scales: { x, y } } = chart;
      ctx.save(); ctx.font = font; ctx.textBaseline = 'middle'; ctx.fillStyle = '#111';
      rows.forEach((m, i) => {
        if (!m.cpu || !m.cpu.totalMicros) return;
        const cost = m.cpuMicros && m.cpuMicros.rounds > 1 ? fmt(m.cpuMicros.estimate) + ' µs (' + fmt(m.cpuMicros.low) + '-' + fmt(m.cpuMicros.high) + ')'
          : fmt(m.cpu.totalMicros.median) + ' µs';
        ctx.fillText(cost, x.getPixelForValue(m.cpu.totalMicros.median) + 6, y.getPixelForValue(i));
      });
      ctx.restore();
    }
  };
  const cpuChart = new Chart(cpuCanvas, {
    type: 'bar',
    data: { labels: rows.map(label), datasets: [
      { label: "the module's JVM", data: rows.map(m => m.cpu ? median(m.cpu.moduleMicros) : null), backgroundColor: '#6b8fb5', stack: 'cpu',
        // the cheapest rows cost under 1 % of the dearest: 3 px at least, so that every row shows a bar on the linear axis
        minBarLength: 3 },
      { label: 'its store (Redis, PostgreSQL)', data: rows.map(m => m.cpu ? median(m.cpu.storeMicros) : null), backgroundColor: '#c9a227', stack: 'cpu' } ] },
    options: {
      indexAxis: 'y', animation: false, responsive: true, maintainAspectRatio: false, layout: { padding: { right: 70 } },
      plugins: { legend: { display: true, position: 'bottom', labels: { font: { size: 12 }, color: '#222' } },
        title: { display: true, text: 'CPU µs one request costs, module + store: the ranking, cheapest first', font: { size: 14 } },
        tooltip: { enabled: false } },
      scales: { x: { stacked: true, suggestedMax: Math.max(...rows.map(m => m.cpuMicros ? m.cpuMicros.high : 0), ...rows.map(m => m.cpu && m.cpu.totalMicros ? m.cpu.totalMicros.median : 0)) * 1.35, ticks: { font: { size: 12 } } },
        y: { stacked: true, ticks: { display: false }, grid: { display: false } } },
    },
    plugins: [cpuLabels],
  });
  return [tpsChart, cpuChart];
}

// What a page reports of its drawing, in attributes of its body that Browser reads: canvases left blank, charts whose
// datasets hold no figure (they drew axes and nothing else), and the errors the page's first script caught.
function colorbenchReportDrawing() {
  const canvases = [...document.querySelectorAll('canvas')];
  document.body.dataset.canvases = canvases.length;
  document.body.dataset.blank = canvases.filter(canvas => colorbenchPainted(canvas) === 0).map(canvas => canvas.id).join(',');
  document.body.dataset.empty = Object.values(Chart.instances)
    .filter(chart => !chart.data.datasets.some(set => set.data.some(v => v !== null && v !== undefined)))
    .map(chart => chart.canvas.id).join(',');
  document.body.dataset.errors = window.colorbenchErrors.join(' | ');
  document.body.dataset.rendered = 'yes';
}

function colorbenchPainted(canvas) {
  const context = canvas.getContext('2d');
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
  let painted = 0;
  for (let i = 3; i < pixels.length; i += 4) { if (pixels[i] !== 0) painted++; }
  return painted;
}
