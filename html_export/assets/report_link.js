// The report's state in its URL, so a reload keeps the view and a link
// shows a colleague the same window, item and search:
// index.html#range=1.5ms:3ms&item=1234&q=BinaryOpTask (and theme=dark or
// light when it is not the system's). Times are from the run's start,
// written as `legate_prof view --range` takes them.

// ns as the shortest text that keeps every nanosecond: "1.5ms", "250us",
// "2.000001s", "17ns".
function linkTime(ns) {
  const n = Math.round(ns);
  const sign = n < 0 ? '-' : '', a = Math.abs(n);
  for (const [unit, size, digits] of [['s', 1e9, 9], ['ms', 1e6, 6], ['us', 1e3, 3]]) {
    if (a >= size) return sign + (a / size).toFixed(digits).replace(/\.?0+$/, '') + unit;
  }
  return `${n}ns`;
}

// "1.5ms" -> 1500000; a bare number is nanoseconds; null when not a time.
function parseLinkTime(text) {
  const m = /^(-?\d+(?:\.\d+)?)(ns|us|ms|s)?$/.exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * {ns: 1, us: 1e3, ms: 1e6, s: 1e9}[m[2] || 'ns'];
}

// Reads the link when the page opens and writes it as the user moves.
class ReportLink {
  constructor(t, panels) {
    this.t = t; this.panels = panels; this.p = t.p;
    this.written = location.hash;
    this.timer = 0;
  }

  // What the URL says: {range: [a, b] from the run's start, item, q}, or a
  // reason it could not be read.
  static parse(hash) {
    const out = {}, params = new URLSearchParams(hash.replace(/^#/, ''));
    if (params.has('range')) {
      const [a, b] = (params.get('range') || '').split(':').map(parseLinkTime);
      if (a === null || b === null || a === undefined || b === undefined || !(b > a))
        out.error = `the link's range "${params.get('range')}" is not START:END (e.g. 1.5ms:3ms)`;
      else out.range = [a, b];
    }
    if (params.has('item')) {
      const i = Number(params.get('item'));
      if (Number.isInteger(i) && i >= 0) out.item = i;
      else out.error = `the link's item "${params.get('item')}" is not an item number`;
    }
    if (params.get('q')) out.q = params.get('q');
    if (['dark', 'light'].includes(params.get('theme'))) out.theme = params.get('theme');
    return out;
  }

  // Applies the URL's state (once, when the page opens); says what it could not.
  restore() {
    const s = ReportLink.parse(location.hash), start = this.p.run.start;
    if (s.theme) { setTheme(s.theme === 'dark'); this.t.draw(); }
    if (s.range) this.t.setWindow(start + s.range[0], start + s.range[1]);
    if (s.q) {
      const box = document.getElementById('search');
      box.value = s.q;
      box.dispatchEvent(new Event('input'));
    }
    if (s.item !== undefined) {
      // With a range the view stays as linked; without, it goes to the item.
      if (s.item < this.p.count) (s.range ? this.panels.openItem(s.item) : this.panels.follow(s.item));
      else s.error = `the link's item ${s.item} is not in this report (it has ${this.p.count})`;
    }
    if (s.error) {
      const w = document.getElementById('warnings'), line = document.createElement('div');
      line.textContent = `Link not followed in full: ${s.error}`;
      line.className = 'link-error';
      w.append(line);
      w.hidden = false;
    }
  }

  // The URL of the current state.
  current() {
    const start = this.p.run.start, params = new URLSearchParams();
    params.set('range', `${linkTime(this.t.t0 - start)}:${linkTime(this.t.t1 - start)}`);
    const i = this.panels.openedItem();
    if (i >= 0) params.set('item', String(i));
    const q = document.getElementById('search').value.trim();
    if (q) params.set('q', q);
    // The theme only when it is not the system's.
    const system = window.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches;
    if (THEME.dark !== system) params.set('theme', THEME.dark ? 'dark' : 'light');
    return '#' + params.toString().replace(/%3A/g, ':');
  }

  // Called after every paint: the URL follows, at most every 250 ms.
  changed() {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = 0;
      const hash = this.current();
      if (hash !== this.written) {
        history.replaceState(null, '', hash);
        this.written = hash;
      }
    }, 250);
  }
}
