// The findings above the timeline (report_findings.hpp): one row per
// finding, folded details, a click shows it on the timeline and outlines its
// items; an item's popup lists the findings it belongs to.

const SEVERITY_ORDER = {high: 0, medium: 1, low: 2, info: 3};

// A fraction as a percentage with the digits that matter: "37%", "4.2%".
function formatShare(f) {
  const pct = 100 * f;
  return pct >= 10 || pct === 0 ? `${pct.toFixed(0)}%` : `${pct.toFixed(1)}%`;
}

// "119 ms (85% of the program's time)", "8.0 MiB", both, or '' (critical_path has none).
function findingCost(f) {
  const parts = [];
  if (f.cost_ns > 0) parts.push(`${formatNs(f.cost_ns)} (${formatShare(f.cost_share)} of the program's time)`);
  if (f.bytes > 0) parts.push(formatBytes(f.bytes));
  return parts.join(', ');
}

class FindingsPanel {
  constructor(t, panels) {
    this.t = t; this.p = t.p; this.panels = panels;
    const data = this.p.findings || {findings: [], not_checked: []};
    this.list = data.findings || [];
    this.skipped = data.not_checked || [];
    this.note = data.note || '';  // what the shares are of, when the runtime took much of the trace
    this.emptyRun = data.empty_run === true;
    // What belongs() needs, as sets.
    for (const f of this.list) {
      f.itemSet = new Set(f.items.map((x) => x.item));
      f.laneSet = new Set(f.lanes.map((l) => l.lane));
      f.kindSet = new Set(f.item_kinds || []);
      f.provSet = new Set(f.provenances || []);
    }
    this.selected = -1;
    this.box = document.getElementById('findings');
    this.render();
    document.getElementById('findings-toggle').onclick = () => this.fold();
    document.getElementById('findings-clear').onclick = () => this.clear();
  }

  render() {
    const rows = document.getElementById('findings-list'), count = document.getElementById('findings-count');
    rows.replaceChildren();
    if (this.emptyRun) {
      count.textContent = this.note;  // nothing timed: no rule could look at the run
      rows.hidden = true;
    } else if (!this.list.length) {
      count.textContent = 'none: no rule saw a pattern that costs this run.';
      rows.hidden = true;
    } else {
      const bySeverity = {};
      for (const f of this.list) bySeverity[f.severity] = (bySeverity[f.severity] || 0) + 1;
      const tally = Object.keys(SEVERITY_ORDER).filter((s) => bySeverity[s]).map((s) => `${bySeverity[s]} ${s}`);
      count.textContent = `${this.list.length} (${tally.join(', ')}); click one to show it on the timeline` +
          (this.note ? `. ${this.note}` : '');
      this.list.forEach((f, k) => rows.append(this.row(f, k)));
    }
    const skipped = document.getElementById('findings-skipped');
    skipped.replaceChildren();
    if (this.skipped.length) {
      skipped.textContent = 'Not checked: ' + this.skipped.map((s) => `${s.rule} (${s.reason})`).join('; ');
    }
    skipped.hidden = this.skipped.length === 0;
    this.box.hidden = false;
  }

