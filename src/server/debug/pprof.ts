// V8's CPU and sampling heap profiles as pprof profiles (profile.proto, gzipped), the format Go's
// /debug/pprof endpoints answer and `go tool pprof` reads. Stacks become locations of one line
// each (function name, script URL, line); no addresses, so nothing needs symbolizing.
// No Go counterpart: Go's runtime writes these itself (runtime/pprof).
import { gzipSync } from 'node:zlib';

/** V8's call frame (Runtime.CallFrame): lines and columns are 0-based. */
export interface CallFrame { readonly functionName: string; readonly url: string; readonly lineNumber: number; readonly columnNumber: number }

/** Profiler.Profile of the inspector protocol (times in microseconds). */
export interface V8CpuProfile {
  readonly nodes: readonly { readonly id: number; readonly callFrame: CallFrame; readonly children?: readonly number[] }[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples?: readonly number[];
  readonly timeDeltas?: readonly number[];
}

/** HeapProfiler.SamplingHeapProfile of the inspector protocol. */
export interface V8HeapNode { readonly id: number; readonly callFrame: CallFrame; readonly selfSize: number; readonly children: readonly V8HeapNode[] }
export interface V8HeapProfile { readonly head: V8HeapNode; readonly samples: readonly { readonly size: number; readonly nodeId: number }[] }

/** Protocol buffer writer for the few wire types profile.proto uses. */
class Writer {
  private readonly parts: Buffer[] = [];

  varint(field: number, v: number | bigint): void {
    this.tag(field, 0);
    this.rawVarint(BigInt(v));
  }

  bytes(field: number, b: Buffer): void {
    this.tag(field, 2);
    this.rawVarint(BigInt(b.length));
    this.parts.push(b);
  }

  /** A packed repeated varint field (an empty one is left out). */
  packed(field: number, vs: readonly (number | bigint)[]): void {
    if (vs.length === 0) return;
    const w = new Writer();
    for (const v of vs) w.rawVarint(BigInt(v));
    this.bytes(field, w.finish());
  }

  message(field: number, build: (w: Writer) => void): void {
    const w = new Writer();
    build(w);
    this.bytes(field, w.finish());
  }

  finish(): Buffer { return Buffer.concat(this.parts); }

  private tag(field: number, wire: number): void { this.rawVarint(BigInt((field << 3) | wire)); }

  /** int64 values are encoded as their two's complement uint64, as protobuf does. */
  private rawVarint(v: bigint): void {
    let x = BigInt.asUintN(64, v);
    const out: number[] = [];
    do {
      const byte = Number(x & 0x7fn);
      x >>= 7n;
      out.push(x === 0n ? byte : byte | 0x80);
    } while (x !== 0n);
    this.parts.push(Buffer.from(out));
  }
}

interface Sample { readonly stack: readonly number[]; readonly values: readonly number[] }

/** Builds one profile: string table, functions and locations deduplicated by frame. */
class ProfileBuilder {
  private readonly strings = new Map<string, number>([['', 0]]);
  private readonly functions = new Map<string, { id: number; name: number; file: number }>();
  private readonly locations = new Map<string, { id: number; fn: number; line: number }>();

  str(s: string): number {
    let i = this.strings.get(s);
    if (i === undefined) { i = this.strings.size; this.strings.set(s, i); }
    return i;
  }

  /** The location id of a frame (pprof lines are 1-based). */
  location(f: CallFrame): number {
    const name = f.functionName === '' ? '(anonymous)' : f.functionName;
    const fnKey = `${name}\0${f.url}`;
    let fn = this.functions.get(fnKey);
    if (fn === undefined) {
      fn = { id: this.functions.size + 1, name: this.str(name), file: this.str(f.url) };
      this.functions.set(fnKey, fn);
    }
    const key = `${fnKey}\0${f.lineNumber}`;
    let loc = this.locations.get(key);
    if (loc === undefined) {
      loc = { id: this.locations.size + 1, fn: fn.id, line: f.lineNumber + 1 };
      this.locations.set(key, loc);
    }
    return loc.id;
  }

