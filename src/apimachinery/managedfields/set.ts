// fieldpath.Set: a trie of paths. `members` are the paths ending at this node, `children`
// hold the deeper paths, both sorted by element order. Set operations follow
// structured-merge-diff exactly: e.g. Difference only removes exact paths (a member "spec"
// in the subtrahend does not remove "spec.replicas"); RecursiveDifference does.
// Sets are treated as immutable once built: operations may share subtrees with their inputs.
import { compareElements, deserializeElement, pathToString, serializeElement } from './path-element.ts';
import type { Path, PathElement } from './path-element.ts';

interface Child { readonly pe: PathElement; readonly set: FieldSet }

function search<T>(list: readonly T[], pe: PathElement, get: (t: T) => PathElement): { found: boolean; at: number } {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const c = compareElements(get(list[mid] as T), pe);
    if (c === 0) return { found: true, at: mid };
    if (c < 0) lo = mid + 1; else hi = mid;
  }
  return { found: false, at: lo };
}

const self = (pe: PathElement): PathElement => pe;
const childPe = (c: Child): PathElement => c.pe;

export class FieldSet {
  private readonly members: PathElement[];
  private readonly children: Child[];

  constructor(members: PathElement[] = [], children: Child[] = []) {
    this.members = members;
    this.children = children;
  }

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** Adds a path. Only for sets under construction (see the file comment). */
  insert(path: Path): void {
    FieldSet.insertInto(this, path);
  }

  // Walks by index: slicing the path at every level would cost its length squared.
  private static insertInto(root: FieldSet, path: Path): void {
    if (path.length === 0) return;
    let node = root;
    for (let i = 0; i < path.length - 1; i++) {
      node.isEmpty = undefined;
      node = node.descend(path[i] as PathElement);
    }
    node.isEmpty = undefined;
    const last = path[path.length - 1] as PathElement;
    const r = search(node.members, last, self);
    if (!r.found) node.members.splice(r.at, 0, last);
  }

  private descend(pe: PathElement): FieldSet {
    const r = search(this.children, pe, childPe);
    if (r.found) return (this.children[r.at] as Child).set;
    const set = new FieldSet();
    this.children.splice(r.at, 0, { pe, set });
    return set;
  }

  has(path: Path): boolean {
    return FieldSet.hasIn(this, path);
  }

  private static hasIn(root: FieldSet, path: Path): boolean {
    if (path.length === 0) return false;
    let node = root;
    for (let i = 0; i < path.length - 1; i++) {
      const r = search(node.children, path[i] as PathElement, childPe);
      if (!r.found) return false;
      node = (node.children[r.at] as Child).set;
    }
    return node.hasMember(path[path.length - 1] as PathElement);
  }

  hasMember(pe: PathElement): boolean { return search(this.members, pe, self).found; }

  /** Remembered: set operations ask every node of a deep set, which must not cost its depth each time. */
  private isEmpty: boolean | undefined;

  empty(): boolean {
    this.isEmpty ??= this.members.length === 0 && this.children.every((c) => c.set.empty());
    return this.isEmpty;
  }

  /** The subset below `pe` (paths relative to it); empty when there is none. */
  withPrefix(pe: PathElement): FieldSet {
    const r = search(this.children, pe, childPe);
    return r.found ? (this.children[r.at] as Child).set : new FieldSet();
  }

  union(o: FieldSet): FieldSet {
    return new FieldSet(
      mergeSorted(this.members, o.members, self, (a) => a),
      mergeSorted(this.children, o.children, childPe, (a, b) => ({ pe: a.pe, set: a.set.union(b.set) })),
    );
  }

  intersection(o: FieldSet): FieldSet {
    const children: Child[] = [];
    for (const c of this.children) {
      const r = search(o.children, c.pe, childPe);
      if (!r.found) continue;
      const set = c.set.intersection((o.children[r.at] as Child).set);
      if (!set.empty()) children.push({ pe: c.pe, set });
    }
    return new FieldSet(this.members.filter((m) => o.hasMember(m)), children);
  }

  difference(o: FieldSet): FieldSet {
    const children: Child[] = [];
    for (const c of this.children) {
      const r = search(o.children, c.pe, childPe);
      if (!r.found) { children.push(c); continue; }
      const set = c.set.difference((o.children[r.at] as Child).set);
      if (!set.empty()) children.push({ pe: c.pe, set });
    }
    return new FieldSet(this.members.filter((m) => !o.hasMember(m)), children);
  }

  /** Like difference, but a member of `o` also removes everything below it. */
  recursiveDifference(o: FieldSet): FieldSet {
    const children: Child[] = [];
    for (const c of this.children) {
      if (o.hasMember(c.pe)) continue;
      const r = search(o.children, c.pe, childPe);
      if (!r.found) { children.push(c); continue; }
      const set = c.set.recursiveDifference((o.children[r.at] as Child).set);
      if (!set.empty()) children.push({ pe: c.pe, set });
    }
    return new FieldSet(this.members.filter((m) => !o.hasMember(m)), children);
  }

  /** The paths that have no children in this set. */
  leaves(): FieldSet {
    return new FieldSet(
      this.members.filter((m) => !search(this.children, m, childPe).found),
      this.children.map((c) => ({ pe: c.pe, set: c.set.leaves() })),
    );
  }

  /** Every path, members of a node before its children, in element order. */
  paths(): Path[] {
    const out: Path[] = [];
    this.walk([], out);
    return out;
  }

  private walk(prefix: PathElement[], out: Path[]): void {
    for (const m of this.members) out.push([...prefix, m]);
    for (const c of this.children) {
      prefix.push(c.pe);
      c.set.walk(prefix, out);
      prefix.pop();
    }
  }

