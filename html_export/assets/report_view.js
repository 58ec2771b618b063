// The timeline: lane layout, drawing on one canvas, zoom and pan.

const AXIS_H = 22, ROW_H = 14, AVG_H = 26, HEAD_H = 18, MIN_PX = 3;
// The canvas's own colours in the light and the dark theme (the viewer's,
// viewer/palette.hpp); THEME is the one in use (setTheme).
const THEMES = {
  light: {dark: false, folded: 'rgb(226,229,234)', nodeHeader: '#e9ecf1', rowLine: '#eceef2',
          axis: '#f6f7f9', axisLine: '#d5d9e0', axisText: '#4a5468', muted: '#666',
          avgFill: 'rgba(45,110,200,0.25)', avgLine: 'rgb(45,110,200)', chain: '#111',
          lostFill: 'rgba(120,120,120,0.24)', lostHatch: 'rgba(110,110,110,0.6)'},
  dark: {dark: true, folded: 'rgb(58,62,70)', nodeHeader: '#30343c', rowLine: '#2e3137',
         axis: '#282b30', axisLine: '#464b54', axisText: '#aab2c0', muted: '#9aa',
         avgFill: 'rgba(90,150,235,0.3)', avgLine: 'rgb(110,165,240)', chain: '#f0f0f0',
         lostFill: 'rgba(140,140,140,0.22)', lostHatch: 'rgba(150,150,150,0.6)'},
};
let THEME = THEMES.light;
function setTheme(dark) {
  THEME = dark ? THEMES.dark : THEMES.light;
  document.documentElement.classList.toggle('dark', dark);
}

// A name and kind's colour from the report's palette, in the theme in use:
// k 0..2 its fill running, ready, blocked; 3..5 a label's on each.
function paletteColor(p, name, kind, k, otherwise) {
  const colors = p.palette.get(name * 16 + kind);
  return colors ? colors[k + (THEME.dark ? 6 : 0)] : otherwise;
}
// The colour of a name and kind (of an item: fillOf) in a state (0
// running, 1 ready, 2 blocked).
function fillFor(p, name, kind, state) { return paletteColor(p, name, kind, state, '#888'); }
// The selected range's band and the mark's (viewer/palette.hpp's).
const BAND = {range: {fill: 'rgba(31,95,191,0.16)', edge: 'rgba(31,95,191,0.86)'},
              mark: {fill: 'rgba(214,120,20,0.13)', edge: 'rgba(196,104,8,0.9)'}};

function fillOf(p, i, state) { return fillFor(p, p.name(i), p.kind(i), state); }
// The colour of an item's label on its fill in a state (dark on light fills).
function labelOf(p, i, state) { return paletteColor(p, p.name(i), p.kind(i), 3 + state, '#fff'); }

const ERROR_TAGS = {out_of_memory: 'out of memory', fatal: 'fatal error', signal: 'crash',
                    warning: 'warning'};

// A duration to three significant digits, no trailing zeros: "140 ms",
// "12.9 us", "1.5 s", "800 ns", as the command-line tools write them
// (short_ns). exactNs gives every digit, for title tooltips.
function formatNs(ns) {
  const units = ['ns', 'us', 'ms', 's'];
  let u = 0, v = ns;
  while (u < 3 && Math.abs(v) >= 999.5) { v /= 1e3; ++u; }
  return `${Math.abs(v) >= 999.5 ? Math.round(v) : Number(v.toPrecision(3))} ${units[u]}`;
}
function exactNs(ns) { return `${Math.round(ns).toLocaleString('en-US')} ns`; }

// Bytes with a binary unit, as the viewer writes them: "812 B", "1.5 GiB".
function formatBytes(b) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let u = 0;
  while (b >= 1024 && u < 4) { b /= 1024; ++u; }
  return u === 0 ? `${Math.round(b)} B` : `${b.toFixed(1)} ${units[u]}`;
}

