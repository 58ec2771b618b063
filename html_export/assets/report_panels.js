// Everything around the timeline: the header, warnings, tooltip, details
// popup with the critical path, search, mouse and keys. Strings from the
// trace only ever go into the page as text.

// Steps of an item's critical path the popup walks back at most.
const CRITICAL_PATH_STEPS = 1000;

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function showHeader(p) {
  const run = p.run;
  const args = (run.args || []).join(' ');
  const config = run.config && typeof run.config === 'object'
      ? Object.entries(run.config).filter(([, v]) => typeof v !== 'object')
          .map(([k, v]) => `${k}=${v}`).join(' ') : '';
  const head = document.getElementById('run');
  head.textContent =
      `${run.program || '(unknown program)'}${args ? ' ' + args : ''} · ` +
      `${run.ranks.length} of ${run.expected_ranks} rank(s) · ${formatNs(run.stop - run.start)} · ` +
      `${run.records.toLocaleString()} records${config ? ' · ' + config : ''}`;
  // One line; all of it, with the run's exact length, in the title.
  head.title = `${head.textContent}\nthe run took ${exactNs(run.stop - run.start)}`;
  document.title = `Legato profile: ${run.program || 'run'}`;
  const warnings = [...run.warnings];
  for (const r of run.ranks) if (!r.clean) warnings.push(`${r.file}: incomplete trace`);
  const w = document.getElementById('warnings');
  for (const text of new Set(warnings)) w.append(el('div', `⚠ ${text}`));
  w.hidden = w.childElementCount === 0;
}

// The first line of an error's message, for banners and tooltips.
function errorSummary(p, e) {
  const first = p.strings[e.text].split('\n')[0];
  return `${ERROR_TAGS[e.kind] || 'error'} on node ${e.rank} at ${formatNs(e.time - p.run.start)}: ${first}`;
}

class Panels {
  constructor(t) {
    this.t = t; this.p = t.p;
    this.tooltip = document.getElementById('tooltip');
    this.popup = document.getElementById('popup');
    this.hitIndex = -1;
    this.bindMouse(); this.bindKeys(); this.bindSearch(); this.listErrors();
    document.getElementById('reset').onclick = () => this.reset();
    document.getElementById('theme-button').onclick = () => { setTheme(!THEME.dark); this.t.draw(); };
    document.getElementById('undo').onclick = () => this.undoZoom();
    document.getElementById('help-button').onclick = () => this.toggleHelp();
  }

  reset() { this.t.setWindow(this.p.run.start, Math.max(this.p.run.stop, this.p.run.start + 1000)); }
  undoZoom() {
    const w = this.t.undo.pop();
    if (w) this.t.setWindow(w[0], w[1], false);
  }
  toggleHelp() { const h = document.getElementById('help'); h.hidden = !h.hidden; }

  bindMouse() {
    const t = this.t, c = t.canvas;
    let drag = null;
    c.addEventListener('wheel', (e) => {
      e.preventDefault();
      if (e.shiftKey) { t.setScroll(t.scroll + e.deltaY); return; }
      t.zoom(Math.pow(1.0015, e.deltaY), e.offsetX);
    }, {passive: false});
    document.getElementById('labels').addEventListener('wheel', (e) => {
      e.preventDefault(); t.setScroll(t.scroll + e.deltaY);
    }, {passive: false});
    // A drag selects a range of time and says how long it is; a right drag
    // pans; shift, ctrl or the ruler make a drag zoom to its range (as in
    // the viewer).
    c.addEventListener('contextmenu', (e) => e.preventDefault());
    c.addEventListener('mousedown', (e) => {
      const how = e.shiftKey || e.ctrlKey || e.offsetY < AXIS_H ? 'zoom' : e.button === 2 ? 'pan' : 'select';
      drag = {x: e.offsetX, y: e.offsetY, how, moved: false};
    });
    window.addEventListener('mousemove', (e) => {
      const r = c.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
      this.mouseX = x;
      if (drag) {
        const dx = x - drag.x;
        if (Math.abs(dx) > 2 || Math.abs(y - drag.y) > 2) drag.moved = true;
        if (drag.how !== 'pan') { t.selecting = [drag.x, x]; t.draw(); }
        else if (drag.moved) { t.pan(-dx); t.setScroll(t.scroll - (y - drag.y)); drag.x = x; drag.y = y; }
        return;
      }
      this.hover(x, y, e.clientX, e.clientY);
    });
    window.addEventListener('mouseup', (e) => {
      if (!drag) return;
      const r = c.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
      if (drag.how !== 'pan' && drag.moved && Math.abs(x - drag.x) > 3) {
        const a = t.time(Math.min(x, drag.x)), b = t.time(Math.max(x, drag.x));
        if (drag.how === 'zoom') t.setWindow(a, b); else this.setRange([a, b]);
      } else if (!drag.moved && e.target === c) {
        this.setRange(null);  // a click ends a selection
        const hit = t.pick(x, y);
        if (hit && hit.box) this.open(hit.box, x);
        if (hit && hit.error) this.openError(hit.error);
      }
      t.selecting = null; drag = null; t.draw();
    });
    c.addEventListener('mouseleave', () => { this.tooltip.hidden = true; });
    window.addEventListener('resize', () => t.draw());
    // The findings panel folding or unfolding resizes the view.
    new ResizeObserver(() => t.draw()).observe(t.view);
  }