  row(f, k) {
    const wrap = el('div', undefined, 'finding'), line = el('div', undefined, 'finding-row');
    wrap.dataset.index = k;
    const fold = el('button', '▸', 'finding-fold');
    fold.title = 'Details';
    fold.onclick = (e) => { e.stopPropagation(); this.toggleDetails(k); };
    // The top line by its file's name; the path is in the tooltip.
    const top = f.lines.length ? f.lines[0].where : '';
    line.append(fold, el('span', f.severity, `badge sev-${f.severity}`), el('span', f.title, 'finding-title'),
                el('span', findingCost(f), 'finding-cost'), el('span', f.where, 'finding-where'),
                el('span', top.replace(/^.*\//, ''), 'finding-line'));
    line.title = `${f.summary}${top ? '\n' + top : ''}`;
    line.onclick = () => this.select(k);
    wrap.append(line);
    return wrap;
  }

  details(f) {
    const d = el('div', undefined, 'finding-details');
    d.append(el('p', f.summary));
    const cost = findingCost(f);
    if (cost) d.append(el('p', `Cost: ${cost}: ${f.cost_basis}.`, 'finding-basis'));
    if (f.lines.length) {
      const table = el('table', undefined, 'finding-lines');
      for (const l of f.lines) {
        const tr = el('tr');
        const amount = [l.cost_ns > 0 ? formatNs(l.cost_ns) : '', l.bytes > 0 ? formatBytes(l.bytes) : '']
          .filter((s) => s).join(', ');
        tr.append(el('td', l.where), el('td', `${l.items.toLocaleString('en-US')} item${l.items === 1 ? '' : 's'}`),
                  el('td', amount), el('td', l.note));
        table.append(tr);
      }
      d.append(el('b', 'Lines'), table);
    }
    if (f.evidence.length) {
      d.append(el('b', 'Evidence'), el('div', f.evidence.map((m) => `${m.label} ${m.text}`).join(' · '), 'finding-evidence'));
    }
    if (f.items.length) {
      const list = el('ul', undefined, 'finding-items');
      for (const x of f.items) {
        const li = el('li');
        li.append(this.panels.link(x.item, x.what),
                  ` at ${formatNs(x.start_ns - this.p.run.start)}, ${formatNs(x.stop_ns - x.start_ns)}`);
        list.append(li);
      }
      d.append(el('b', 'For example'), list);
    }
    d.append(el('b', 'Fix'), el('p', f.fix));
    return d;
  }

  toggleDetails(k) {
    const wrap = this.box.querySelector(`.finding[data-index="${k}"]`);
    const open = wrap.querySelector('.finding-details');
    if (open) open.remove(); else wrap.append(this.details(this.list[k]));
    wrap.querySelector('.finding-fold').textContent = open ? '▸' : '▾';
    this.box.classList.toggle('reading', !!this.box.querySelector('.finding-details'));
  }

  // Shows finding k: its window, its lanes (and those of its items) unfolded
  // and in view, its items outlined.
  select(k) {
    const f = this.list[k], p = this.p;
    this.selected = k;
    for (const r of this.box.querySelectorAll('.finding')) r.classList.toggle('selected', Number(r.dataset.index) === k);
    const lanes = [...new Set([...f.lanes.map((l) => l.lane), ...f.items.map((x) => p.laneOf(x.item))])];
    this.t.marked = f.items.map((x) => ({item: x.item, start: x.start_ns, stop: x.stop_ns}))
      .sort((a, b) => a.item - b.item);
    this.t.focus(f.start_ns, f.stop_ns, lanes);
    document.getElementById('findings-clear').hidden = false;
  }
  clear() {
    this.selected = -1; this.t.marked = [];
    for (const r of this.box.querySelectorAll('.finding.selected')) r.classList.remove('selected');
    document.getElementById('findings-clear').hidden = true;
    this.t.draw();
  }
  fold() {
    const folded = this.box.classList.toggle('folded');
    document.getElementById('findings-toggle').textContent = folded ? '▸' : '▾';
    this.t.draw();
  }

  // analysis::belongs: a representative item, or an item of the finding's
  // kinds on its lanes inside its window from one of its lines.
  belongs(f, i) {
    const p = this.p;
    if (f.itemSet.has(i)) return true;
    if (!f.kindSet.has(p.kind(i))) return false;
    if (p.stop(i) < f.start_ns || p.start(i) > f.stop_ns) return false;
    if (f.provSet.size && !f.provSet.has(p.provenanceId(i))) return false;
    return f.laneSet.has(p.laneOf(i));
  }
  of(i) { return this.list.map((f, k) => (this.belongs(f, i) ? k : -1)).filter((k) => k >= 0); }

  // The popup's list of the findings item i belongs to.
  appendTo(pop, i) {
    const ks = this.of(i);
    if (!ks.length) return;
    const list = el('ul', undefined, 'item-findings');
    for (const k of ks) {
      const li = el('li'), a = el('a', this.list[k].title);
      a.dataset.finding = k;
      a.onclick = () => this.select(k);
      li.append(el('span', this.list[k].severity, `badge sev-${this.list[k].severity}`), ' ', a);
      list.append(li);
    }
    pop.append(el('b', `Findings (${ks.length})`), list);
  }
}