// An axis label: the unit the step reads best in (500 us steps as 0.5 ms,
// 1.5 ms, ...) and as many decimals as the step needs, so "200 ms", never
// "200.000 ms". The viewer's ruler does the same (tick_label).
function tickLabel(ns, step) {
  const units = [[1, 'ns'], [1e3, 'us'], [1e6, 'ms'], [1e9, 's']];
  let [scale, name] = units[0];
  for (const [s, n] of units) if (step * 2 >= s) [scale, name] = [s, n];
  const decimals = Math.max(0, Math.ceil(-Math.log10(step / scale) - 1e-9));
  return `${(ns / scale).toFixed(decimals)} ${name}`;
}

class Timeline {
  constructor(p) {
    this.p = p;
    this.canvas = document.getElementById('canvas');
    this.view = document.getElementById('view');
    this.labels = document.getElementById('labels');
    this.t0 = p.run.start; this.t1 = Math.max(p.run.stop, p.run.start + 1000);
    this.scroll = 0; this.undo = []; this.collapsed = new Set();
    // Memories open folded: their avg line tells the story, their instance
    // rows would push the channels off the first screen.
    for (const n of p.nodes) for (const g of n.kinds) if (p.isMemory(g.kind)) this.collapsed.add(`${n.rank}:${g.kind}`);
    this.search = null;  // Profile.search's answer, its hits outlined
    this.chain = new Set(); this.flash = -1;
    this.marked = [];  // a finding's items ({item, start, stop}), outlined until cleared
    this.loading = false;  // some row waits for its detail
    this.groups = new Map();  // "rank:kind" -> Utilization, built on first draw
    this.buildRows();
  }

  // The vertical layout: node headers, per kind an avg row, then its lanes.
  buildRows() {
    const p = this.p, rows = [];
    let y = 0;
    const push = (r) => { r.y = y; y += r.h; rows.push(r); };
    const allNodes = p.nodes.length > 1;
    if (allNodes) {
      push({type: 'node', key: 'all', h: HEAD_H, text: `All nodes (${p.nodes.length})`});
      if (!this.collapsed.has('all')) {
        const byKind = new Map();
        for (const n of p.nodes) for (const g of n.kinds) {
          if (!byKind.has(g.kind)) byKind.set(g.kind, []);
          byKind.get(g.kind).push(...g.lanes);
        }
        for (const [kind, lanes] of [...byKind].sort((a, b) => a[0] - b[0])) {
          push({type: 'avg', key: `all:${kind}`, rank: -1, kind, lanes, h: AVG_H,
                text: `${p.kinds[kind]} avg (${lanes.length})`});
        }
      }
    }
    for (const n of p.nodes) {
      const nodeKey = `n${n.rank}`;
      push({type: 'node', key: nodeKey, h: HEAD_H,
            text: n.label});
      if (this.collapsed.has(nodeKey)) continue;
      for (const g of n.kinds) {
        const key = `${n.rank}:${g.kind}`;
        push({type: 'avg', key, rank: n.rank, kind: g.kind, lanes: g.lanes, h: AVG_H,
              text: `${this.collapsed.has(key) ? '▸' : '▾'} ${p.kinds[g.kind]} avg (${g.lanes.length})`});
        if (this.collapsed.has(key)) continue;
        for (const l of g.lanes) {
          push({type: 'lane', lane: l, h: Math.max(1, p.lanes[l].rows.length) * ROW_H + 2,
                text: p.lanes[l].name});
        }
      }
    }
    this.rows = rows; this.height = y;
    this.renderLabels();
  }

  renderLabels() {
    const box = this.labels;
    box.replaceChildren();
    for (const r of this.rows) {
      const d = document.createElement('div');
      d.className = `label ${r.type}-label`;
      d.textContent = r.type === 'node' ? `${this.collapsed.has(r.key) ? '▸' : '▾'} ${r.text}` : r.text;
      d.style.top = `${AXIS_H + r.y - this.scroll}px`;
      d.style.height = `${r.h}px`;
      d.style.lineHeight = `${r.type === 'lane' ? ROW_H : r.h}px`;
      if (r.key) {
        d.dataset.key = r.key;
        d.addEventListener('click', () => this.toggle(r.key));
      }
      if (r.type === 'lane') d.dataset.lane = r.lane;
      box.appendChild(d);
    }
  }
  toggle(key) {
    if (this.collapsed.has(key)) this.collapsed.delete(key); else this.collapsed.add(key);
    this.buildRows(); this.draw();
  }

