// The profile as the page sees it: the index (what every row holds per fold
// block, each avg line's grid) always, items where their chunks are loaded,
// and the questions the timeline and the panels ask of them.

// Weights per name and kind, as analysis/fold_summary.cpp's Tally: the
// first item seen of each stands for it; the heaviest wins, the first seen
// among equals.
class Tally {
  constructor() { this.entries = []; this.byKey = new Map(); this.total = 0; }
  add(key, weight, item) {
    let e = this.byKey.get(key);
    if (!e) { e = {weight: 0, item}; this.byKey.set(key, e); this.entries.push(e); }
    e.weight += weight; this.total += weight;
  }
  shares(most) {
    const sorted = [...this.entries].sort((a, b) => b.weight - a.weight);  // stable
    return sorted.slice(0, most).map((e) => ({item: e.item, share: e.weight / this.total}));
  }
}

// Detail chunks an avg line loads at most to draw itself from items where
// its grid is too coarse (the line of many lanes, zoomed in, keeps to its grid).
const AVG_CHUNKS_LOADED = 16;

// Items in a row's window that the page loads to draw them one by one, per
// pixel column of the view: past that, the fold blocks draw it as well.
const ITEMS_PER_COLUMN_LOADED = 32;

class Profile {
  constructor(bytes) {
    const {header: h, columns} = readPart(bytes, 7);
    Object.assign(this, {run: h.run, strings: h.strings, kinds: h.kinds, itemKinds: h.item_kinds,
                         copyKinds: h.copy_kinds, edgeKinds: h.edge_kinds, nodes: h.nodes, lanes: h.lanes,
                         errors: h.errors, lost: h.lost || [], findings: h.findings || null, fold: h.fold,
                         labels: h.labels,
                         leadKeys: h.lead_keys, memoryKinds: new Set(h.memory_kinds),
                         palette: new Map(h.palette.map(([key, ...colors]) => [key, colors])),
                         kernelSignatures: new Map(h.kernel_signatures)});  // short name -> signature
    const ids = h.item_kind_ids;
    Object.assign(this, {KIND_META: ids.meta, KIND_COPY: ids.copy, KIND_FILL: ids.fill, KIND_INSTANCE: ids.instance,
                         MAPPED_BY: h.mapped_by_edge});
    const chunks = h.chunks;
    this.chunkItems = chunks.items; this.chunkOps = chunks.ops; this.chunkCount = chunks.count;
    this.frame = 0;  // the timeline's paint count: how recently a chunk was drawn
    const [blockStart, blockBusy, blockLead, groupLead, rowSpan, util, chunkLabels] = columns;
    // Lanes and rows: [begin, end, first start, last stop, busy time before
    // its first fold block, busy time] per row.
    let count = 0;
    const rowBegins = [];
    for (const lane of this.lanes) {
      lane.begin = count;
      lane.rowRanges = lane.rows.map((r) => {
        const first = this.run.start + rowSpan.varint(), last = first + rowSpan.varint();
        const range = [count, count + r, first, last, rowSpan.varint(), rowSpan.varint()];
        rowBegins.push(count);
        count += r;
        return range;
      });
      lane.end = count;
    }
    this.count = count;
    this.rowBegins = Uint32Array.from(rowBegins);
    // The fold blocks: the start of each one's first item, busy time before
    // each one, the keys of what led it and its group.
    const {block, group} = this.fold, nb = Math.ceil(count / block), ng = Math.ceil(count / group);
    this.blockStart = new Float64Array(nb); this.blockPrefix = new Float64Array(nb + 1);
    this.blockLead = new Uint32Array(nb);
    let at = this.run.start;
    for (let b = 0; b < nb; ++b) {
      at += blockStart.svarint(); this.blockStart[b] = at;
      this.blockPrefix[b + 1] = this.blockPrefix[b] + blockBusy.varint();
      this.blockLead[b] = blockLead.varint();
    }
    this.groupLead = new Uint32Array(ng);
    for (let g = 0; g < ng; ++g) this.groupLead[g] = groupLead.varint();
    // Each avg line's grid, by "rank:kind" (rank -1: all nodes).
    const u = h.utilization;
    this.slices = u.slices; this.utilizationLines = new Map();
    for (const line of u.lines) {
      const values = new Float32Array(u.slices);
      for (let s = 0; s < u.slices; ++s) values[s] = util.varint() / 10000;
      this.utilizationLines.set(`${line.rank}:${line.kind}`, {values, known: line.known});
    }
    // What each chunk can be searched for: its labels and their item counts.
    this.chunkLabels = [];
    for (let c = 0; c < this.chunkCount; ++c) {
      const n = chunkLabels.varint(), labels = new Uint32Array(n), items = new Uint32Array(n);
      for (let k = 0, l = 0; k < n; ++k) { l += chunkLabels.varint(); labels[k] = l; items[k] = chunkLabels.varint(); }
      this.chunkLabels.push({labels, items});
    }
    this.store = new ChunkStore(this, chunks.dir);
  }

