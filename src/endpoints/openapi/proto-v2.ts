// /openapi/v2 as protobuf: the Swagger 2.0 document as a gnostic openapi.v2.Document message
// (github.com/google/gnostic-models/openapiv2/OpenAPIv2.proto), as kube-openapi's handler makes
// it with openapi_v2.ParseDocument and proto.Marshal. kubectl asks for this form when a kind's
// OpenAPI v3 document has no PATCH operation to read the fieldValidation parameter from (the
// create-only kinds: SubjectAccessReview, TokenReview, ...), then validates against it.
//
// Maps become repeated Named* entries in document order; "x-" keys become vendor_extension
// entries whose Any carries the value as YAML (JSON text, which is YAML); fields holding their
// type's zero value are left out, as proto3 does.

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Protobuf bytes of one message: tagged fields appended in field-number order by the caller. */
class Message {
  private readonly parts: Buffer[] = [];

  private tag(no: number, wire: number): void {
    this.varint(no * 8 + wire);
  }

  private varint(n: number): void {
    const bytes: number[] = [];
    let v = BigInt(n) & 0xffffffffffffffffn;
    do {
      let b = Number(v & 0x7fn);
      v >>= 7n;
      if (v !== 0n) b |= 0x80;
      bytes.push(b);
    } while (v !== 0n);
    this.parts.push(Buffer.from(bytes));
  }

  string(no: number, v: unknown): void {
    if (typeof v !== 'string' || v === '') return;
    this.bytes(no, Buffer.from(v, 'utf8'));
  }

  strings(no: number, v: unknown): void {
    if (!Array.isArray(v)) return;
    for (const s of v) if (typeof s === 'string') this.bytes(no, Buffer.from(s, 'utf8'));
  }

  bool(no: number, v: unknown): void {
    if (v !== true) return;
    this.tag(no, 0);
    this.varint(1);
  }

  int64(no: number, v: unknown): void {
    if (typeof v !== 'number' || !Number.isInteger(v) || v === 0) return;
    this.tag(no, 0);
    this.varint(v);
  }

  double(no: number, v: unknown): void {
    if (typeof v !== 'number' || v === 0) return;
    this.tag(no, 1);
    const b = Buffer.alloc(8);
    b.writeDoubleLE(v);
    this.parts.push(b);
  }

  bytes(no: number, b: Buffer): void {
    this.tag(no, 2);
    this.varint(b.length);
    this.parts.push(b);
  }

  /** A nested message; written even when empty (a set message field). */
  message(no: number, m: Message): void {
    this.bytes(no, m.done());
  }