  utilization(r) {
    if (!this.groups.has(r.key)) this.groups.set(r.key, new Utilization(this.p, r));
    return this.groups.get(r.key);
  }

  x(t) { return (t - this.t0) / (this.t1 - this.t0) * this.w; }
  time(x) { return this.t0 + x / this.w * (this.t1 - this.t0); }

  setWindow(t0, t1, remember = true) {
    const span = this.p.run.stop - this.p.run.start;
    const minW = 50, maxW = Math.max(span * 1.2, 1000);
    let w = Math.min(Math.max(t1 - t0, minW), maxW);
    const c = (t0 + t1) / 2;
    t0 = c - w / 2; t1 = c + w / 2;
    if (remember) { this.undo.push([this.t0, this.t1]); if (this.undo.length > 100) this.undo.shift(); }
    this.t0 = t0; this.t1 = t1; this.draw();
  }
  zoom(factor, atX) {
    const t = this.time(atX);
    this.setWindow(t - (t - this.t0) * factor, t + (this.t1 - t) * factor);
  }
  pan(dx) {
    const dt = dx / this.w * (this.t1 - this.t0);
    this.setWindow(this.t0 + dt, this.t1 + dt, false);
  }
  setScroll(s) {
    this.scroll = Math.max(0, Math.min(s, Math.max(0, this.height - (this.h - AXIS_H))));
    this.renderLabels(); this.draw();
  }