  // Row starts in items [a, b), ascending (where a chunk resets its gaps).
  rowStartsIn(a, b) {
    const lo = firstAtOrAfter(0, this.rowBegins.length, (r) => this.rowBegins[r] < a);
    const hi = firstAtOrAfter(lo, this.rowBegins.length, (r) => this.rowBegins[r] < b);
    return this.rowBegins.subarray(lo, hi);
  }

  // Loading: whether items [a, b) are all loaded; request(a, b) loads them.
  has(a, b) {
    for (let k = Math.floor(a / this.chunkItems); k * this.chunkItems < b; ++k) if (!this.store.items[k]) return false;
    return true;
  }
  request(a, b) {
    const loads = [];
    for (let k = Math.floor(a / this.chunkItems); k * this.chunkItems < b; ++k) loads.push(this.store.get('c', k));
    return Promise.all(loads);
  }
  // Loads the chunks holding the given items.
  ensure(items) {
    const ks = new Set(items.filter((i) => i >= 0).map((i) => Math.floor(i / this.chunkItems)));
    return Promise.all([...ks].map((k) => this.store.get('c', k)));
  }
  // Marks the chunks of items [a, b) drawn in this frame.
  touch(a, b) {
    for (let k = Math.floor(a / this.chunkItems); k * this.chunkItems < b; ++k) {
      const c = this.store.items[k];
      if (c) c.used = this.frame;
    }
  }
  // The operation's entry {name, provenance, parent, uid, runtime, items}.
  async operation(o) {
    const c = await this.store.get('o', Math.floor(o / this.chunkOps)), j = o - c.first;
    return {name: c.name[j], provenance: c.provenance[j], parent: c.parent[j], uid: c.uid[j],
            runtime: c.runtime[j], items: c.items[j]};
  }

