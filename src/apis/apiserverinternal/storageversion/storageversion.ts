// StorageVersions (pkg/registry/apiserverinternal/storageversion, validation in
// pkg/apis/apiserverinternal/validation): cluster-scoped, named `<group>.<resource>`, with a
// status subresource. Status is reset on create and kept on update (the spec is empty);
// updates need a resourceVersion. Go always writes `spec` and `status` (no omitempty).
import { duplicate, fieldPath, GoSyntax, invalid, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateObjectMeta, type ValidateNameFunc } from '../../../apimachinery/validation/object-meta.ts';
import { emptyError, isDNS1035Label, isDNS1123Subdomain, isQualifiedName, regexError } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, copyOf, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import { goStringSlice } from '../../../apimachinery/goformat/index.ts';
import type { ServerStorageVersion, StorageVersion } from '../v1alpha1/types.ts';

type RO<T> = DeepReadonly<T>;

/** ValidateStorageVersionName: `<group>.<resource>`, the group a DNS subdomain, the resource a DNS-1035 label. */
const validateStorageVersionName: ValidateNameFunc = (name) => {
  const idx = name.lastIndexOf('.');
  if (idx < 0) return ['name must be in the form of <group>.<resource>'];
  return [
    ...isDNS1123Subdomain(name.slice(0, idx)).map((m) => `the group segment ${m}`),
    ...isDNS1035Label(name.slice(idx + 1)).map((m) => `the resource segment ${m}`),
  ];
};

const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelErrMsg = "a DNS-1035 label, which must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

/** isValidAPIVersion: `[group/]version`, the group a DNS subdomain, the version a DNS-1035 label. */
function isValidAPIVersion(apiVersion: string): string[] {
  const parts = apiVersion.split('/');
  const errs: string[] = [];
  let version: string;
  if (parts.length === 1) version = parts[0] ?? '';
  else if (parts.length === 2) {
    const group = parts[0] ?? '';
    version = parts[1] ?? '';
    if (group === '') errs.push(`group part: ${emptyError()}`);
    else errs.push(...isDNS1123Subdomain(group).map((m) => `group part: ${m}`));
  } else {
    return [`an apiVersion is ${regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyVersion')`];
  }
  if (version === '') errs.push(`version part: ${emptyError()}`);
  else errs.push(...isDNS1035Label(version).map((m) => `version part: ${m}`));
  return errs;
}

/** %#v of a []string. */
const goStrings = (v: readonly string[] | undefined): GoSyntax => new GoSyntax(goStringSlice(v));
/** %s of a []string. */
const plainStrings = (v: readonly string[] | undefined): string => `[${(v ?? []).join(' ')}]`;

function validateServerStorageVersion(ssv: RO<ServerStorageVersion>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const id = ssv.apiServerID ?? '';
  for (const m of nameIsDNSSubdomain(id, false)) errs.push(invalid(p.child('apiServerID'), id, m));
  const encoding = ssv.encodingVersion ?? '';
  const encErrs = isValidAPIVersion(encoding);
  if (encErrs.length > 0) errs.push(invalid(p.child('encodingVersion'), encoding, encErrs.join(',')));
  const decodable = ssv.decodableVersions ?? [];
  decodable.forEach((dv, i) => {
    const e = isValidAPIVersion(dv);
    if (e.length > 0) errs.push(invalid(p.child('decodableVersions').index(i), dv, e.join(',')));
  });
  if (!decodable.includes(encoding)) {
    errs.push(invalid(p.child('decodableVersions'), goStrings(ssv.decodableVersions), `decodableVersions must include encodingVersion ${encoding}`));
  }
  (ssv.servedVersions ?? []).forEach((sv, i) => {
    const e = isValidAPIVersion(sv);
    if (e.length > 0) errs.push(invalid(p.child('servedVersions').index(i), sv, e.join(',')));
    if (!decodable.includes(sv)) {
      errs.push(invalid(p.child('servedVersions').index(i), sv,
        `individual served version : ${sv} must be included in decodableVersions : ${plainStrings(ssv.decodableVersions)}`));
    }
  });
  return errs;
}