  draw() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.paint(); });
  }

  paint() {
    const dpr = window.devicePixelRatio || 1;
    this.w = this.view.clientWidth; this.h = this.view.clientHeight;
    if (this.canvas.width !== Math.round(this.w * dpr) || this.canvas.height !== Math.round(this.h * dpr)) {
      this.canvas.width = Math.round(this.w * dpr); this.canvas.height = Math.round(this.h * dpr);
      this.canvas.style.width = `${this.w}px`; this.canvas.style.height = `${this.h}px`;
    }
    const g = this.canvas.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, this.w, this.h);
    g.font = '10px system-ui, sans-serif'; g.textBaseline = 'middle';
    this.hitBoxes = []; this.avgLines = []; this.outlined = [];
    this.p.frame += 1; this.loading = false;
    this.drawnBy = new Map();  // lane -> 'items', or 'blocks' when a row was drawn from its fold blocks
    for (const r of this.rows) {
      const top = AXIS_H + r.y - this.scroll;
      if (top + r.h < AXIS_H || top > this.h) continue;
      if (r.type === 'node') { g.fillStyle = THEME.nodeHeader; g.fillRect(0, top, this.w, r.h); }
      if (r.type === 'avg') this.paintAvg(g, r, top);
      if (r.type === 'lane') this.paintLane(g, r.lane, top);
      if (r.type !== 'node') this.paintLost(g, this.rankOf(r), top, r.h);
      g.fillStyle = THEME.rowLine; g.fillRect(0, top + r.h - 1, this.w, 1);
    }
    this.paintAxis(g);
    this.paintErrors(g);
    // The mark (m), the selected range (a drag) and a range being dragged,
    // as bands with their lengths, as the viewer draws them.
    if (this.mark) this.paintBand(g, this.x(this.mark[0]), this.x(this.mark[1]), BAND.mark, 'mark ');
    if (this.range) this.paintBand(g, this.x(this.range[0]), this.x(this.range[1]), BAND.range, '');
    if (this.selecting) this.paintBand(g, this.selecting[0], this.selecting[1], BAND.range, '');
    if (this.onPaint) this.onPaint();
  }

  paintBand(g, a, b, colors, prefix) {
    const x0 = Math.min(a, b), x1 = Math.max(a, b);
    g.fillStyle = colors.fill;
    g.fillRect(x0, AXIS_H, Math.max(x1 - x0, 1), this.h - AXIS_H);
    g.fillStyle = colors.edge;
    g.fillRect(x0, AXIS_H, 1, this.h - AXIS_H); g.fillRect(x1, AXIS_H, 1, this.h - AXIS_H);
    const text = prefix + formatNs((x1 - x0) * (this.t1 - this.t0) / this.w);
    const tw = g.measureText(text).width;
    const tx = Math.min(Math.max((x0 + x1 - tw) / 2, 2), Math.max(2, this.w - tw - 6));
    g.fillRect(tx - 3, AXIS_H + 2, tw + 6, 14);
    g.fillStyle = '#fff'; g.fillText(text, tx, AXIS_H + 9);
  }

  paintAvg(g, r, top) {
    const n = Math.max(1, Math.floor(this.w / 2));
    const u = this.utilization(r), values = u.sample(this.t0, this.t1, n, this.loadLimit());
    const h = r.h - 4, base = top + r.h - 2;
    this.avgLines.push({top, h: r.h, values, row: r});  // values NaN when unknown
    if (!u.known) {
      g.fillStyle = THEME.muted;
      g.fillText('utilization unknown: the trace gives no size for these memories', 6, top + r.h / 2);
      return;
    }
    // A step per change of value (a flat stretch is one segment).
    g.beginPath(); g.moveTo(0, base);
    let prev = NaN;
    for (let k = 0; k < n; ++k) {
      const y = base - Math.min(1, values[k]) * h;
      if (y === prev) continue;
      const x = k * this.w / n;
      if (k > 0) g.lineTo(x, prev);
      g.lineTo(x, y);
      prev = y;
    }
    g.lineTo(this.w, prev); g.lineTo(this.w, base); g.closePath();
    g.fillStyle = THEME.avgFill; g.fill();
    g.strokeStyle = THEME.avgLine; g.lineWidth = 1; g.stroke();
  }

  // The most items of a row's window worth loading to draw them one by one.
  loadLimit() { return ITEMS_PER_COLUMN_LOADED * Math.ceil(this.w / MIN_PX); }

  // Each row from its items where they are loaded (or few enough to load:
  // they are asked for, and the row redrawn when they arrive), else from
  // its fold blocks.
  paintLane(g, l, top) {
    const p = this.p, lane = p.lanes[l], limit = this.loadLimit();
    if (!this.drawnBy.has(l)) this.drawnBy.set(l, 'items');
    lane.rowRanges.forEach((row, r) => {
      const y = top + 1 + r * ROW_H, h = ROW_H - 2;
      const [a, z] = row[1] > row[0] ? p.rowWindow(row[0], row[1], this.t0, this.t1) : [0, 0];
      if (a >= z) return;
      if (z - a <= limit) {
        if (p.has(a, z)) { p.touch(a, z); this.paintItems(g, a, z, y, h); return; }
        this.loading = true;
        p.request(a, z).catch(() => {});
      }
      this.drawnBy.set(l, 'blocks');
      this.paintOverview(g, row, y, h);
    });
  }

  // Items [a, z) of a row (loaded): each one wide enough on its own, tiny
  // ones within MIN_PX of each other folded into one box.
  paintItems(g, a, z, y, h) {
    const p = this.p, ns = (this.t1 - this.t0) / this.w, minNs = Math.max(1, MIN_PX * ns);
    let i = p.firstEndingAfter(a, z, this.t0);
    while (i < z && p.start(i) < this.t1) {
      if (p.stop(i) - p.start(i) >= minNs) { this.paintItem(g, i, y, h); ++i; continue; }
      let j = i + 1, stop = p.stop(i);
      while (j < z && p.start(j) < this.t1 && p.start(j) < stop + minNs && p.stop(j) - p.start(j) < minNs) {
        const limit = stop + minNs;
        let lo = j, hi = z;  // items ending before limit fold as a block
        while (lo < hi) { const m = (lo + hi) >> 1; if (p.stop(m) < limit) lo = m + 1; else hi = m; }
        if (lo > j) { stop = p.stop(lo - 1); j = lo; } else { stop = p.stop(j); ++j; }
      }
      if (j === i + 1) this.paintItem(g, i, y, h);
      else this.paintMerged(g, i, j, stop, y, h);
      i = j;
    }
  }

  // A row drawn from its fold blocks (Profile.overview): where items ran, a
  // light box with a bar per column of MIN_PX pixels, as tall as the share
  // of the column's time they ran, in the colour of what ran most there.
  paintOverview(g, row, y, h) {
    const p = this.p, width = MIN_PX * (this.t1 - this.t0) / this.w, ncol = Math.ceil(this.w / MIN_PX) + 1;
    const o = p.overview(row, this.t0, this.t1, this.t0, width, ncol);
    let box = null, run = null;
    const flushRun = () => { if (run) { g.fillStyle = run.color; g.fillRect(run.a, y + h - run.bar, run.e - run.a, run.bar); run = null; } };
    const flushBox = () => {
      if (!box) return;
      flushRun();
      this.hitBoxes.push(box);
      for (const m of this.marked) {
        if (m.item >= row[0] && m.item < row[1] && m.stop >= box.start && m.start < box.stop)
          this.outlineMarked(g, m, y, h);
      }
      box = null;
    };
    // The boxes' backdrops first, then their bars.
    g.fillStyle = THEME.folded;
    for (let c = 0; c < ncol;) {
      if (o.items[c] <= 0) { ++c; continue; }
      let d = c + 1;
      while (d < ncol && o.items[d] > 0) ++d;
      g.fillRect(c * MIN_PX, y, (d - c) * MIN_PX, h);
      c = d;
    }
    for (let c = 0; c < ncol; ++c) {
      if (o.items[c] <= 0) { flushBox(); continue; }
      const x0 = c * MIN_PX, x1 = x0 + MIN_PX, t0 = this.t0 + c * width;
      if (!box) box = {x0, x1, y, h, count: 0, overview: {columns: o, first: c, last: c, width}, start: t0, stop: t0};
      box.x1 = x1; box.stop = t0 + width; box.overview.last = c;
      const bar = Math.max(2, Math.round(Math.min(1, o.busy[c] / width) * h));
      const k = o.key[c] >= 0 ? p.leadKeys[o.key[c]] : [0, 0, 0], color = fillFor(p, k[0], k[1], 0);
      if (run && run.color === color && run.bar === bar) { run.e = x1; continue; }
      flushRun();
      run = {a: x0, e: x1, bar, color};
    }
    flushBox();
  }

  paintItem(g, i, y, h) {
    const p = this.p;
    const x0 = this.x(p.start(i)), x1 = Math.max(this.x(p.stop(i)), x0 + 1);
    const textX = Math.max(x0, 0) + 3;
    let underText = 0;  // the state the label starts on
    if (p.flags(i) & FLAG_WAITS) {
      underText = this.paintStates(g, i, y, h, textX);
    } else {
      g.fillStyle = fillOf(p, i, 0);
      g.fillRect(x0, y, x1 - x0, h);
    }
    if (x1 - x0 > 40) {
      g.save(); g.beginPath(); g.rect(x0, y, x1 - x0, h); g.clip();
      g.fillStyle = labelOf(p, i, underText); g.fillText(p.label(i), textX, y + h / 2);
      g.restore();
    }
    this.outline(g, i, i + 1, x0, x1, y, h);
    this.hitBoxes.push({x0, x1, y, h, first: i, count: 1});
  }

  // An item's states in view: each one, or where there may be more than
  // pixels, per pixel the state it spent most of that pixel's time in.
  // Returns the state drawn at x = textX (0 if none).
  paintStates(g, i, y, h, textX) {
    const p = this.p;
    let under = 0;
    if (3 * p.waitsOf(i).length + 1 <= this.w) {
      for (const [a, b, s] of p.states(i, this.t0, this.t1)) {
        g.fillStyle = fillOf(p, i, s);
        const sa = this.x(a), sb = Math.max(this.x(b), sa + 1);
        g.fillRect(sa, y, sb - sa, h);
        if (sa <= textX && textX < sb) under = s;
      }
      return under;
    }
    const ns = (this.t1 - this.t0) / this.w, start = p.start(i), stop = p.stop(i);
    const first = Math.max(0, Math.floor(this.x(start))), last = Math.min(Math.ceil(this.w), Math.ceil(this.x(stop)));
    let run = -1, from = first;
    const flush = (k) => {
      if (run < 0) return;
      g.fillStyle = fillOf(p, i, run); g.fillRect(from, y, k - from, h);
      if (from <= textX && textX < k) under = run;
    };
    for (let k = first; k <= last; ++k) {
      let s = -1;
      if (k < last) {
        const lo = Math.max(start, this.t0 + k * ns), hi = Math.min(stop, this.t0 + (k + 1) * ns);
        const ready = p.timeIn(i, 1, lo, hi), blocked = p.timeIn(i, 2, lo, hi), running = hi - lo - ready - blocked;
        s = blocked >= ready && blocked >= running ? 2 : ready >= running ? 1 : 0;
      }
      if (s !== run) { flush(k); run = s; from = k; }
    }
    return under;
  }

  // Folded items: a light box where they lie, in it a bar per column of
  // MIN_PX pixels, as tall as the share of the column's time they ran, in
  // the colour of what ran longest there (as the viewer draws them).
  paintMerged(g, i, j, stop, y, h) {
    const p = this.p;
    const x0 = this.x(p.start(i)), x1 = Math.max(this.x(stop), x0 + MIN_PX);
    g.fillStyle = THEME.folded;
    g.fillRect(x0, y, x1 - x0, h);
    const width = MIN_PX * (this.t1 - this.t0) / this.w;
    let run = null;
    const flush = () => { if (run) { g.fillStyle = run.color; g.fillRect(run.a, y + h - run.bar, run.e - run.a, run.bar); } };
    for (const c of p.foldColumns(i, j - i, stop, this.t0, width)) {
      const a = Math.max(x0, this.x(c.start)), e = Math.max(Math.min(x1, this.x(c.stop)), a + 1);
      const bar = Math.max(2, Math.round(Math.min(1, c.busy / width) * h)), color = fillOf(p, c.lead, 0);
      if (run && run.color === color && run.bar === bar && a <= run.e) { run.e = e; continue; }
      flush();
      run = {a, e, bar, color};
    }
    flush();
    this.outline(g, i, j, x0, x1, y, h);
    this.hitBoxes.push({x0, x1, y, h, first: i, count: j - i, stop});
  }

  // Search hits, the highlighted critical path, a followed link and the
  // selected finding's items stand out. A finding's item gets the widest
  // outline, its own even inside a merged box, at least 8 px across.
  outline(g, i, j, x0, x1, y, h) {
    let color = null;
    for (const m of this.marked) if (m.item >= i && m.item < j) this.outlineMarked(g, m, y, h);
    if (this.flash >= i && this.flash < j) color = '#ff2d55';
    else if (this.chainHas(i, j)) color = THEME.chain;
    else if (this.hitIn(i, j)) color = '#d000d0';
    if (!color) return;
    g.strokeStyle = color; g.lineWidth = 2;
    g.strokeRect(x0 - 1, y - 1, x1 - x0 + 2, h + 2);
  }
  outlineMarked(g, m, y, h) {
    const a = this.x(m.start), b = Math.max(this.x(m.stop), a + 1);
    const c = (a + b) / 2, half = Math.max((b - a) / 2, 4) + 2;
    g.strokeStyle = '#ff8a00'; g.lineWidth = 3;
    g.strokeRect(c - half, y - 2, 2 * half, h + 4);
    this.outlined.push({item: m.item, x0: c - half, x1: c + half, y});
  }
  chainHas(i, j) {
    if (this.chain.size === 0) return false;
    if (j - i === 1) return this.chain.has(i);
    for (const c of this.chain) if (c >= i && c < j) return true;
    return false;
  }
  // Whether a search hit lies in items [i, j) (loaded).
  hitIn(i, j) {
    const s = this.search, p = this.p;
    if (!s || s.total === 0) return false;
    for (let k = Math.floor(i / p.chunkItems); k * p.chunkItems < j; ++k) {
      if (!s.chunks.includes(k)) continue;
      const c = p.store.items[k];
      if (!s.inChunk.has(k) && !p.hasChunkOperations(c)) { p.chunkOperations(c).catch(() => {}); continue; }
      const h = p.hitsIn(s, k);
      const lo = firstAtOrAfter(0, h.length, (x) => h[x] < i);
      if (lo < h.length && h[lo] < j) return true;
    }
    return false;
  }

  // A red line through every lane at each error, flagged on the axis.
  paintErrors(g) {
    for (const e of this.p.errors) {
      const x = this.x(e.time);
      if (x < 0 || x > this.w) continue;
      const tag = ERROR_TAGS[e.kind] || 'error', tw = g.measureText(tag).width + 8;
      const left = Math.min(x, this.w - tw);
      g.fillStyle = '#d0021b';
      g.fillRect(x - 1, AXIS_H, 2, this.h - AXIS_H);
      g.fillRect(left, 2, tw, AXIS_H - 4);
      g.fillStyle = '#fff';
      g.fillText(tag, left + 4, AXIS_H / 2);
    }
  }

  paintAxis(g) {
    g.fillStyle = THEME.axis; g.fillRect(0, 0, this.w, AXIS_H);
    g.fillStyle = THEME.axisLine; g.fillRect(0, AXIS_H - 1, this.w, 1);
    const span = this.t1 - this.t0, target = span / Math.max(1, this.w / 110);
    const pow = Math.pow(10, Math.floor(Math.log10(target)));
    const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= target) || 10 * pow;
    g.fillStyle = THEME.axisText; g.textBaseline = 'middle';
    const origin = this.p.run.start;
    for (let t = Math.ceil((this.t0 - origin) / step) * step + origin; t < this.t1; t += step) {
      const x = this.x(t);
      g.fillRect(x, AXIS_H - 6, 1, 6);
      g.fillText(tickLabel(t - origin, step), x + 3, AXIS_H / 2 - 2);
    }
  }

  // What a box drawn from fold blocks held around x (its columns within
  // `reach` of x's): {start, stop, items, busy, keys: [[lead key, weight]...]
  // heaviest first}.
  overviewAt(box, x, reach) {
    const o = box.overview, c = Math.floor(x / MIN_PX);
    const a = Math.max(o.first, c - reach), b = Math.min(o.last, c + reach), keys = new Map();
    let items = 0, busy = 0;
    for (let k = a; k <= b; ++k) {
      items += o.columns.items[k]; busy += o.columns.busy[k];
      const key = o.columns.key[k];
      if (key >= 0) keys.set(key, (keys.get(key) || 0) + o.columns.busy[k] + o.columns.items[k]);
    }
    return {start: this.t0 + a * o.width, stop: this.t0 + (b + 1) * o.width, items, busy,
            keys: [...keys].sort((x1, x2) => x2[1] - x1[1])};
  }

  // What is under (x, y): {error} for an error line, {box} for an item or
  // merged box, {avg, value} for an avg line, or null.
  // A row's node (-1 for the all-nodes rows).
  rankOf(r) { return r.type === 'lane' ? this.p.lanes[r.lane].rank : r.rank; }

  // Hatches where the row's node lost records to damage: not idle time.
  paintLost(g, rank, top, h) {
    for (const l of this.p.lost) {
      if (l.rank !== rank) continue;
      const x0 = Math.max(this.x(l.from), 0), x1 = Math.min(Math.max(this.x(l.to), x0 + 2), this.w);
      if (x1 <= 0 || x0 >= this.w) continue;
      g.save(); g.beginPath(); g.rect(x0, top, x1 - x0, h - 1); g.clip();
      g.fillStyle = THEME.lostFill; g.fillRect(x0, top, x1 - x0, h - 1);
      g.strokeStyle = THEME.lostHatch; g.lineWidth = 1; g.beginPath();
      for (let x = x0 - h; x < x1; x += 7) { g.moveTo(x, top + h); g.lineTo(x + h, top); }
      g.stroke(); g.restore();
    }
  }

  // The lost span under (x, y), or null.
  lostAt(x, y) {
    if (!this.p.lost.length) return null;
    const t = this.time(x);
    for (const r of this.rows) {
      const top = AXIS_H + r.y - this.scroll;
      if (r.type === 'node' || y < top || y >= top + r.h) continue;
      const rank = this.rankOf(r);
      return this.p.lost.find((l) => l.rank === rank && t >= l.from && t <= l.to) || null;
    }
    return null;
  }

  pick(x, y) {
    for (const e of this.p.errors) {
      if (Math.abs(this.x(e.time) - x) <= 3) return {error: e};
    }
    for (const b of this.hitBoxes || []) {
      if (x >= b.x0 - 1 && x <= b.x1 + 1 && y >= b.y && y <= b.y + b.h) return {box: b};
    }
    const lost = this.lostAt(x, y);
    if (lost) return {lost};
    for (const a of this.avgLines || []) {
      if (y >= a.top && y < a.top + a.h) {
        const k = Math.min(a.values.length - 1, Math.max(0, Math.floor(x / this.w * a.values.length)));
        return {avg: a.row, value: a.values[k]};
      }
    }
    return null;
  }

  // Shows [t0, t1] (with a margin) and the lanes unfolded, scrolled so their
  // kinds' avg lines and the lanes are in view (the first ones when not all fit).
  focus(t0, t1, lanes) {
    const p = this.p;
    let changed = false;
    for (const l of lanes) {
      const lane = p.lanes[l];
      const node = this.collapsed.delete(`n${lane.rank}`), kind = this.collapsed.delete(`${lane.rank}:${lane.kind}`);
      if (node || kind) changed = true;
    }
    if (changed) this.buildRows();
    const margin = Math.max((t1 - t0) * 0.05, 500);
    this.setWindow(t0 - margin, t1 + margin);
    const want = new Set(lanes), keys = new Set(lanes.map((l) => `${p.lanes[l].rank}:${p.lanes[l].kind}`));
    let top = Infinity, bottom = -Infinity;
    for (const r of this.rows) {
      if ((r.type === 'lane' && want.has(r.lane)) || (r.type === 'avg' && keys.has(r.key))) {
        top = Math.min(top, r.y); bottom = Math.max(bottom, r.y + r.h);
      }
    }
    const visible = this.h - AXIS_H;
    if (top < Infinity && (top < this.scroll || bottom > this.scroll + visible)) this.setScroll(top);
    this.draw();
  }
  // Whether lane l's row lies fully inside the visible part of the lanes.
  laneVisible(l) {
    const r = this.rows.find((row) => row.type === 'lane' && row.lane === l);
    return !!r && r.y >= this.scroll && r.y + r.h <= this.scroll + this.h - AXIS_H;
  }

  // Brings item i into view: its lane unfolded and scrolled to, the window
  // moved (and zoomed if needed) so the item is visible.
  async reveal(i) {
    const p = this.p, lane = p.lanes[p.laneOf(i)];
    await p.ensure([i]);
    const nodeKey = `n${lane.rank}`, kindKey = `${lane.rank}:${lane.kind}`;
    if (this.collapsed.delete(nodeKey) | this.collapsed.delete(kindKey)) this.buildRows();
    const span = this.t1 - this.t0, d = p.stop(i) - p.start(i);
    if (p.start(i) < this.t0 || p.stop(i) > this.t1 || d * this.w / span < MIN_PX) {
      const w = d * 4 > span || d * this.w / span < MIN_PX ? Math.max(d * 4, 1000) : span;
      const c = (p.start(i) + p.stop(i)) / 2;
      this.setWindow(c - w / 2, c + w / 2);
    }
    const r = this.rows.find((row) => row.type === 'lane' && row.lane === p.laneOf(i));
    if (r) {
      const y = r.y + p.rowOf(i) * ROW_H, visible = this.h - AXIS_H;
      if (y < this.scroll || y > this.scroll + visible - ROW_H) this.setScroll(y - visible / 3);
    }
    this.flash = i;
    this.draw();
  }
}