  // An item's fields (its chunk must be loaded). c(i) is its chunk, loaded
  // or undefined.
  c(i) { return this.store.items[Math.floor(i / this.chunkItems)]; }
  start(i) { const c = this.c(i); return c.start[i - c.first]; }
  stop(i) { const c = this.c(i); return c.stop[i - c.first]; }
  ready(i) { const c = this.c(i); return c.ready[i - c.first]; }
  create(i) { const c = this.c(i); return c.create[i - c.first]; }
  kind(i) { const c = this.c(i); return c.kind[i - c.first]; }
  flags(i) { const c = this.c(i); return c.flags[i - c.first]; }
  op(i) { const c = this.c(i); return c.op[i - c.first]; }
  name(i) { const c = this.c(i); return c.name[i - c.first]; }
  // [name, operation name, operation provenance] (string ids, 0: none).
  // Where its operation's chunk is not loaded yet, the operation's part is
  // 0 and the chunk is asked for (the timeline redraws when it arrives).
  labelOf(i) {
    const c = this.c(i), j = i - c.first, o = c.op[j];
    const oc = o >= 0 ? this.opChunk(o) : null;
    if (!oc) {
      if (o >= 0) this.store.get('o', Math.floor(o / this.chunkOps)).catch(() => {});
      return [c.name[j], 0, 0];
    }
    oc.used = this.frame;
    return [c.name[j], oc.name[o - oc.first], oc.provenance[o - oc.first]];
  }
  // The loaded chunk of operation o, or undefined.
  opChunk(o) { return this.store.ops.get(Math.floor(o / this.chunkOps)); }
  // Loads the given items and their operations.
  async loadOperations(items) {
    await this.ensure(items);
    const ks = new Set();
    for (const i of items) if (i >= 0 && this.op(i) >= 0) ks.add(Math.floor(this.op(i) / this.chunkOps));
    await Promise.all([...ks].map((k) => this.store.get('o', k)));
  }
  // Loads the operations of a loaded chunk's items.
  chunkOperations(c) { return Promise.all(c.opChunks.map((k) => this.store.get('o', k))); }
  hasChunkOperations(c) { return c.opChunks.every((k) => this.store.ops.has(k)); }
  extra(i) { const c = this.c(i); return c.extra.get(i - c.first); }
  bytes(i) { const x = this.extra(i); return x ? x.bytes : 0; }
  allocated(i) { const x = this.extra(i); return x && x.allocated !== undefined ? x.allocated : this.start(i); }
  waitsOf(i) { const c = this.c(i); return c.waits.get(i - c.first) || []; }
  // Preconditions: [[item, edge kind], ...], the mapped-by edge last
  // (loadPreconditions(i) loads what this reads).
  preconditions(i) {
    const c = this.c(i), j = i - c.first, out = [];
    for (let e = c.preBegin[j]; e < c.preBegin[j + 1]; ++e) out.push([c.pre[e], c.preKind[e]]);
    const m = this.mappedBy(i);
    if (m >= 0) out.push([m, this.MAPPED_BY]);
    return out;
  }
  // The meta-task of its operation that finished last, if that was before
  // it started (Profile::mapped_by), -1 for none.
  mappedBy(i) {
    const o = this.op(i), k = this.kind(i);
    if (o < 0 || k === this.KIND_META || k === this.KIND_INSTANCE) return -1;
    const oc = this.opChunk(o);
    if (!oc) throw new Error(`the operation of item ${i} is not loaded`);
    const meta = oc.lastMeta[o - oc.first];
    return meta >= 0 && this.stop(meta) <= this.start(i) ? meta : -1;
  }
  // Loads item i, its operation, and every item it may wait for.
  async loadPreconditions(i) {
    await this.ensure([i]);
    const c = this.c(i), j = i - c.first, o = c.op[j], wanted = [];
    for (let e = c.preBegin[j]; e < c.preBegin[j + 1]; ++e) wanted.push(c.pre[e]);
    if (o >= 0) {
      const oc = await this.store.get('o', Math.floor(o / this.chunkOps));
      wanted.push(oc.lastMeta[o - oc.first]);
    }
    await this.ensure(wanted);
    await this.ensure([i]);
  }

  label(i) {
    const [name, opName] = this.labelOf(i);
    return this.strings[name] || this.strings[opName] || this.itemKinds[this.kind(i)];
  }
  // Its kind in words: a copy's more exactly ("reduction copy").
  kindName(i) { const c = this.c(i), j = i - c.first; return this.copyKinds[c.copyKind[j]] || this.itemKinds[c.kind[j]]; }
  provenance(i) { return this.strings[this.labelOf(i)[2]]; }
  // The string index of the line an item comes from: its operation's, an
  // instance's where its store was allocated (0: none), as the findings use.
  provenanceId(i) {
    if (this.kind(i) === this.KIND_INSTANCE) return this.extra(i).provenance;
    return this.labelOf(i)[2];
  }
  laneOf(i) {
    return firstAtOrAfter(0, this.lanes.length, (l) => this.lanes[l].end <= i);
  }
  rowOf(i) {
    const rows = this.lanes[this.laneOf(i)].rowRanges;
    for (let k = 0; k < rows.length; ++k) if (i < rows[k][1]) return k;
    return 0;
  }
  isMemory(kind) { return this.memoryKinds.has(kind); }
  capacity(lanes) {
    let c = 0;
    for (const l of lanes) c += this.isMemory(this.lanes[l].kind) ? this.lanes[l].capacity : 1;
    return c;  // 0: memories whose size the trace does not give
  }