  // Each error gets a line in the banner that opens its whole message.
  listErrors() {
    const w = document.getElementById('warnings');
    for (const e of this.p.errors) {
      const line = el('div', '✖ The run ended with ', 'error');
      const a = el('a', errorSummary(this.p, e));
      a.addEventListener('click', () => this.openError(e));
      line.append(a);
      w.prepend(line);
    }
    w.hidden = w.childElementCount === 0;
  }

  openError(e) {
    const p = this.p, pop = this.popup;
    pop.replaceChildren();
    const close = el('button', '×', 'close');
    close.onclick = () => { pop.hidden = true; };
    pop.append(close, el('h3', `${ERROR_TAGS[e.kind] || 'error'} on node ${e.rank}`));
    const table = el('table');
    const row = (k, v) => { const tr = el('tr'); tr.append(el('td', k), el('td', v)); table.append(tr); };
    row('time', formatNs(e.time - p.run.start));
    if (e.lane >= 0) row('lane', p.lanes[e.lane].name);
    if (e.op) row('operation', `${p.strings[e.op.name]} ${p.strings[e.op.provenance]}`.trim());
    pop.append(table, el('pre', p.strings[e.text], 'message'));
    pop.hidden = false;
    delete pop.dataset.item;
  }

  hover(x, y, cx, cy) {
    const hit = x >= 0 && y >= 0 && x < this.t.w && y < this.t.h ? this.t.pick(x, y) : null;
    if (!hit) { this.tooltip.hidden = true; return; }
    const p = this.p;
    let text;
    if (hit.lost) {
      const l = hit.lost, rel = (t) => formatNs(t - p.run.start);
      text = `records lost here, ${rel(l.from)} to ${rel(l.to)} on node ${l.rank}: ${l.why}` +
             (l.records ? ` (${l.records.toLocaleString('en-US')} records)` : '') +
             '\nwhat ran here is not known; this is not idle time';
    } else if (hit.error) {
      text = `${errorSummary(p, hit.error)}\n(click for the whole message)`;
    } else if (hit.avg) {
      const value = Number.isNaN(hit.value) ? 'unknown (the trace gives no size for these memories)'
        : `${(100 * hit.value).toFixed(1)}%`;
      text = `${hit.avg.text.replace(/^[▸▾] /, '')}: ${value}`;
      if (hit.avg.lanes.some((l) => p.isMemory(p.lanes[l].kind) &&
                                   !p.lanes[l].capacity_given && p.lanes[l].capacity > 0)) {
        text += '\n(of the bytes of all their instances: the trace gives no capacity)';
      }
    } else if (hit.box.overview) {
      // What ran around the mouse: 11 columns of the box.
      const o = this.t.overviewAt(hit.box, x, 5), total = o.keys.reduce((sum, [, w]) => sum + w, 0);
      text = `about ${Math.round(o.items).toLocaleString('en-US')} items folded, ${formatNs(o.busy)} busy in ` +
             `${formatNs(o.stop - o.start)}`;
      for (const [k, w] of o.keys.slice(0, 3)) {
        const [, kind, label] = p.leadKeys[k];
        text += `\n${Math.round(100 * w / total)}%  ${p.strings[label] || p.itemKinds[kind]} (${p.itemKinds[kind]})`;
      }
      text += `\n(click to zoom in${this.t.loading ? '; loading the detail' : ''})`;
    } else if (hit.box.count > 1) {
      const b = hit.box, busy = p.busyBetween(b.first, b.first + b.count);
      text = `${b.count.toLocaleString('en-US')} items folded, ${formatNs(busy)} busy in ` +
             `${formatNs(b.stop - p.start(b.first))}`;
      for (const s of p.leading(b.first, b.first + b.count, 3))
        text += `\n${Math.round(100 * s.share)}%  ${p.label(s.item)} (${p.kindName(s.item)})`;
      text += '\n(click to zoom in)';
    } else {
      const i = hit.box.first, prov = p.provenance(i);
      text = `${p.label(i)} (${p.kindName(i)})\n${formatNs(p.stop(i) - p.start(i))}` +
             `${prov ? '\n' + prov : ''}`;
    }
    this.tooltip.textContent = text;
    this.tooltip.hidden = false;
    this.tooltip.style.left = `${Math.min(cx + 14, window.innerWidth - 300)}px`;
    this.tooltip.style.top = `${cy + 14}px`;
  }

