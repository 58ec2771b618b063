'use strict';
// The report's data (layout in html_export/report_data.hpp): decoding its
// parts, and loading detail chunks from the files beside index.html with
// <script> elements (a file:// page may run scripts from its own folder,
// where fetch() of a file is refused).

// A part's bytes from its base64 text: gunzipped with the browser's own
// DecompressionStream.
async function inflateBase64(base64) {
  base64 = base64.trim();
  let bytes;
  if (Uint8Array.fromBase64) {  // decoded natively where the browser can
    bytes = Uint8Array.fromBase64(base64);
  } else {
    const binary = atob(base64);
    bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; ++i) bytes[i] = binary.charCodeAt(i);
  }
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
      if (this.at >= this.b.length) throw new Error('the report\'s data ends early');
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

// A packed part: its JSON header and a reader per column.
function readPart(bytes, columns) {
  const n = bytes[0] | bytes[1] << 8 | bytes[2] << 16 | bytes[3] << 24;
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + n)));
  const head = new ByteReader(bytes, 4 + n), readers = [], sizes = [];
  const count = head.varint();
  for (let c = 0; c < count; ++c) sizes.push(head.varint());
  let at = head.at;
  for (const size of sizes) { readers.push(new ByteReader(bytes, at)); at += size; }
  if (at > bytes.length || count < columns) throw new Error('the report\'s data is incomplete');
  return {header, columns: readers};
}

const FLAG_WAITS = 1;

// Items [first, first + count): each field in a typed array by offset.
class Chunk {
  constructor(p, bytes) {
    const {header: h, columns} = readPart(bytes, 19);
    const [gap, dur, name, op, kf, toReady, toCreate, byteCol, alloc, preCount, preItem, preKindCol,
           waitItem, waitStart, waitReady, waitEnd, instProv, leadBlock, leadGroup] = columns;
    const n = h.count, first = h.first;
    Object.assign(this, {k: h.chunk, first, count: n});
    this.start = new Float64Array(n); this.stop = new Float64Array(n);
    this.name = new Uint32Array(n); this.op = new Int32Array(n);
    this.kind = new Uint8Array(n); this.flags = new Uint8Array(n); this.copyKind = new Uint8Array(n);
    this.ready = new Float64Array(n); this.create = new Float64Array(n);
    this.extra = new Map();  // offset -> {bytes, allocated, provenance}: copies, fills, instances
    this.busy = new Float64Array(n + 1);  // total duration of items [first, first + j)
    const npre = new Uint32Array(n), rowStart = p.rowStartsIn(first, first + n);
    let prevStop = p.run.start, prevOp = 0, nextRow = 0;
    for (let j = 0; j < n; ++j) {
      if (j === 0 || (nextRow < rowStart.length && rowStart[nextRow] === first + j)) prevStop = p.run.start;
      while (nextRow < rowStart.length && rowStart[nextRow] <= first + j) ++nextRow;
      const start = prevStop + gap.svarint(), stop = start + dur.varint();
      this.start[j] = start; this.stop[j] = stop; prevStop = stop;
      this.busy[j + 1] = this.busy[j] + stop - start;
      this.name[j] = name.varint();
      prevOp += op.svarint(); this.op[j] = prevOp - 1;
      const k = kf.varint(), kind = k & 15;
      this.kind[j] = kind; this.flags[j] = (k >> 4) & 15; this.copyKind[j] = k >> 8;
      this.ready[j] = start - toReady.svarint();
      this.create[j] = this.ready[j] - toCreate.svarint();
      if (kind === p.KIND_COPY || kind === p.KIND_FILL) this.extra.set(j, {bytes: byteCol.varint()});
      if (kind === p.KIND_INSTANCE) {
        const bytes = byteCol.varint(), allocated = start + alloc.varint();
        this.extra.set(j, {bytes, allocated, provenance: instProv.varint()});
      }
      npre[j] = preCount.varint();
    }
    this.preBegin = new Uint32Array(n + 1);
    let total = 0;
    for (let j = 0; j < n; ++j) { this.preBegin[j] = total; total += npre[j]; }
    this.preBegin[n] = total;
    this.pre = new Float64Array(total); this.preKind = new Uint8Array(total);
    for (let j = 0, e = 0; j < n; ++j) {
      for (let c = 0; c < npre[j]; ++c, ++e) { this.pre[e] = first + j + preItem.svarint(); this.preKind[e] = preKindCol.u8(); }
    }
    this.waits = new Map();  // offset -> [[start, ready, end, note string or 0], ...]
    const notes = new Map(h.wait_notes);
    for (let nw = waitItem.varint(), w = 0, j = 0; w < nw; ++w) {
      j += waitItem.varint();
      const s = this.start[j] + waitStart.svarint(), ready = s + waitReady.varint(), end = ready + waitEnd.varint();
      if (!this.waits.has(j)) this.waits.set(j, []);
      this.waits.get(j).push([s, ready, end, notes.get(w) || 0]);
    }
    this.waited = Uint32Array.from(this.waits.keys()).sort();  // offsets of the items with waits
    this.stateSums = new Map();  // offset -> Profile.timeIn's index of its states
    const {block, group} = p.fold;
    this.leadBlocks = new Uint8Array(Math.ceil(n / block));
    for (let b = 0; b < this.leadBlocks.length; ++b) this.leadBlocks[b] = leadBlock.u8();
    this.leadGroups = new Uint16Array(Math.ceil(n / group));
    for (let g = 0; g < this.leadGroups.length; ++g) this.leadGroups[g] = leadGroup.varint();
    // The operation chunks its items belong to (Profile.loadOperations).
    const opChunks = new Set();
    for (let j = 0; j < n; ++j) if (this.op[j] >= 0) opChunks.add(Math.floor(this.op[j] / p.chunkOps));
    this.opChunks = [...opChunks];
    this.used = p.frame;  // the frame that last drew from it (ChunkStore evicts the oldest)
  }
}