  // The item's span cut into [start, stop, state] (0 running, 1 ready, 2
  // blocked); with a window, only the parts that overlap [from, to) (the
  // waits before it skipped by a binary search).
  states(i, from = -Infinity, to = Infinity) {
    const out = [], lo = this.start(i), hi = this.stop(i), waits = this.waitsOf(i);
    const clamp = (t) => Math.min(Math.max(t, lo), hi);
    const push = (a, b, s) => { a = clamp(a); b = clamp(b); if (b > a && b > from && a < to) out.push([a, b, s]); };
    const first = firstAtOrAfter(0, waits.length, (k) => waits[k][2] <= from);
    let at = first > 0 ? Math.max(lo, waits[first - 1][2]) : lo;
    for (let k = first; k < waits.length && at < to; ++k) {
      const [s, ready, end] = waits[k];
      const ws = Math.max(s, at), wr = Math.max(ready, ws), we = Math.max(end, wr);
      push(at, ws, 0); push(ws, wr, 2); push(wr, we, 1);
      at = Math.max(at, we);
    }
    push(at, hi, 0);
    return out;
  }

  // Time item i spent in `state` (1 ready, 2 blocked) within [lo, hi), in
  // two binary searches over its states' prefix sums (made once per item).
  timeIn(i, state, lo, hi) {
    const c = this.c(i), j = i - c.first;
    let index = c.stateSums.get(j);
    if (!index) {
      const parts = this.states(i), n = parts.length;
      index = {from: new Float64Array(n), to: new Float64Array(n), state: new Uint8Array(n),
               before: [null, new Float64Array(n + 1), new Float64Array(n + 1)]};
      parts.forEach(([a, b, st], k) => {
        index.from[k] = a; index.to[k] = b; index.state[k] = st;
        for (const x of [1, 2]) index.before[x][k + 1] = index.before[x][k] + (st === x ? b - a : 0);
      });
      c.stateSums.set(j, index);
    }
    const upTo = (t) => {  // time in `state` before t
      const k = firstAtOrAfter(0, index.from.length, (m) => index.from[m] < t) - 1;
      if (k < 0) return 0;
      const inside = index.state[k] === state ? Math.max(0, Math.min(t, index.to[k]) - index.from[k]) : 0;
      return index.before[state][k] + inside;
    };
    return hi > lo ? upTo(hi) - upTo(lo) : 0;
  }

  // The precondition that finished last (its chunk and theirs loaded).
  lastPrecondition(i) {
    let best = -1;
    for (const [q] of this.preconditions(i)) if (best < 0 || this.stop(q) > this.stop(best)) best = q;
    return best;
  }
  // Loads what lastPrecondition(i) reads; resolves to it.
  async lastPreconditionLoaded(i) {
    await this.loadPreconditions(i);
    return this.lastPrecondition(i);
  }
  // The chain of last preconditions from i back, at most `limit` long:
  // {chain, stops (each one's stop), from (the last one's start), cut (the
  // chain went on)}.
  async criticalPath(i, limit) {
    await this.ensure([i]);
    const chain = [i], stops = [this.stop(i)], seen = new Set(chain);
    let from = this.start(i);
    for (let next = await this.lastPreconditionLoaded(i); next >= 0 && !seen.has(next);
         next = await this.lastPreconditionLoaded(next)) {
      if (chain.length >= limit) return {chain, stops, from, cut: true};
      chain.push(next); stops.push(this.stop(next)); seen.add(next);
      from = this.start(next);
    }
    return {chain, stops, from, cut: false};
  }

