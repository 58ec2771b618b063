'use strict';
// Decoding the embedded profile (layout in html_export/report_data.hpp) into
// typed arrays, and the questions the timeline asks of it.

async function decodeEmbedded(base64) {
  const binary = atob(base64.trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; ++i) bytes[i] = binary.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

// The first index in [from, end) where before(index) is false, or end
// (before holds on a prefix): galloping from `from`, then halving.
function firstAtOrAfter(from, end, before) {
  let lo = from, hi = from, step = 1;
  while (hi < end && before(hi)) { lo = hi + 1; hi = Math.min(end, hi + step); step *= 2; }
  while (lo < hi) { const m = lo + ((hi - lo) >> 1); if (before(m)) lo = m + 1; else hi = m; }
  return lo;
}

class ByteReader {
  constructor(bytes, at) { this.b = bytes; this.at = at; }
  varint() {
    let v = 0, scale = 1, byte;
    do {
      if (this.at >= this.b.length) throw new Error('the embedded data ends early');
      byte = this.b[this.at++];
      v += (byte & 0x7f) * scale;
      scale *= 128;
    } while (byte & 0x80);
    return v;
  }
  svarint() {
    const v = this.varint();
    return v % 2 === 0 ? v / 2 : -(v + 1) / 2;
  }
  u8() { return this.b[this.at++]; }
}

const KIND_META = 1, KIND_COPY = 2, KIND_FILL = 3, KIND_INSTANCE = 4;
const FLAG_WAITS = 1;

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
  top() {
    let best = null;
    for (const e of this.entries) if (!best || e.weight > best.weight) best = e;
    return best ? best.item : -1;
  }
  shares(most) {
    const sorted = [...this.entries].sort((a, b) => b.weight - a.weight);  // stable
    return sorted.slice(0, most).map((e) => ({item: e.item, share: e.weight / this.total}));
  }
}