function validateStorageVersionStatus(sv: RO<StorageVersion>): FieldError[] {
  const p = fieldPath('status');
  const status = sv.status ?? {};
  const errs: FieldError[] = [];
  const ids = new Set<string>();
  (status.storageVersions ?? []).forEach((ssv, i) => {
    const id = ssv.apiServerID ?? '';
    if (ids.has(id)) errs.push(duplicate(p.child('storageVersions').index(i).child('apiServerID'), id));
    ids.add(id);
    errs.push(...validateServerStorageVersion(ssv, p.child('storageVersions').index(i)));
  });
  // The version every server encodes in, when they agree.
  const encodings = (status.storageVersions ?? []).map((s) => s.encodingVersion ?? '');
  const actual = encodings.length > 0 && encodings.every((e) => e === encodings[0]) ? encodings[0] : undefined;
  const claimed = status.commonEncodingVersion;
  if (actual === undefined && claimed !== undefined) {
    errs.push(invalid(p.child('commonEncodingVersion'), claimed,
      'should be nil if servers do not agree on the same encoding version, or if there is no server reporting the supported versions yet'));
  } else if (actual !== undefined && claimed === undefined) {
    // kube reports the nil pointer as the string "null".
    errs.push(invalid(p.child('commonEncodingVersion'), 'null', `the common encoding version is ${actual}`));
  } else if (actual !== undefined && claimed !== undefined && actual !== claimed) {
    errs.push(invalid(p.child('commonEncodingVersion'), claimed, `the actual common encoding version is ${actual}`));
  }
  // kube indexes the conditions from `status` itself (status[0].type), a path we keep.
  const seen = new Map<string, number>();
  (status.conditions ?? []).forEach((c, i) => {
    const type = c.type ?? '';
    const first = seen.get(type);
    if (first !== undefined) {
      errs.push(invalid(p.index(i).child('type'), type, `the type of the condition is not unique, it also appears in conditions[${first}]`));
    }
    seen.set(type, i);
    for (const m of isQualifiedName(type)) errs.push(invalid(p.index(i).child('type'), type, m));
    for (const m of isQualifiedName(c.status ?? '')) errs.push(invalid(p.index(i).child('status'), c.status ?? '', m));
    if ((c.reason ?? '') === '') errs.push(required(p.index(i).child('reason'), 'reason cannot be empty'));
    if ((c.message ?? '') === '') errs.push(required(p.index(i).child('message'), 'message cannot be empty'));
  });
  return errs;
}

function validateStorageVersion(sv: RO<StorageVersion>): FieldError[] {
  return [...validateObjectMeta(sv.metadata, { namespaced: false, nameFn: validateStorageVersionName }), ...validateStorageVersionStatus(sv)];
}

const strategy = specStatusStrategy<StorageVersion>({
  prepareForCreate(_ctx, sv) { sv.status = {}; },
  validate: (sv) => validateStorageVersion(sv),
  allowUnconditionalUpdate: false,
  prepareForUpdate(_ctx, sv, old) { sv.status = copyOf<NonNullable<StorageVersion['status']>>(old.status ?? {}); },
  // ValidateStorageVersionUpdate: nothing to check (the spec is empty).
  revalidateOnUpdate: false,
  validateUpdate: () => [],
  canonicalize(sv) {
    sv.spec = {};
    sv.status ??= {};
    // A condition's lastTransitionTime is a struct (null when unset); type, status and reason are not omitempty.
    for (const c of sv.status.conditions ?? []) {
      c.type ??= '';
      c.status ??= '';
      c.reason ??= '';
      if (c.lastTransitionTime === undefined) c.lastTransitionTime = null;
    }
  },
});

const storageVersionStatusStrategy = statusStrategy<StorageVersion>(strategy, {
  resetMetadata: {},
  prepareForUpdate(_ctx, sv) { sv.spec = {}; },
  validate: (sv) => validateStorageVersionStatus(sv),
});

/** "apiserver-a=v1,apiserver-b=v1 + 2 more..." (formatStorageVersions: at most three, "<unset>" when none). */
function formatStorageVersions(svs: RO<ServerStorageVersion[]> | undefined): string {
  const list = (svs ?? []).map((s) => `${s.apiServerID ?? ''}=${s.encodingVersion ?? ''}`);
  if (list.length === 0) return '<unset>';
  if (list.length <= 3) return list.join(',');
  return `${list.slice(0, 3).join(',')} + ${list.length - 3} more...`;
}

export const storageVersions = {
  group: 'internal.apiserver.k8s.io', kind: 'StorageVersion', resource: 'storageversions', singular: 'storageversion', namespaced: false,
  strategy,
  statusStrategy: storageVersionStatusStrategy,
  table: [
    nameColumn<StorageVersion>(),
    { name: 'CommonEncodingVersion', type: 'string', cell: (sv) => sv.status?.commonEncodingVersion ?? '<unset>' },
    { name: 'StorageVersions', type: 'string', cell: (sv) => formatStorageVersions(sv.status?.storageVersions) },
    ageColumn<StorageVersion>(),
  ],
} satisfies ResourceDefinition<StorageVersion>;