  // Items [a, z) of row [b, e) that can touch [t0, t1), from the fold
  // blocks alone: a from the block before the first one starting at or
  // after t0 (the item running at t0 starts in it or later), z the first
  // block starting at or after t1.
  rowWindow(b, e, t0, t1) {
    const B = this.fold.block, k0 = Math.floor(b / B) + 1, k1 = Math.floor((e - 1) / B) + 1;
    const kA = firstAtOrAfter(k0, k1, (k) => this.blockStart[k] < t0);
    const kZ = firstAtOrAfter(kA, k1, (k) => this.blockStart[k] < t1);
    return [Math.max(b, (kA - 1) * B), Math.min(e, kZ * B)];
  }
  // First index in [b, e) whose stop is after t (stops are sorted within a
  // row; items [b, e) loaded).
  firstEndingAfter(b, e, t) {
    while (b < e) { const m = (b + e) >> 1; if (this.stop(m) <= t) b = m + 1; else e = m; }
    return b;
  }
  // Total duration of items [0, i): exact where i's chunk is loaded or i a
  // block's first item.
  busyBefore(i) {
    const B = this.fold.block, k = Math.floor(i / B);
    if (i % B === 0) return this.blockPrefix[k];
    const c = this.c(i), j = i - c.first;
    return this.blockPrefix[k] + c.busy[j] - c.busy[j - (i % B)];
  }
  busyBetween(a, b) { return this.busyBefore(b) - this.busyBefore(a); }

  // Adds each lane's in-use amount over [t0, t1) into n buckets, from the
  // loaded items of `windows` ([[lane, [[a, z], ...]], ...]: rowWindow of
  // each row): processors and channels count busy time (waits excluded,
  // overlaps once), memories live bytes x time. Returns per-bucket sums.
  accumulate(windows, t0, t1, n) {
    const out = new Float64Array(n), w = (t1 - t0) / n, tmp = new Float64Array(n);
    const add = (buf, a, b, weight) => {
      a = Math.max(a, t0); b = Math.min(b, t1);
      if (b <= a) return;
      let k = Math.min(n - 1, Math.floor((a - t0) / w));
      for (; k < n && t0 + k * w < b; ++k) {
        const lo = Math.max(a, t0 + k * w), hi = Math.min(b, t0 + (k + 1) * w);
        if (hi > lo) buf[k] += (hi - lo) * weight;
      }
    };
    for (const [l, rows] of windows) {
      const lane = this.lanes[l], memory = this.isMemory(lane.kind);
      if (memory && !lane.capacity) continue;
      const overlap = !memory && lane.rowRanges.length > 1;
      const buf = overlap ? tmp.fill(0) : out;
      for (const [a, z] of rows) {
        if (!memory) { this.accumulateBusy(buf, a, z, t0, w, n); continue; }
        for (let i = this.firstEndingAfter(a, z, t0); i < z && this.start(i) < t1; ++i)
          add(buf, this.allocated(i), this.stop(i), this.bytes(i));
      }
      if (overlap) for (let k = 0; k < n; ++k) out[k] += Math.min(tmp[k], w);
    }
    return out;
  }
  // Busy time of a processor row's items [a, z) (loaded) in each of n
  // buckets of w ns from t0, added into buf: per bucket the items' busy time
  // between its edges (busyBetween), less the parts of the edge items
  // outside it and the waits of the items inside, so the cost grows with
  // the buckets and the waits, not the items.
  accumulateBusy(buf, a, z, t0, w, n) {
    // Running time of item i within [lo, hi).
    const running = (i, lo, hi) => {
      const span = Math.max(0, Math.min(hi, this.stop(i)) - Math.max(lo, this.start(i)));
      if (!(this.flags(i) & FLAG_WAITS) || span === 0) return span;
      return span - this.timeIn(i, 1, lo, hi) - this.timeIn(i, 2, lo, hi);
    };
    let i = this.firstEndingAfter(a, z, t0);
    for (let k = 0; k < n && i < z; ++k) {
      const lo = t0 + k * w, hi = lo + w;
      if (this.start(i) >= hi) continue;
      // Items [i, j) start before hi; those after i end after lo.
      const j = firstAtOrAfter(i + 1, z, (x) => this.start(x) < hi);
      let sum = running(i, lo, hi);
      if (j - 1 > i) {
        sum += running(j - 1, lo, hi);
        if (j - 2 > i) {
          sum += this.busyBetween(i + 1, j - 1);
          for (const x of this.waitingIn(i + 1, j - 1)) sum -= this.stop(x) - this.start(x) - running(x, lo, hi);
        }
      }
      buf[k] += sum;
      // The next bucket starts with the last item here if it runs on.
      i = j - 1 >= i && this.stop(j - 1) > hi ? j - 1 : j;
    }
  }
  // The items in [a, b) (loaded) that have waits.
  waitingIn(a, b) {
    const out = [];
    for (let k = Math.floor(a / this.chunkItems); k * this.chunkItems < b; ++k) {
      const c = this.store.items[k];
      for (const j of c.waited) {
        const i = c.first + j;
        if (i >= a && i < b) out.push(i);
      }
    }
    return out;
  }