  link(i, text) {
    const a = el('a', text || `${this.p.label(i)} on ${this.p.lanes[this.p.laneOf(i)].name}`);
    a.dataset.item = i;
    a.addEventListener('click', () => this.follow(i));
    return a;
  }
  follow(i) { this.t.reveal(i); return this.openItem(i); }

  open(box, x) {
    if (box.overview) { const o = this.t.overviewAt(box, x, 16); this.t.setWindow(o.start, o.stop); return; }
    if (box.count === 1) { this.openItem(box.first); return; }
    this.t.setWindow(this.p.start(box.first), box.stop);
  }

  // The popup of item i, once what it shows is loaded (its chunk, its
  // operation's, its preconditions' and the critical path's).
  async openItem(i) {
    const p = this.p, pop = this.popup, rel = (t) => formatNs(t - p.run.start);
    this.opening = i;
    let op = null, parent = null, prev = -1, path = null;
    try {
      await p.ensure([i]);
      if (p.op(i) >= 0) {
        op = await p.operation(p.op(i));
        if (op.parent >= 0) parent = await p.operation(op.parent);
      }
      path = await p.criticalPath(i, CRITICAL_PATH_STEPS);
      // What the popup reads of the item itself, loaded again should the
      // walk back have pushed it out.
      await p.loadPreconditions(i);
      prev = await this.previousOnLane(i);
      // The popup names the item, its preconditions, the one before it and
      // the path's first steps: their operations loaded too.
      await p.loadOperations([i, prev, ...p.preconditions(i).map(([q]) => q), ...path.chain.slice(0, 200)]);
      await p.loadPreconditions(i);
    } catch (e) {
      pop.replaceChildren(el('p', e.message)); pop.hidden = false;
      return;
    }
    if (this.opening !== i) return;  // another item was opened meanwhile
    pop.replaceChildren();
    const close = el('button', '×', 'close');
    close.onclick = () => { pop.hidden = true; };
    pop.append(close, el('h3', p.label(i)));
    const table = el('table');
    const row = (k, v, exact) => {
      const tr = el('tr'); tr.append(el('td', k));
      const td = el('td'); if (v instanceof Node) td.append(v); else td.textContent = v;
      if (exact !== undefined) td.title = exactNs(exact);
      tr.append(td); table.append(tr);
    };
    const time = (k, t) => row(k, rel(t), t - p.run.start), span = (k, ns) => row(k, formatNs(ns), ns);
    const lane = p.lanes[p.laneOf(i)], bytes = p.bytes(i), k = p.kind(i);
    row('kind', p.kindName(i));
    const signature = p.kernelSignatures.get(p.name(i));
    if (signature) row('signature', p.strings[signature]);
    row('lane', `${lane.name} (node ${lane.rank})`);
    if (op) {
      row('operation', p.strings[op.name]);
      row('op id', String(op.uid));
      if (p.strings[op.provenance]) row('provenance', p.strings[op.provenance]);
      if (parent) row('created by', `${p.strings[parent.name]} ${p.strings[parent.provenance]}`.trim());
    }
    if (k === p.KIND_INSTANCE && p.provenanceId(i)) row('array allocated at', p.strings[p.provenanceId(i)]);
    if (bytes) row('bytes', `${bytes.toLocaleString()} (${formatBytes(bytes)})`);
    const dur = p.stop(i) - p.start(i);
    if ((k === p.KIND_COPY || k === p.KIND_FILL) && bytes && dur > 0)
      row('bandwidth', `${formatBytes(bytes * 1e9 / dur)}/s`);
    time('created', p.create(i));
    time('ready', p.ready(i));
    time('started', p.start(i));
    time('stopped', p.stop(i));
    span('duration', dur);
    span('waiting for preconditions', p.ready(i) - p.create(i));
    span('waiting for a processor', p.start(i) - p.ready(i));
    // The runtime work (meta-tasks) done for its operation, shared by the
    // operation's other items (ItemDetails' operation_runtime).
    if (op && op.runtime > 0 && k !== p.KIND_META && k !== p.KIND_INSTANCE) {
      row('runtime work for its operation', `${formatNs(op.runtime)}` +
          (op.items > 1 ? ` (${formatNs(op.runtime / op.items)} per item, ${op.items} items)` : ''),
          op.runtime);
    }
    let blocked = 0, resuming = 0;
    for (const [a, b, s] of p.states(i)) { if (s === 2) blocked += b - a; if (s === 1) resuming += b - a; }
    span('running', dur - blocked - resuming);
    if (blocked || resuming) { span('blocked', blocked); span('ready to resume', resuming); }
    if (prev >= 0) row('before it on the lane', this.link(prev));
    pop.append(table);
    if (this.findings) this.findings.appendTo(pop, i);
    this.appendPreconditions(i, path);
    this.appendWaitNotes(i);
    pop.hidden = false;
    pop.dataset.item = i;
  }

