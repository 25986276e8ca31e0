// The inline stylesheet and script of the HTML report (html_report.h). The script reads the
// trace from <script id="trace-data">, draws the timeline and the counters on canvases, and
// records what it drew in #drawn (data-tracks, data-events, data-waits, data-counters).
#include "cli/lib/html_report.h"

namespace npu::cli {

const char* const kHtmlReportCss = R"CSS(
body { font: 13px sans-serif; margin: 16px; color: #222; }
h1 { font-size: 18px; } h2 { font-size: 15px; margin-top: 22px; }
table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
td:first-child, th:first-child { text-align: left; }
pre { background: #f6f6f6; padding: 8px; }
canvas { border: 1px solid #bbb; display: block; cursor: crosshair; }
.help { color: #666; margin: 2px 0; }
#legend span { display: inline-block; margin-right: 12px; }
#legend i { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: middle; }
#tip { font-family: monospace; min-height: 1.3em; color: #333; }
#drawn { color: #666; }
)CSS";

const char* const kHtmlReportJs = R"JS(
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("trace-data").textContent);
  const LEFT = 200, ROW = 16, TOP = 22, CH = 90;
  const tl = document.getElementById("timeline"), cc = document.getElementById("counters");
  const width = Math.max(600, document.body.clientWidth - 20);
  tl.width = width; tl.height = TOP + ROW * D.tracks.length + 4;
  cc.width = width; cc.height = 2 * CH + 20;
  const labelColour = (i) => i === 0 ? "#9a9a9a" : "hsl(" + ((i * 137.508) % 360).toFixed(1) + ",62%,52%)";
  const reasonColour = ["#000", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"];
  let end = 1;
  const perTrack = D.tracks.map(() => []);
  for (const e of D.events) { end = Math.max(end, e[2]); perTrack[e[0]].push(e); }
  for (const name in D.counters) for (const s of D.counters[name]) end = Math.max(end, s[0]);
  let t0 = 0, t1 = end;
  const X = (c) => LEFT + (c - t0) * (width - LEFT) / (t1 - t0);
  const C = (x) => t0 + (x - LEFT) * (t1 - t0) / (width - LEFT);

  const legend = document.getElementById("legend");
  D.labels.forEach((l, i) => {
    legend.insertAdjacentHTML("beforeend", "<span><i style=\"background:" + labelColour(i) + "\"></i></span>");
    legend.lastChild.appendChild(document.createTextNode(l === "" ? "(no label)" : l));
  });
  D.reasons.forEach((r, i) => {
    if (i === 0) return;
    legend.insertAdjacentHTML("beforeend", "<span><i style=\"background:" + reasonColour[i] + "\"></i>stall: " + r + "</span>");
  });

  function axis(g, h) {
    g.fillStyle = "#444"; g.strokeStyle = "#ddd"; g.font = "11px sans-serif";
    const span = t1 - t0, step = Math.pow(10, Math.floor(Math.log10(span / 8)));
    const k = span / step > 40 ? 5 * step : span / step > 16 ? 2 * step : step;
    for (let c = Math.ceil(t0 / k) * k; c <= t1; c += k) {
      const x = X(c);
      g.beginPath(); g.moveTo(x, 14); g.lineTo(x, h); g.stroke();
      g.fillText(String(c), x + 2, 11);
    }
  }

  function drawTimeline() {
    const g = tl.getContext("2d");
    g.clearRect(0, 0, tl.width, tl.height);
    axis(g, tl.height);
    let events = 0, waits = 0;
    D.tracks.forEach((name, t) => {
      const y = TOP + t * ROW;
      g.fillStyle = t % 2 ? "#fafafa" : "#f0f0f0"; g.fillRect(LEFT, y, width - LEFT, ROW);
      g.fillStyle = "#222"; g.font = "11px monospace"; g.fillText(name, 4, y + 12);
      for (const e of perTrack[t]) {
        if (e[5] > 0 && e[6] > 0) {
          const w0 = X(e[1] - e[5]), w1 = X(e[1]);
          if (w1 >= LEFT && w0 <= width) {
            g.fillStyle = reasonColour[e[6]];
            g.fillRect(Math.max(LEFT, w0), y + ROW - 5, Math.max(1, w1 - Math.max(LEFT, w0)), 3);
            ++waits;
          }
        }
        const x0 = X(e[1]), x1 = X(e[2]);
        if (x1 < LEFT || x0 > width) continue;
        g.globalAlpha = e[4] ? 0.45 : 1;
        g.fillStyle = labelColour(e[3]);
        const a = Math.max(LEFT, x0);
        g.fillRect(a, y + 2, Math.max(1, x1 - a), ROW - 8);
        g.globalAlpha = 1;
        ++events;
      }
    });
    return [events, waits];
  }

  function drawCounters() {
    const g = cc.getContext("2d");
    g.clearRect(0, 0, cc.width, cc.height);
    axis(g, cc.height);
    let samples = 0;
    [["HBM GB/s", "#1f77b4"], ["L2 hit rate %", "#2ca02c"]].forEach(([name, colour], i) => {
      const s = D.counters[name] || [], y0 = 18 + i * (CH + 2);
      let max = name.startsWith("L2") ? 100 : 1;
      for (const p of s) max = Math.max(max, p[1]);
      g.fillStyle = "#f4f4f4"; g.fillRect(LEFT, y0, width - LEFT, CH);
      g.fillStyle = "#222"; g.font = "11px monospace";
      g.fillText(name, 4, y0 + 12); g.fillText("max " + max.toFixed(1), 4, y0 + 26);
      g.fillStyle = colour;
      s.forEach((p, j) => {
        const next = j + 1 < s.length ? s[j + 1][0] : end;
        const x0 = Math.max(LEFT, X(p[0])), x1 = Math.min(width, X(next));
        if (x1 < LEFT || x0 > width) return;
        const h = CH * p[1] / max;
        g.fillRect(x0, y0 + CH - h, Math.max(1, x1 - x0), h);
        ++samples;
      });
    });
    return samples;
  }

  function draw() {
    const [events, waits] = drawTimeline(), samples = drawCounters();
    const d = document.getElementById("drawn");
    d.dataset.tracks = D.tracks.length; d.dataset.events = events; d.dataset.waits = waits;
    d.dataset.counters = samples;
    d.textContent = D.tracks.length + " tracks, " + events + " events and " + waits + " stalls drawn in cycles " +
      Math.round(t0) + " .. " + Math.round(t1) + "; " + samples + " counter samples";
  }

  function zoom(ev) {
    ev.preventDefault();
    const c = C(ev.offsetX), f = ev.deltaY < 0 ? 0.8 : 1.25;
    t0 = Math.max(0, c - (c - t0) * f); t1 = Math.min(end, c + (t1 - c) * f);
    if (t1 - t0 < 10) t1 = t0 + 10;
    draw();
  }
  let dragX = null;
  for (const cv of [tl, cc]) {
    cv.addEventListener("wheel", zoom, {passive: false});
    cv.addEventListener("mousedown", (ev) => { dragX = ev.offsetX; });
    cv.addEventListener("dblclick", () => { t0 = 0; t1 = end; draw(); });
  }
  window.addEventListener("mouseup", () => { dragX = null; });
  tl.addEventListener("mousemove", (ev) => {
    if (dragX !== null) {
      const d = (ev.offsetX - dragX) * (t1 - t0) / (width - LEFT), span = t1 - t0;
      t0 = Math.min(Math.max(0, t0 - d), end - span); t1 = t0 + span; dragX = ev.offsetX; draw();
      return;
    }
    const t = Math.floor((ev.offsetY - TOP) / ROW), c = C(ev.offsetX);
    const tip = document.getElementById("tip");
    tip.textContent = "";
    if (t < 0 || t >= D.tracks.length) return;
    for (const e of perTrack[t])
      if (e[1] <= c && c < e[2]) {
        tip.textContent = D.tracks[t] + "  cycles " + e[1] + ".." + e[2] + "  " + D.texts[e[7]] +
          (e[5] ? "  (stall " + e[5] + " " + D.reasons[e[6]] + ")" : "");
        break;
      }
  });
  draw();
})();
)JS";

}  // namespace npu::cli