  // What folded items ran, as analysis/fold_summary.cpp answers it (a
  // parity test holds the two together); items loaded.
  leadKey(i) { return this.name(i) + this.kind(i) * 67108864; }  // name | kind << 26
  leadWeight(i) { return this.stop(i) - this.start(i) + 1; }
  // The lead of unit u (size 1: items, else fold blocks or lead groups).
  unitLead(u, size) {
    if (size === 1) return u;
    const first = u * size, c = this.c(first), j = first - c.first;
    return first + (size === this.fold.block ? c.leadBlocks[j / size] : c.leadGroups[j / size]);
  }
  tally(a, b) {
    const {block, group, samples} = this.fold, t = new Tally(), n = b - a;
    const size = n >= 2 * group ? group : n >= 2 * block ? block : 1;
    const first = Math.ceil(a / size), last = Math.floor(b / size);
    const stride = Math.ceil((last - first) / samples);
    for (let u = first; u < last; u += stride) {
      const lead = this.unitLead(u, size);
      const weight = size === 1 ? this.leadWeight(u) : this.busyBetween(u * size, (u + 1) * size) + size;
      t.add(this.leadKey(lead), weight, lead);
    }
    return t;
  }
  // The names and kinds that ran longest among items [a, b) of a row:
  // [{item, share}], longest first, at most `most`.
  leading(a, b, most) { return a < b ? this.tally(a, b).shares(most) : []; }
  columnLead(a, b) {
    if (b - a <= 4) {  // the heaviest name and kind, the first seen among equals (as a Tally)
      let best = -1, most = -1;
      for (let i = a; i < b; ++i) {
        const key = this.leadKey(i);
        let weight = 0, first = -1;
        for (let j = a; j < b; ++j) {
          if (this.leadKey(j) !== key) continue;
          weight += this.leadWeight(j);
          if (first < 0) first = j;
        }
        if (weight > most) { most = weight; best = first; }
      }
      return best;
    }
    const middle = a + Math.floor((b - a) / 2);
    const size = b - a >= 2 * this.fold.group ? this.fold.group : this.fold.block;
    const lead = this.unitLead(Math.floor(middle / size), size);
    return lead >= a && lead < b ? lead : middle;
  }
  // A box of folded items [first, first + count) ending at stop cut into
  // columns of `width` ns on a grid from `origin`: [{start, stop, first,
  // count, busy, lead}] (fold_columns).
  foldColumns(first, count, stop, origin, width) {
    const {block, dense_column: dense} = this.fold, end = first + count, out = [];
    const byBlock = count >= dense * Math.max(1, (stop - this.start(first)) / width);
    for (let a = first; a < end;) {
      const k = Math.floor((this.start(a) - origin) / width);
      const c0 = origin + k * width, c1 = origin + (k + 1) * width;
      const b = byBlock
        ? Math.min(end, block * firstAtOrAfter(Math.floor(a / block) + 1, Math.floor((end - 1) / block) + 1,
                                               (j) => this.blockStart[j] < c1))
        : firstAtOrAfter(a + 1, end, (i) => this.start(i) < c1);
      out.push({start: c0, stop: c1, first: a, count: b - a, busy: this.busyBetween(a, b), lead: this.columnLead(a, b)});
      a = b;
    }
    return out;
  }