class Profile {
  constructor(bytes) {
    const n = bytes[0] | bytes[1] << 8 | bytes[2] << 16 | bytes[3] << 24;
    const h = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + n)));
    Object.assign(this, {run: h.run, strings: h.strings, kinds: h.kinds, itemKinds: h.item_kinds, copyKinds: h.copy_kinds || [],
                         edgeKinds: h.edge_kinds, nodes: h.nodes, lanes: h.lanes, ops: h.ops,
                         errors: h.errors, findings: h.findings || null, fold: h.fold,
                         kernelSignatures: new Map(h.kernel_signatures || [])});  // short name -> signature
    let count = 0;
    for (const lane of this.lanes) {
      lane.begin = count;
      lane.rowRanges = lane.rows.map((r) => { const range = [count, count + r]; count += r; return range; });
      lane.end = count;
    }
    this.count = count;
    // The columns (layout in report_data.hpp), each read by its own reader.
    const head = new ByteReader(bytes, 4 + n), columns = [];
    const ncol = head.varint(), sizes = [];
    for (let c = 0; c < ncol; ++c) sizes.push(head.varint());
    let at = head.at;
    for (const size of sizes) { columns.push(new ByteReader(bytes, at)); at += size; }
    if (at > bytes.length || ncol < 19) throw new Error('the embedded data is incomplete');
    const [gap, dur, name, op, kf, toReady, toCreate, byteCol, alloc, preCount, preItem, preKindCol,
           waitItem, waitStart, waitReady, waitEnd, instProv, leadBlock, leadGroup] = columns;
    this.start = new Float64Array(count); this.stop = new Float64Array(count);
    this.name = new Uint32Array(count); this.op = new Int32Array(count);
    this.kind = new Uint8Array(count); this.flags = new Uint8Array(count);
    this.copyKind = new Uint8Array(count);  // a gather, scatter or reduction copy's CopyKind
    this.ready = new Float64Array(count); this.create = new Float64Array(count);
    this.bytes = new Float64Array(count); this.allocated = new Float64Array(count);
    this.instanceProvenance = new Map();  // instance item -> string index
    const npre = new Uint32Array(count);
    for (const lane of this.lanes) {
      for (const [b, e] of lane.rowRanges) {
        let prev = this.run.start, prevOp = 0;
        for (let i = b; i < e; ++i) {
          const start = prev + gap.svarint(), stop = start + dur.varint();
          this.start[i] = start; this.stop[i] = stop; prev = stop;
          this.name[i] = name.varint();
          prevOp += op.svarint(); this.op[i] = prevOp - 1;
          const k = kf.varint();
          this.kind[i] = k & 15; this.flags[i] = (k >> 4) & 15; this.copyKind[i] = k >> 8;
          this.ready[i] = start - toReady.svarint();
          this.create[i] = this.ready[i] - toCreate.svarint();
          const kind = k & 15;
          if (kind === KIND_COPY || kind === KIND_FILL || kind === KIND_INSTANCE) this.bytes[i] = byteCol.varint();
          this.allocated[i] = kind === KIND_INSTANCE ? start + alloc.varint() : start;
          if (kind === KIND_INSTANCE) this.instanceProvenance.set(i, instProv.varint());
          npre[i] = preCount.varint();
        }
      }
    }
    this.linkPreconditions(npre, preItem, preKindCol);
    this.waits = new Map();  // item -> [[start, ready, end, note string or 0], ...]
    const notes = new Map(h.wait_notes || []);  // wait index -> string
    let item = 0;
    for (let nw = waitItem.varint(), k = 0; k < nw; ++k) {
      item += waitItem.varint();
      const s = this.start[item] + waitStart.svarint(), ready = s + waitReady.varint(), end = ready + waitEnd.varint();
      if (!this.waits.has(item)) this.waits.set(item, []);
      this.waits.get(item).push([s, ready, end, notes.get(k) || 0]);
    }
    // The lead tables (Profile::lead_blocks, lead_groups).
    this.leadBlocks = new Uint8Array(Math.ceil(count / this.fold.block));
    for (let b = 0; b < this.leadBlocks.length; ++b) this.leadBlocks[b] = leadBlock.u8();
    this.leadGroups = new Uint16Array(Math.ceil(count / this.fold.group));
    for (let g = 0; g < this.leadGroups.length; ++g) this.leadGroups[g] = leadGroup.varint();
    this.busyPrefix = new Float64Array(count + 1);  // total duration of items [0, i)
    for (let i = 0; i < count; ++i) this.busyPrefix[i + 1] = this.busyPrefix[i] + this.stop[i] - this.start[i];
    this.laneOf = new Int32Array(count);
    this.lanes.forEach((lane, l) => this.laneOf.fill(l, lane.begin, lane.end));
  }

  // Preconditions as the model has them: each item's recorded edges, then the
  // meta-task of its operation that finished last if that was before it
  // started (Profile::mapped_by), as CSR arrays preBegin / pre / preKind.
  linkPreconditions(npre, preItem, preKindCol) {
    const count = this.count, lastMeta = new Int32Array(this.ops.length).fill(-1);
    for (let i = 0; i < count; ++i) {
      const o = this.op[i];
      if (this.kind[i] === KIND_META && o >= 0 && (lastMeta[o] < 0 || this.stop[lastMeta[o]] < this.stop[i])) lastMeta[o] = i;
    }
    const mapped = new Int32Array(count).fill(-1);
    let total = 0;
    for (let i = 0; i < count; ++i) {
      const o = this.op[i], k = this.kind[i];
      if (o >= 0 && k !== KIND_META && k !== KIND_INSTANCE && lastMeta[o] >= 0 && this.stop[lastMeta[o]] <= this.start[i]) mapped[i] = lastMeta[o];
      total += npre[i] + (mapped[i] >= 0 ? 1 : 0);
    }
    this.preBegin = new Uint32Array(count + 1);
    this.pre = new Int32Array(total); this.preKind = new Uint8Array(total);
    let at = 0;
    for (let i = 0; i < count; ++i) {
      this.preBegin[i] = at;
      for (let np = npre[i]; np > 0; --np, ++at) { this.pre[at] = i + preItem.svarint(); this.preKind[at] = preKindCol.u8(); }
      if (mapped[i] >= 0) { this.pre[at] = mapped[i]; this.preKind[at] = 0; ++at; }
    }
    this.preBegin[count] = at;
  }

  // The runtime work (meta-tasks) done for an item's operation and the
  // number of the operation's other items sharing it (ItemDetails'
  // operation_runtime and runtime_overhead); totals made on first use.
  runtimeOf(i) {
    const o = this.op[i], k = this.kind[i];
    if (o < 0 || k === KIND_META || k === KIND_INSTANCE) return null;
    if (!this.opRuntime) {
      this.opRuntime = new Float64Array(this.ops.length);
      this.opItems = new Uint32Array(this.ops.length);
      for (let j = 0; j < this.count; ++j) {
        const oj = this.op[j];
        if (oj < 0 || this.kind[j] === KIND_INSTANCE) continue;
        if (this.kind[j] === KIND_META) this.opRuntime[oj] += this.stop[j] - this.start[j];
        else this.opItems[oj] += 1;
      }
    }
    return {total: this.opRuntime[o], items: this.opItems[o]};
  }

  label(i) {
    let s = this.strings[this.name[i]];
    if (!s && this.op[i] >= 0) s = this.strings[this.ops[this.op[i]][0]];
    return s || this.itemKinds[this.kind[i]];
  }
  // Its kind in words: a copy's more exactly ("reduction copy").
  kindName(i) { return this.copyKinds[this.copyKind[i]] || this.itemKinds[this.kind[i]]; }
  provenance(i) { return this.op[i] >= 0 ? this.strings[this.ops[this.op[i]][1]] : ''; }
  // The string index of the line an item comes from: its operation's, an
  // instance's where its store was allocated (0: none), as the findings use.
  provenanceId(i) {
    if (this.kind[i] === KIND_INSTANCE) return this.instanceProvenance.get(i) || 0;
    return this.op[i] >= 0 ? this.ops[this.op[i]][1] : 0;
  }
  rowOf(i) {
    const rows = this.lanes[this.laneOf[i]].rowRanges;
    for (let k = 0; k < rows.length; ++k) if (i < rows[k][1]) return k;
    return 0;
  }

  // The item's span cut into [start, stop, state] (0 running, 1 ready, 2 blocked).
  states(i) {
    const out = [], lo = this.start[i], hi = this.stop[i];
    const clamp = (t) => Math.min(Math.max(t, lo), hi);
    let at = lo;
    const push = (a, b, s) => { a = clamp(a); b = clamp(b); if (b > a) out.push([a, b, s]); };
    for (const [s, ready, end] of this.waits.get(i) || []) {
      const ws = Math.max(s, at), wr = Math.max(ready, ws), we = Math.max(end, wr);
      push(at, ws, 0); push(ws, wr, 2); push(wr, we, 1);
      at = Math.max(at, we);
    }
    push(at, hi, 0);
    return out;
  }

  lastPrecondition(i) {
    let best = -1;
    for (let k = this.preBegin[i]; k < this.preBegin[i + 1]; ++k) {
      const p = this.pre[k];
      if (best < 0 || this.stop[p] > this.stop[best]) best = p;
    }
    return best;
  }
  criticalPath(i) {
    const chain = [i], seen = new Set(chain);
    for (let next = this.lastPrecondition(i); next >= 0 && !seen.has(next);
         next = this.lastPrecondition(next)) {
      chain.push(next); seen.add(next);
    }
    return chain;
  }

  // First index in [b, e) whose stop is after t (stops are sorted within a row).
  firstEndingAfter(b, e, t) {
    while (b < e) { const m = (b + e) >> 1; if (this.stop[m] <= t) b = m + 1; else e = m; }
    return b;
  }

  // Adds each lane's in-use amount over [t0, t1) into n buckets: processors
  // and channels count busy time (waits excluded, overlaps once), memories
  // live bytes x time (those of unknown size, capacity 0, left out).
  // Returns per-bucket sums.
  accumulate(lanes, t0, t1, n) {
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
    for (const l of lanes) {
      const lane = this.lanes[l], memory = this.isMemory(lane.kind);
      if (memory && !lane.capacity) continue;
      const overlap = !memory && lane.rowRanges.length > 1;
      const buf = overlap ? tmp.fill(0) : out;
      for (const [b, e] of lane.rowRanges) {
        for (let i = this.firstEndingAfter(b, e, t0); i < e && this.start[i] < t1; ++i) {
          if (memory) { add(buf, this.allocated[i], this.stop[i], this.bytes[i]); continue; }
          if (this.flags[i] & FLAG_WAITS) {
            for (const [a, bb, s] of this.states(i)) if (s === 0) add(buf, a, bb, 1);
          } else {
            add(buf, this.start[i], this.stop[i], 1);
          }
        }
      }
      if (overlap) for (let k = 0; k < n; ++k) out[k] += Math.min(tmp[k], w);
    }
    return out;
  }
  isMemory(kind) { return kind >= 10 && kind <= 13; }
  capacity(lanes) {
    let c = 0;
    for (const l of lanes) c += this.isMemory(this.lanes[l].kind) ? this.lanes[l].capacity : 1;
    return c;  // 0: memories whose size the trace does not give
  }

  // What folded items ran, as analysis/fold_summary.cpp answers it (a
  // parity test holds the two together).
  leadKey(i) { return this.name[i] + this.kind[i] * 67108864; }  // name | kind << 26
  leadWeight(i) { return this.stop[i] - this.start[i] + 1; }
  // The lead of unit u (size 1: items, else fold blocks or lead groups).
  unitLead(u, size) {
    if (size === 1) return u;
    return u * size + (size === this.fold.block ? this.leadBlocks[u] : this.leadGroups[u]);
  }
  tally(a, b) {
    const {block, group, samples} = this.fold, t = new Tally(), n = b - a;
    const size = n >= 2 * group ? group : n >= 2 * block ? block : 1;
    const first = Math.ceil(a / size), last = Math.floor(b / size);
    const stride = Math.ceil((last - first) / samples);
    for (let u = first; u < last; u += stride) {
      const lead = this.unitLead(u, size);
      const weight = size === 1 ? this.leadWeight(u)
        : this.busyPrefix[(u + 1) * size] - this.busyPrefix[u * size] + size;
      t.add(this.leadKey(lead), weight, lead);
    }
    return t;
  }
  // The names and kinds that ran longest among items [a, b) of a row:
  // [{item, share}], longest first, at most `most`.
  leading(a, b, most) { return a < b ? this.tally(a, b).shares(most) : []; }
  columnLead(a, b) {
    if (b - a <= 4) return this.tally(a, b).top();
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
    const byBlock = count >= dense * Math.max(1, (stop - this.start[first]) / width);
    for (let a = first; a < end;) {
      const k = Math.floor((this.start[a] - origin) / width);
      const c0 = origin + k * width, c1 = origin + (k + 1) * width;
      const b = byBlock
        ? Math.min(end, block * firstAtOrAfter(Math.floor(a / block) + 1, Math.floor((end - 1) / block) + 1,
                                               (j) => this.start[j * block] < c1))
        : firstAtOrAfter(a + 1, end, (i) => this.start[i] < c1);
      out.push({start: c0, stop: c1, first: a, count: b - a,
                busy: this.busyPrefix[b] - this.busyPrefix[a], lead: this.columnLead(a, b)});
      a = b;
    }
    return out;
  }

  // Items whose name, operation or provenance contains q (case insensitive).
  search(q) {
    q = q.toLowerCase();
    const hitString = this.strings.map((s) => s.length > 0 && s.toLowerCase().includes(q));
    const hitOp = this.ops.map((o) => hitString[o[0]] || hitString[o[1]]);
    const hits = [];
    for (let i = 0; i < this.count; ++i) {
      if (hitString[this.name[i]] || (this.op[i] >= 0 && hitOp[this.op[i]])) hits.push(i);
    }
    return Int32Array.from(hits);
  }
}