  done(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** openapi.v2.Any: the value as YAML text. */
function anyMessage(v: unknown): Message {
  const m = new Message();
  m.string(2, `${JSON.stringify(v)}\n`);
  return m;
}

function anyField(m: Message, no: number, v: unknown): void {
  if (v !== undefined) m.message(no, anyMessage(v));
}

function anyList(m: Message, no: number, v: unknown): void {
  if (Array.isArray(v)) for (const e of v) m.message(no, anyMessage(e));
}

/** repeated NamedAny vendor_extension: the object's "x-" keys, in order. */
function extensions(m: Message, no: number, obj: Json): void {
  for (const [k, v] of Object.entries(obj)) {
    if (!k.startsWith('x-')) continue;
    const named = new Message();
    named.string(1, k);
    named.message(2, anyMessage(v));
    m.message(no, named);
  }
}

/** A Named<X> list: one {name, value} entry per key of obj. */
function namedList(m: Message, no: number, obj: unknown, value: (v: unknown) => Message | undefined, skipExtensions = false): void {
  if (!isObject(obj)) return;
  for (const [k, v] of Object.entries(obj)) {
    if (skipExtensions && k.startsWith('x-')) continue;
    const val = value(v);
    if (val === undefined) continue;
    const named = new Message();
    named.string(1, k);
    named.message(2, val);
    m.message(no, named);
  }
}

/** A message wrapping one Named<X> list as its field 1 (Definitions, Properties, ...). */
function wrapNamed(obj: unknown, value: (v: unknown) => Message | undefined): Message {
  const m = new Message();
  namedList(m, 1, obj, value);
  return m;
}

function schema(v: unknown): Message | undefined {
  if (!isObject(v)) return undefined;
  const m = new Message();
  m.string(1, v['$ref']);
  m.string(2, v['format']);
  m.string(3, v['title']);
  m.string(4, v['description']);
  anyField(m, 5, v['default']);
  m.double(6, v['multipleOf']);
  m.double(7, v['maximum']);
  m.bool(8, v['exclusiveMaximum']);
  m.double(9, v['minimum']);
  m.bool(10, v['exclusiveMinimum']);
  m.int64(11, v['maxLength']);
  m.int64(12, v['minLength']);
  m.string(13, v['pattern']);
  m.int64(14, v['maxItems']);
  m.int64(15, v['minItems']);
  m.bool(16, v['uniqueItems']);
  m.int64(17, v['maxProperties']);
  m.int64(18, v['minProperties']);
  m.strings(19, v['required']);
  anyList(m, 20, v['enum']);
  const ap = v['additionalProperties'];
  if (typeof ap === 'boolean') {
    const item = new Message();
    item.bool(2, ap);
    m.message(21, item);
  } else if (isObject(ap)) {
    const item = new Message();
    item.message(1, schema(ap) ?? new Message());
    m.message(21, item);
  }
  const type = v['type'];
  if (typeof type === 'string' || Array.isArray(type)) {
    const t = new Message();
    t.strings(1, typeof type === 'string' ? [type] : type);
    m.message(22, t);
  }
  const items = v['items'];
  if (isObject(items) || Array.isArray(items)) {
    const it = new Message();
    for (const s of Array.isArray(items) ? items : [items]) it.message(1, schema(s) ?? new Message());
    m.message(23, it);
  }
  if (Array.isArray(v['allOf'])) for (const s of v['allOf']) m.message(24, schema(s) ?? new Message());
  if (isObject(v['properties'])) m.message(25, wrapNamed(v['properties'], schema));
  m.string(26, v['discriminator']);
  m.bool(27, v['readOnly']);
  anyField(m, 30, v['example']);
  extensions(m, 31, v);
  return m;
}

/**
 * The 17 fields PrimitivesItems, Header and the parameter sub-schemas share, in this order
 * (type, format, items, ..., multipleOf), numbered from `first`.
 */
function primitiveFields(m: Message, v: Json, first: number): void {
  m.string(first, v['type']);
  m.string(first + 1, v['format']);
  const items = primitivesItems(v['items']);
  if (items !== undefined) m.message(first + 2, items);
  m.string(first + 3, v['collectionFormat']);
  anyField(m, first + 4, v['default']);
  m.double(first + 5, v['maximum']);
  m.bool(first + 6, v['exclusiveMaximum']);
  m.double(first + 7, v['minimum']);
  m.bool(first + 8, v['exclusiveMinimum']);
  m.int64(first + 9, v['maxLength']);
  m.int64(first + 10, v['minLength']);
  m.string(first + 11, v['pattern']);
  m.int64(first + 12, v['maxItems']);
  m.int64(first + 13, v['minItems']);
  m.bool(first + 14, v['uniqueItems']);
  anyList(m, first + 15, v['enum']);
  m.double(first + 16, v['multipleOf']);
}

/** A query, path, header or formData parameter sub-schema. */
function nonBodySubSchema(p: Json): Message {
  const m = new Message();
  m.bool(1, p['required']);
  m.string(2, p['in']);
  m.string(3, p['description']);
  m.string(4, p['name']);
  // Header and path sub-schemas have no allow_empty_value: their later fields are one lower.
  const withEmpty = p['in'] === 'query' || p['in'] === 'formData';
  if (withEmpty) m.bool(5, p['allowEmptyValue']);
  const first = withEmpty ? 6 : 5;
  primitiveFields(m, p, first);
  extensions(m, first + 17, p);
  return m;
}

function primitivesItems(v: unknown): Message | undefined {
  if (!isObject(v)) return undefined;
  const m = new Message();
  primitiveFields(m, v, 1);
  extensions(m, 18, v);
  return m;
}

const NON_BODY_FIELD: Readonly<Record<string, number>> = { header: 1, formData: 2, query: 3, path: 4 };

/** openapi.v2.Parameter: a BodyParameter or a NonBodyParameter by its "in". */
function parameter(v: unknown): Message | undefined {
  if (!isObject(v)) return undefined;
  const m = new Message();
  if (v['in'] === 'body') {
    const b = new Message();
    b.string(1, v['description']);
    b.string(2, v['name']);
    b.string(3, v['in']);
    b.bool(4, v['required']);
    const s = schema(v['schema']);
    if (s !== undefined) b.message(5, s);
    extensions(b, 6, v);
    m.message(1, b);
    return m;
  }
  const no = NON_BODY_FIELD[String(v['in'])];
  if (no === undefined) return m;
  const nb = new Message();
  nb.message(no, nonBodySubSchema(v));
  m.message(2, nb);
  return m;
}

function jsonReference(v: Json): Message {
  const r = new Message();
  r.string(1, v['$ref']);
  r.string(2, v['description']);
  return r;
}

/** openapi.v2.ParametersItem: a reference or a parameter. */
function parametersItem(v: unknown): Message {
  const m = new Message();
  if (isObject(v) && typeof v['$ref'] === 'string') m.message(2, jsonReference(v));
  else m.message(1, parameter(v) ?? new Message());
  return m;
}

function response(v: unknown): Message | undefined {
  if (!isObject(v)) return undefined;
  const m = new Message();
  m.string(1, v['description']);
  const s = schema(v['schema']);
  if (s !== undefined) {
    const item = new Message();
    item.message(1, s);
    m.message(2, item);
  }
  if (isObject(v['headers'])) m.message(3, wrapNamed(v['headers'], header));
  if (isObject(v['examples'])) m.message(4, wrapNamed(v['examples'], anyMessage));
  extensions(m, 5, v);
  return m;
}

/** openapi.v2.Header: PrimitivesItems' fields, then description (18) and vendor_extension (19). */
function header(v: unknown): Message | undefined {
  if (!isObject(v)) return undefined;
  const m = new Message();
  primitiveFields(m, v, 1);
  m.string(18, v['description']);
  extensions(m, 19, v);
  return m;
}

function operation(v: unknown): Message | undefined {
  if (!isObject(v)) return undefined;
  const m = new Message();
  m.strings(1, v['tags']);
  m.string(2, v['summary']);
  m.string(3, v['description']);
  m.string(5, v['operationId']);
  m.strings(6, v['produces']);
  m.strings(7, v['consumes']);
  if (Array.isArray(v['parameters'])) for (const p of v['parameters']) m.message(8, parametersItem(p));
  if (isObject(v['responses'])) {
    const rs = new Message();
    namedList(rs, 1, v['responses'], (r) => {
      const rv = new Message();
      if (isObject(r) && typeof r['$ref'] === 'string') rv.message(2, jsonReference(r));
      else rv.message(1, response(r) ?? new Message());
      return rv;
    }, true);
    extensions(rs, 2, v['responses']);
    m.message(9, rs);
  }
  m.strings(10, v['schemes']);
  m.bool(11, v['deprecated']);
  extensions(m, 13, v);
  return m;
}

const PATH_OPERATIONS: readonly (readonly [string, number])[] = [
  ['get', 2], ['put', 3], ['post', 4], ['delete', 5], ['options', 6], ['head', 7], ['patch', 8],
];

function pathItem(v: unknown): Message | undefined {
  if (!isObject(v)) return undefined;
  const m = new Message();
  m.string(1, v['$ref']);
  for (const [method, no] of PATH_OPERATIONS) {
    const op = operation(v[method]);
    if (op !== undefined) m.message(no, op);
  }
  if (Array.isArray(v['parameters'])) for (const p of v['parameters']) m.message(9, parametersItem(p));
  extensions(m, 10, v);
  return m;
}

function securityDefinition(v: unknown): Message | undefined {
  if (!isObject(v)) return undefined;
  const m = new Message();
  const s = new Message();
  if (v['type'] === 'basic') {
    s.string(1, v['type']);
    s.string(2, v['description']);
    extensions(s, 3, v);
    m.message(1, s);
  } else {
    s.string(1, v['type']);
    s.string(2, v['name']);
    s.string(3, v['in']);
    s.string(4, v['description']);
    extensions(s, 5, v);
    m.message(2, s);
  }
  return m;
}

function securityRequirement(v: unknown): Message {
  return wrapNamed(v, (scopes) => {
    const arr = new Message();
    arr.strings(1, scopes);
    return arr;
  });
}

/** Encodes a Swagger 2.0 document (JSON form) as an openapi.v2.Document message. */
export function encodeOpenAPIV2Document(doc: Json): Buffer {
  const m = new Message();
  m.string(1, doc['swagger']);
  const info = doc['info'];
  if (isObject(info)) {
    const i = new Message();
    i.string(1, info['title']);
    i.string(2, info['version']);
    i.string(3, info['description']);
    i.string(4, info['termsOfService']);
    extensions(i, 7, info);
    m.message(2, i);
  }
  m.string(3, doc['host']);
  m.string(4, doc['basePath']);
  m.strings(5, doc['schemes']);
  m.strings(6, doc['consumes']);
  m.strings(7, doc['produces']);
  if (isObject(doc['paths'])) {
    const paths = new Message();
    extensions(paths, 1, doc['paths']);
    namedList(paths, 2, doc['paths'], pathItem, true);
    m.message(8, paths);
  }
  if (isObject(doc['definitions'])) m.message(9, wrapNamed(doc['definitions'], schema));
  if (isObject(doc['parameters'])) m.message(10, wrapNamed(doc['parameters'], parameter));
  if (isObject(doc['responses'])) m.message(11, wrapNamed(doc['responses'], response));
  if (Array.isArray(doc['security'])) for (const s of doc['security']) m.message(12, securityRequirement(s));
  if (isObject(doc['securityDefinitions'])) m.message(13, wrapNamed(doc['securityDefinitions'], securityDefinition));
  extensions(m, 16, doc);
  return m.done();
}