  // A row's items [b, e) over [t0, t1) from its fold blocks alone, in
  // `ncol` columns of `width` ns from `origin`: per column the items that
  // ran there, their busy time and the lead key of the most of it. Each
  // block (or, where more than four would share a column, each group of 32
  // or 1024 blocks) spreads its items and busy time evenly over its span.
  overview(row, t0, t1, origin, width, ncol) {
    const [b, e, rowFirst, rowLast, headBusy, rowBusy] = row, B = this.fold.block;
    const busy = new Float64Array(ncol), items = new Float64Array(ncol), most = new Float64Array(ncol);
    const key = new Int32Array(ncol).fill(-1);
    // Blocks kb.. start in the row; block k's span starts at its first item
    // (the row's first for the block before kb).
    const kb = Math.ceil(b / B), k0 = Math.floor(b / B), k1 = Math.floor((e - 1) / B);
    const startOf = (k) => (k <= k0 ? rowFirst : this.blockStart[k]);
    // Busy time of the row's items before item i (b, a block's first, or e).
    const busyBefore = (i) => (i <= b ? 0 : i >= e ? rowBusy
                               : headBusy + this.blockPrefix[i / B] - this.blockPrefix[kb]);
    const [wa, wz] = this.rowWindow(b, e, t0, t1);
    const inView = (wz - wa) / B;
    const size = inView > 4 * 32 * ncol ? 1024 : inView > 4 * ncol ? 32 : 1;
    for (let u = Math.floor(Math.floor(wa / B) / size), last = Math.floor(Math.floor((wz - 1) / B) / size); u <= last; ++u) {
      const ka = Math.max(k0, u * size), kz = Math.min(k1, u * size + size - 1);
      const ua = startOf(ka), ub = kz === k1 ? rowLast : startOf(kz + 1);
      if (ub < t0 || ua >= t1) continue;
      const ia = Math.max(b, ka * B), iz = Math.min(e, (kz + 1) * B);
      const ns = busyBefore(iz) - busyBefore(ia);
      let lead;
      if (size === 1) lead = this.blockLead[ka];
      else if (size === 32) lead = this.groupLead[u];
      else {  // the group of the 32 that ran longest
        let best = -1;
        for (let g = u * 32; g < u * 32 + 32 && g * 32 <= kz; ++g) {
          const w = this.blockPrefix[Math.min(kz + 1, g * 32 + 32)] - this.blockPrefix[Math.max(ka, g * 32)];
          if (w > best) { best = w; lead = this.groupLead[g]; }
        }
      }
      const c0 = Math.max(0, Math.floor((Math.max(ua, t0) - origin) / width));
      const c1 = Math.min(ncol - 1, Math.floor((Math.min(ub, t1) - origin) / width));
      for (let c = c0; c <= c1; ++c) {
        const share = ub > ua ? (Math.min(ub, origin + (c + 1) * width) - Math.max(ua, origin + c * width)) / (ub - ua) : 1;
        if (share <= 0) continue;
        busy[c] += ns * share; items[c] += (iz - ia) * share;
        if (ns * share >= most[c]) { most[c] = ns * share; key[c] = lead; }
      }
    }
    return {busy, items, key};
  }