// Utilization of a group of lanes: a fine grid over the whole run, computed
// once, and exact sums from the items for windows finer than the grid.
class Utilization {
  constructor(profile, lanes) {
    this.p = profile; this.lanes = lanes; this.capacity = profile.capacity(lanes);
    this.known = this.capacity > 0;  // unknown: every value NaN
    if (!this.known) this.capacity = 1;
    this.t0 = profile.run.start; this.t1 = Math.max(profile.run.stop, this.t0 + 1);
    this.n = 8192; this.w = (this.t1 - this.t0) / this.n;
    this.fine = profile.accumulate(lanes, this.t0, this.t1, this.n);
  }
  sample(t0, t1, n) {
    if (!this.known) return new Float64Array(n).fill(NaN);
    const w = (t1 - t0) / n;
    if (w < 4 * this.w) {
      const sums = this.p.accumulate(this.lanes, t0, t1, n);
      return sums.map((s) => s / (w * this.capacity));
    }
    const out = new Float64Array(n);
    for (let k = 0; k < n; ++k) {
      const a = t0 + k * w, b = a + w;
      let sum = 0;
      const f0 = Math.max(0, Math.floor((a - this.t0) / this.w));
      const f1 = Math.min(this.n - 1, Math.floor((b - this.t0) / this.w));
      for (let f = f0; f <= f1; ++f) {
        const lo = Math.max(a, this.t0 + f * this.w), hi = Math.min(b, this.t0 + (f + 1) * this.w);
        if (hi > lo) sum += this.fine[f] * (hi - lo) / this.w;
      }
      out[k] = sum / (w * this.capacity);
    }
    return out;
  }
}