  size(): number {
    let n = this.members.length;
    for (const c of this.children) n += c.set.size();
    return n;
  }

  /** The same paths (compared node by node, never through their printed form). */
  equals(o: FieldSet): boolean {
    const a = this.prune();
    const b = o.prune();
    if (a.members.length !== b.members.length || a.children.length !== b.children.length) return false;
    for (let i = 0; i < a.members.length; i++) {
      if (compareElements(a.members[i] as PathElement, b.members[i] as PathElement) !== 0) return false;
    }
    for (let i = 0; i < a.children.length; i++) {
      const x = a.children[i] as Child;
      const y = b.children[i] as Child;
      if (compareElements(x.pe, y.pe) !== 0 || !x.set.equals(y.set)) return false;
    }
    return true;
  }

  // This node without the children that hold no path.
  private prune(): { members: readonly PathElement[]; children: readonly Child[] } {
    return { members: this.members, children: this.children.filter((c) => !c.set.empty()) };
  }

  /** Members and children of this node, for walkers that need to visit the trie. */
  entries(): { readonly members: readonly PathElement[]; readonly children: readonly Child[] } {
    return { members: this.members, children: this.children };
  }

  toString(): string { return this.paths().map(pathToString).join('\n'); }

  /**
   * The FieldsV1 form (Set.ToJSON): every element a key, "." marks a node that is itself a
   * member and has children; keys in element order.
   */
  toFieldsV1(): Record<string, unknown> {
    return this.emit(false);
  }

  private emit(includeSelf: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (includeSelf && (this.members.length > 0 || this.children.length > 0)) out['.'] = {};
    let mi = 0;
    let ci = 0;
    while (mi < this.members.length || ci < this.children.length) {
      const m = this.members[mi];
      const c = this.children[ci];
      const cmp = m === undefined ? 1 : c === undefined ? -1 : compareElements(m, c.pe);
      if (cmp < 0 && m !== undefined) {
        out[serializeElement(m)] = {};
        mi++;
      } else if (c !== undefined) {
        out[serializeElement(c.pe)] = c.set.emit(cmp === 0);
        if (cmp === 0) mi++;
        ci++;
      }
    }
    return out;
  }

  /** Set.FromJSON. Throws on malformed keys; unknown key prefixes are skipped as kube does. */
  static fromFieldsV1(fields: unknown): FieldSet {
    const { set } = readNode(fields);
    return set ?? new FieldSet();
  }
}

/**
 * Collects one node's members and children in any order and sorts them once: the walks that
 * build sets from objects use it, so a map of n keys costs n log n, not n inserts of O(n) each.
 */
export class FieldSetBuilder {
  private readonly members: PathElement[] = [];
  private readonly children: Child[] = [];

  addMember(pe: PathElement): void { this.members.push(pe); }

  /** Adds a subtree; an empty one adds nothing. */
  addChild(pe: PathElement, set: FieldSet): void {
    if (!set.empty()) this.children.push({ pe, set });
  }

  build(): FieldSet {
    return new FieldSet(sortUnique(this.members, self, (a) => a),
      sortUnique(this.children, childPe, (a, b) => ({ pe: a.pe, set: a.set.union(b.set) })));
  }
}

// Set.FromJSON builds each node from its keys directly (kube appends when the keys come in
// order); re-inserting the paths of every subtree at each level would cost depth cubed.
function readNode(node: unknown): { set: FieldSet | undefined; isMember: boolean } {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) {
    throw new Error('managedFields parsing: expected a JSON object');
  }
  let isMember = false;
  const members: PathElement[] = [];
  const children: Child[] = [];
  for (const key of Object.keys(node)) {
    if (key === '.') { isMember = true; continue; }
    const pe = deserializeElement(key);
    if (pe === undefined) continue;
    const child = readNode((node as Record<string, unknown>)[key]);
    if (child.isMember) members.push(pe);
    if (child.set !== undefined) children.push({ pe, set: child.set });
  }
  if (members.length === 0 && children.length === 0) return { set: undefined, isMember: true };
  return { set: new FieldSet(sortUnique(members, self, (_, b) => b), sortUnique(children, childPe, (_, b) => b)), isMember };
}

/**
 * Sorts by element, stably; of equal elements (two spellings of one key) the last wins, as
 * kube's Descend-and-overwrite does. Already sorted input (the usual case) costs one pass.
 */
function sortUnique<T>(list: T[], pe: (t: T) => PathElement, keep: (a: T, b: T) => T): T[] {
  let sorted = true;
  for (let i = 1; i < list.length && sorted; i++) sorted = compareElements(pe(list[i - 1] as T), pe(list[i] as T)) < 0;
  if (sorted) return list;
  const order = list.map((t, i) => ({ t, i })).sort((x, y) => compareElements(pe(x.t), pe(y.t)) || x.i - y.i);
  const out: T[] = [];
  for (const { t } of order) {
    const last = out[out.length - 1];
    if (last !== undefined && compareElements(pe(last), pe(t)) === 0) out[out.length - 1] = keep(last, t);
    else out.push(t);
  }
  return out;
}

function mergeSorted<T>(a: readonly T[], b: readonly T[], pe: (t: T) => PathElement,
  both: (x: T, y: T) => T): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as T;
    const y = b[j] as T;
    const c = compareElements(pe(x), pe(y));
    if (c < 0) { out.push(x); i++; } else if (c > 0) { out.push(y); j++; } else { out.push(both(x, y)); i++; j++; }
  }
  return out.concat(a.slice(i), b.slice(j));
}