  // Search: the labels whose name, operation or provenance contains q (case
  // insensitive), and per chunk how many items carry them.
  search(q) {
    q = q.toLowerCase();
    const hit = (s) => s > 0 && this.strings[s].toLowerCase().includes(q);
    const stringHit = Uint8Array.from(this.strings, (str, k) => (hit(k) ? 1 : 0));
    const labelHit = Uint8Array.from(this.labels, ([n, o, p]) => stringHit[n] | stringHit[o] | stringHit[p]);
    let total = 0;
    const chunks = [], counts = [];
    this.chunkLabels.forEach(({labels, items}, k) => {
      let n = 0;
      for (let x = 0; x < labels.length; ++x) if (labelHit[labels[x]]) n += items[x];
      if (n) { chunks.push(k); counts.push(n); total += n; }
    });
    return {q, stringHit, total, chunks, counts, inChunk: new Map()};
  }
  // A search's hits in loaded chunk k (its operations loaded: loadHits):
  // global item indices, ascending.
  async loadHits(s, k) {
    const c = await this.store.get('c', k);
    await this.chunkOperations(c);
    return this.hitsIn(s, k);
  }
  hitsIn(s, k) {
    let hits = s.inChunk.get(k);
    if (!hits) {
      const c = this.store.items[k], out = [], hit = s.stringHit;
      for (let i = c.first; i < c.first + c.count; ++i) if (this.labelOf(i).some((x) => hit[x])) out.push(i);
      hits = Int32Array.from(out);
      s.inChunk.set(k, hits);
    }
    return hits;
  }
}

// Utilization of a group of lanes: the index's grid over the whole run,
// and exact sums from the items where they are loaded and the window is
// finer than the grid.
class Utilization {
  constructor(profile, row) {
    this.p = profile; this.lanes = row.lanes;
    const line = profile.utilizationLines.get(`${row.rank}:${row.kind}`);
    this.known = !!line && line.known;  // unknown: every value NaN
    this.grid = line ? line.values : new Float32Array(profile.slices);
    this.capacity = Math.max(1, profile.capacity(row.lanes));
    this.t0 = profile.run.start; this.t1 = Math.max(profile.run.stop, this.t0 + 1);
    this.n = this.grid.length; this.w = (this.t1 - this.t0) / this.n;
  }
  // n values over [t0, t1); `limit`: the most items worth loading for it.
  sample(t0, t1, n, limit) {
    if (!this.known) return new Float64Array(n).fill(NaN);
    const w = (t1 - t0) / n;
    if (w < this.w) {
      const windows = [], chunks = new Set();
      let missing = 0;
      for (const l of this.lanes) {
        const rows = this.p.lanes[l].rowRanges.map(([b, e]) => this.p.rowWindow(b, e, t0, t1));
        for (const [a, z] of rows) {
          if (a >= z || this.p.has(a, z)) continue;
          missing += z - a;
          for (let k = Math.floor(a / this.p.chunkItems); k * this.p.chunkItems < z; ++k) chunks.add(k);
        }
        windows.push([l, rows]);
      }
      // What it has stays; what it lacks is asked for when that is little.
      for (const [, rows] of windows) for (const [a, z] of rows) this.p.touch(a, z);
      if (missing === 0) return this.p.accumulate(windows, t0, t1, n).map((s) => s / (w * this.capacity));
      if (missing <= limit && chunks.size <= AVG_CHUNKS_LOADED)
        for (const k of chunks) this.p.store.get('c', k).catch(() => {});
    }
    const out = new Float64Array(n);
    for (let k = 0; k < n; ++k) {
      const a = t0 + k * w, b = a + w;
      let sum = 0;
      const f0 = Math.max(0, Math.floor((a - this.t0) / this.w));
      const f1 = Math.min(this.n - 1, Math.floor((b - this.t0) / this.w));
      for (let f = f0; f <= f1; ++f) {
        const lo = Math.max(a, this.t0 + f * this.w), hi = Math.min(b, this.t0 + (f + 1) * this.w);
        if (hi > lo) sum += this.grid[f] * (hi - lo);
      }
      out[k] = sum / w;
    }
    return out;
  }
}