  encode(p: {
    sampleTypes: readonly (readonly [string, string])[]; samples: readonly Sample[]; period: readonly [string, string, number];
    timeNanos: bigint; durationNanos: number;
  }): Buffer {
    const w = new Writer();
    const types = p.sampleTypes.map(([t, u]) => [this.str(t), this.str(u)] as const);
    const period = [this.str(p.period[0]), this.str(p.period[1])] as const;
    for (const [t, u] of types) w.message(1, (m) => { m.varint(1, t); m.varint(2, u); });
    for (const s of p.samples) w.message(2, (m) => { m.packed(1, s.stack); m.packed(2, s.values); });
    for (const loc of this.locations.values()) {
      w.message(4, (m) => { m.varint(1, loc.id); m.message(4, (l) => { l.varint(1, loc.fn); l.varint(2, loc.line); }); });
    }
    for (const fn of this.functions.values()) {
      w.message(5, (m) => { m.varint(1, fn.id); m.varint(2, fn.name); m.varint(3, fn.name); m.varint(4, fn.file); });
    }
    for (const s of this.strings.keys()) w.bytes(6, Buffer.from(s, 'utf8'));
    w.varint(9, p.timeNanos);
    w.varint(10, Math.round(p.durationNanos));
    w.message(11, (m) => { m.varint(1, period[0]); m.varint(2, period[1]); });
    w.varint(12, Math.round(p.period[2]));
    return gzipSync(w.finish());
  }
}

/** A frame V8 adds to every tree (the root, idle and GC markers): not a function of the program. */
const isRoot = (f: CallFrame): boolean => f.functionName === '(root)' && f.url === '';

/**
 * A CPU profile: per stack, the samples and the CPU time (Go's samples/count and
 * cpu/nanoseconds), with V8's sampling interval as the period.
 */
export function cpuProfileToPprof(p: V8CpuProfile, intervalMicros: number): Buffer {
  const b = new ProfileBuilder();
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const totals = new Map<number, { count: number; nanos: number }>();
  const samples = p.samples ?? [];
  const deltas = p.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const id = samples[i] ?? 0;
    const t = totals.get(id) ?? { count: 0, nanos: 0 };
    t.count++;
    // Each delta is the time before its sample: the next one's is the time this sample stood for.
    t.nanos += Math.max(0, deltas[i + 1] ?? intervalMicros) * 1000;
    totals.set(id, t);
  }
  const out: Sample[] = [];
  for (const [id, t] of totals) {
    const stack: number[] = [];
    for (let n = byId.get(id); n !== undefined; n = byId.get(parent.get(n.id) ?? -1)) {
      if (!isRoot(n.callFrame)) stack.push(b.location(n.callFrame));
    }
    out.push({ stack, values: [t.count, Math.round(t.nanos)] });
  }
  return b.encode({
    sampleTypes: [['samples', 'count'], ['cpu', 'nanoseconds']], samples: out, period: ['cpu', 'nanoseconds', intervalMicros * 1000],
    timeNanos: BigInt(Math.round(p.startTime)) * 1000n, durationNanos: (p.endTime - p.startTime) * 1000,
  });
}

/**
 * A heap profile: per stack, the sampled objects still alive and their bytes (Go's inuse_objects
 * and inuse_space), with the sampling interval in bytes as the period.
 */
export function heapProfileToPprof(p: V8HeapProfile, intervalBytes: number, now: Date = new Date()): Buffer {
  const b = new ProfileBuilder();
  const counts = new Map<number, number>();
  for (const s of p.samples) counts.set(s.nodeId, (counts.get(s.nodeId) ?? 0) + 1);
  const out: Sample[] = [];
  const walk = (n: V8HeapNode, stack: readonly number[]): void => {
    const here = isRoot(n.callFrame) ? stack : [b.location(n.callFrame), ...stack];
    if (n.selfSize > 0) out.push({ stack: here, values: [counts.get(n.id) ?? 0, n.selfSize] });
    for (const c of n.children) walk(c, here);
  };
  walk(p.head, []);
  return b.encode({
    sampleTypes: [['inuse_objects', 'count'], ['inuse_space', 'bytes']], samples: out, period: ['space', 'bytes', intervalBytes],
    timeNanos: BigInt(now.getTime()) * 1_000_000n, durationNanos: 0,
  });
}