// Operations [first, first + count).
class OpChunk {
  constructor(p, bytes) {
    const {header: h, columns} = readPart(bytes, 7);
    const [name, provenance, parent, uid, runtime, items, lastMeta] = columns, n = h.count;
    Object.assign(this, {k: h.chunk, first: h.first, count: n, used: p.frame});
    this.name = new Uint32Array(n); this.provenance = new Uint32Array(n); this.parent = new Int32Array(n);
    this.uid = new Float64Array(n); this.runtime = new Float64Array(n); this.items = new Uint32Array(n);
    this.lastMeta = new Int32Array(n);  // item, -1: none
    for (let o = 0, u = 0; o < n; ++o) {
      this.name[o] = name.varint(); this.provenance[o] = provenance.varint();
      const z = parent.varint() - 1;  // zigzag(index - parent's), -1: none
      this.parent[o] = z < 0 ? -1 : h.first + o - (z % 2 === 0 ? z / 2 : -(z + 1) / 2);
      u += uid.svarint(); this.uid[o] = u;
      this.runtime[o] = runtime.varint(); this.items[o] = items.varint();
      this.lastMeta[o] = lastMeta.varint() - 1;
    }
  }
}

// The detail files: each a script calling legatoChunk(kind, k, base64).
// Loads what is asked, a few at a time; keeps at most `limit` item chunks,
// dropping those drawn longest ago.
class ChunkStore {
  constructor(p, dir) {
    this.p = p; this.dir = dir;
    this.items = [];  // k -> Chunk (sparse: the loaded ones)
    this.loaded = 0;  // item chunks held
    this.ops = new Map();  // k -> OpChunk
    this.waiting = new Map();  // "c12" -> {promise, resolve, reject}
    this.queue = []; this.running = 0; this.limit = 96;
    this.listeners = [];  // called after each chunk arrives (or, with null, fails)
    this.failed = null;   // the first file that could not be read
    this.idlers = [];     // idle()'s waiting callers
    this.bad = new Map();  // key -> the error it failed with (never asked for again)
    window.legatoChunk = (kind, k, base64) => this.deliver(kind, k, base64);
  }
  file(key) { return `${this.dir}/${key}.js`; }
  // Resolves once no chunk is loading.
  idle() {
    return this.waiting.size ? new Promise((resolve) => this.idlers.push(resolve)) : Promise.resolve();
  }
  done(key) {
    this.waiting.delete(key);
    if (!this.waiting.size) for (const f of this.idlers.splice(0)) f();
  }
  // Resolves to the chunk; several calls for one chunk share one load.
  get(kind, k) {
    const have = kind === 'c' ? this.items[k] : this.ops.get(k);
    if (have) { have.used = this.p.frame; return Promise.resolve(have); }
    const key = `${kind}${k}`;
    if (this.bad.has(key)) return Promise.reject(this.bad.get(key));
    let w = this.waiting.get(key);
    if (!w) {
      w = {};
      w.promise = new Promise((resolve, reject) => { w.resolve = resolve; w.reject = reject; });
      this.waiting.set(key, w);
      this.queue.push(key);
      this.pump();
    }
    return w.promise;
  }
  pump() {
    while (this.running < 4 && this.queue.length) {
      const key = this.queue.shift(), s = document.createElement('script');
      ++this.running;
      s.src = this.file(key);
      s.onload = () => { s.remove(); this.settle(key, null); };
      s.onerror = () => {
        s.remove();
        this.settle(key, new Error(`cannot read ${this.file(key)} beside this page (keep the report's ` +
                                   `${this.dir} folder next to its index.html)`));
      };
      document.head.append(s);
    }
  }
  // A file ran (its legatoChunk call has started decoding) or failed.
  settle(key, error) {
    --this.running;
    const w = this.waiting.get(key);
    if (w && !error && !w.delivering) error = new Error(`${this.file(key)} holds no part of this report`);
    if (error && w) this.fail(key, w, error);
    this.pump();
  }
  fail(key, w, error) {
    this.failed = this.failed || error;
    this.bad.set(key, error);
    w.reject(error);
    this.done(key);
    for (const f of this.listeners) f(null);
  }
  async deliver(kind, k, base64) {
    const key = `${kind}${k}`, w = this.waiting.get(key);
    if (!w || w.delivering) return;
    w.delivering = true;
    try {
      const bytes = await inflateBase64(base64);
      const chunk = kind === 'c' ? new Chunk(this.p, bytes) : new OpChunk(this.p, bytes);
      if (kind === 'o') this.ops.set(k, chunk);
      else if (!this.items[k]) { this.items[k] = chunk; ++this.loaded; }
      this.evict();
      w.resolve(chunk);
      this.done(key);
      for (const f of this.listeners) f(chunk);
    } catch (e) {
      this.fail(key, w, new Error(`${this.file(key)} could not be read: ${e.message}`));
    }
  }
  // Past `limit` of a kind, those drawn longest ago go; chunks drawn in
  // this frame or the one before stay, whatever their number.
  evict() {
    const drop = (chunks, held, remove) => {
      if (held <= this.limit) return;
      const old = chunks.filter((c) => c && c.used < this.p.frame - 1).sort((a, b) => a.used - b.used);
      for (const c of old.slice(0, held - this.limit)) remove(c);
    };
    drop(this.items, this.loaded, (c) => { delete this.items[c.k]; --this.loaded; });
    drop([...this.ops.values()], this.ops.size, (o) => this.ops.delete(o.k));
  }
}