  // Waits that carry a note (a Legion log's backtrace), each folded.
  appendWaitNotes(i) {
    const p = this.p, noted = p.waitsOf(i).filter((w) => w[3]).slice(0, 20);
    if (!noted.length) return;
    const list = el('ul', undefined, 'wait-notes');
    for (const [s, ready, , note] of noted) {
      const d = el('details'), summary = el('summary');
      summary.textContent = `at ${formatNs(s - p.run.start)}, blocked ${formatNs(ready - s)}`;
      d.append(summary, el('pre', p.strings[note]));
      const li = el('li'); li.append(d); list.append(li);
    }
    this.popup.append(el('b', `Where it waited (${noted.length})`), list);
  }

  // The item that ended last before i started on i's lane (any row), once
  // loaded; -1 for none.
  async previousOnLane(i) {
    const p = this.p, lane = p.lanes[p.laneOf(i)], t = p.start(i);
    let best = -1, bestStop = 0;
    for (const [b, e] of lane.rowRanges) {
      if (e <= b) continue;
      const [a, z] = p.rowWindow(b, e, t, t + 1);
      const from = Math.max(b, a - 1);
      await p.request(from, Math.min(e, z + 1));
      const k = p.firstEndingAfter(from, Math.min(e, z + 1), t) - 1;
      if (k >= b && k !== i && (best < 0 || p.stop(k) > bestStop)) { best = k; bestStop = p.stop(k); }
    }
    return best;
  }

  // Why item i started when it did: its preconditions, the one that
  // finished last, and the chain of those back (`path`, loaded).
  appendPreconditions(i, path) {
    const p = this.p, pop = this.popup, pre = p.preconditions(i), n = pre.length;
    if (n === 0) { pop.append(el('p', 'No recorded preconditions: it could start as soon as it was issued.')); return; }
    const last = p.lastPrecondition(i), lastKind = pre.find(([q]) => q === last)[1];
    const why = el('p', 'Why it did not start earlier: it waited for ');
    why.append(this.link(last), ` (${p.edgeKinds[lastKind]}, finished at ${formatNs(p.stop(last) - p.run.start)}).`);
    why.className = 'why';
    pop.append(why);
    const list = el('ol');
    for (const [q, kind] of pre.slice(0, 50)) {
      const li = el('li');
      li.append(this.link(q), ` ${p.edgeKinds[kind]}, finished ${formatNs(p.stop(q) - p.run.start)}`);
      list.append(li);
    }
    pop.append(el('b', `Preconditions (${n})`), list);
    const chain = path.chain, back = formatNs(path.from - p.run.start);
    const head = el('div');
    head.append(el('b', path.cut ? `Critical path (its last ${chain.length.toLocaleString('en-US')} items, back to ${back}; it goes on) `
                                 : `Critical path (${chain.length} items back to ${back}) `));
    const show = el('button', this.t.chain.has(i) ? 'Hide on timeline' : 'Highlight on timeline', 'chain');
    show.onclick = () => {
      this.t.chain = this.t.chain.has(i) ? new Set() : new Set(chain);
      show.textContent = this.t.chain.size ? 'Hide on timeline' : 'Highlight on timeline';
      this.t.draw();
    };
    head.append(show);
    const steps = el('ol', undefined, 'path');
    chain.slice(1, 200).forEach((c, k) => {
      const li = el('li');
      li.append(this.link(c), ` ended ${formatNs(path.stops[k + 1] - p.run.start)}`);
      steps.append(li);
    });
    pop.append(head, steps);
  }

  // Opens the search's next hit (loading its chunk): hits in item order.
  // Enter / shift+Enter: the next or previous hit by start time. Ordering
  // them needs the detail parts that hold them: up to TIME_ORDER_PARTS of
  // them are loaded; a search spread wider steps in lane order and says so.
  async nextHit(direction = 1) {
    const s = this.t.search, out = document.getElementById('hits');
    if (!s || !s.total) return;
    if (s.chunks.length <= TIME_ORDER_PARTS) {
      // Each part's starts are read as it arrives (the store may let a
      // part go again once others come).
      s.ordering = s.ordering || (async () => {
        const p = this.p;
        const parts = await Promise.all(s.chunks.map(async (k) =>
          Array.from(await p.loadHits(s, k), (i) => [p.start(i), i])));
        const all = parts.flat().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        return Int32Array.from(all, ([, i]) => i);
      })();
      s.byTime = await s.ordering;
    }
    if (this.t.search !== s) return;
    const n = s.total;
    this.hitIndex = this.hitIndex < 0 ? (direction > 0 ? 0 : n - 1) : (this.hitIndex + direction + n) % n;
    let item;
    if (s.byTime) {
      item = s.byTime[this.hitIndex];
    } else {
      let k = this.hitIndex, c = 0;
      while (k >= s.counts[c]) k -= s.counts[c++];
      item = (await this.p.loadHits(s, s.chunks[c]))[k];
      if (this.t.search !== s) return;
    }
    out.textContent = `${(this.hitIndex + 1).toLocaleString()} of ${n.toLocaleString()}` +
                      (s.byTime ? '' : ' (in lane order: too many parts to order by time)');
    await this.follow(item);
  }

  bindSearch() {
    const box = document.getElementById('search'), out = document.getElementById('hits');
    let timer = 0;
    box.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        this.t.search = box.value.trim() ? this.p.search(box.value.trim()) : null;
        this.hitIndex = -1;
        out.textContent = this.t.search ? `${this.t.search.total.toLocaleString()} hits` : '';
        this.t.draw();
      }, 150);
    });
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') this.nextHit(e.shiftKey ? -1 : 1);
      if (e.key === 'Escape') box.blur();
    });
  }

  // The selected range: drawn, and said beside the status line.
  setRange(r) {
    this.t.range = r;
    const rel = (ns) => formatNs(ns - this.p.run.start);
    document.getElementById('selection').textContent =
        r ? `selected ${formatNs(r[1] - r[0])} (${rel(r[0])} to ${rel(r[1])})` : '';
    this.t.draw();
  }

  // The item whose popup is open, or -1.
  openedItem() {
    return this.popup.hidden || this.popup.dataset.item === undefined ? -1 : Number(this.popup.dataset.item);
  }

  // f: the selected range fills the view, else the item whose popup is open.
  focus() {
    const t = this.t, p = this.p, i = this.openedItem();
    if (t.range) { t.setWindow(t.range[0], t.range[1]); return; }
    if (i < 0) return;
    const pad = Math.max((p.stop(i) - p.start(i)) / 2, 50);
    t.setWindow(p.start(i) - pad, p.stop(i) + pad);
  }

  // m: marks the selected range, else the open item's span (again: unmarks).
  markSelection() {
    const t = this.t, p = this.p, i = this.openedItem();
    const span = t.range ? t.range : i >= 0 ? [p.start(i), p.stop(i)] : null;
    const same = span && t.mark && t.mark[0] === span[0] && t.mark[1] === span[1];
    t.mark = !span || (same && !t.range) ? null : [span[0], span[1]];
    t.draw();
  }

  bindKeys() {
    window.addEventListener('keydown', (e) => {
      if (e.target instanceof HTMLInputElement) return;
      const t = this.t, mid = t.w / 2;
      // W/S zoom around the mouse when it is over the timeline.
      const at = this.mouseX >= 0 && this.mouseX <= t.w ? this.mouseX : mid;
      const actions = {
        '+': () => t.zoom(0.7, mid), '=': () => t.zoom(0.7, mid), '-': () => t.zoom(1 / 0.7, mid),
        'w': () => t.zoom(0.8, at), 's': () => t.zoom(1.25, at),
        'a': () => t.pan(-t.w / 10), 'd': () => t.pan(t.w / 10),
        'f': () => this.focus(), 'm': () => this.markSelection(),
        'ArrowLeft': () => t.pan(-t.w / 5), 'ArrowRight': () => t.pan(t.w / 5),
        'ArrowUp': () => t.setScroll(t.scroll - 60), 'ArrowDown': () => t.setScroll(t.scroll + 60),
        'PageUp': () => t.setScroll(t.scroll - t.h / 2), 'PageDown': () => t.setScroll(t.scroll + t.h / 2),
        '0': () => this.reset(), 'Home': () => this.reset(), 'Backspace': () => this.undoZoom(),
        '/': () => document.getElementById('search').focus(), '?': () => this.toggleHelp(),
        'Escape': () => {
          if (t.range) { this.setRange(null); return; }
          this.popup.hidden = true; document.getElementById('help').hidden = true;
        },
      };
      const f = actions[e.key];
      if (f) { e.preventDefault(); f(); }
    });
  }
}

// The most detail parts a search loads to step through its hits by time.
const TIME_ORDER_PARTS = 64;

// The status line: what is loading, or what could not be read.
function showLoading(p, t) {
  const status = document.getElementById('status');
  const waiting = p.store.waiting.size;
  if (p.store.failed) status.textContent = `Some detail could not be shown: ${p.store.failed.message}`;
  else status.textContent = waiting ? `Loading detail (${waiting} part${waiting === 1 ? '' : 's'})…` : '';
  status.classList.toggle('error', !!p.store.failed);
}

(async function main() {
  const status = document.getElementById('status');
  try {
    setTheme(window.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches);
    const p = new Profile(await inflateBase64(document.getElementById('legato-data').textContent));
    showHeader(p);
    const t = new Timeline(p);
    const panels = new Panels(t);
    const findings = new FindingsPanel(t, panels);
    panels.findings = findings;
    status.textContent = '';
    const link = new ReportLink(t, panels);
    t.onPaint = () => link.changed();
    t.paint();
    link.restore();
    showLoading(p, t);
    p.store.listeners.push(() => { t.draw(); showLoading(p, t); });
    // For scripted use (the browser tests and the benchmarks): the model,
    // the controls, milliseconds from navigation to the first timeline
    // paint, and settled(): resolves once nothing is loading and the
    // timeline has been drawn with what arrived.
    const settled = async () => {
      for (;;) {
        await p.store.idle();
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        if (!p.store.waiting.size) return true;
      }
    };
    window.legatoReport = {profile: p, timeline: t, panels, findings, link, settled,
                           firstPaintMs: performance.now()};
    document.body.dataset.state = 'ready';
  } catch (e) {
    status.textContent = `This report could not be read: ${e.message}`;
    document.body.dataset.state = 'error';
  }
})();
