// Structural-schema rules for CRD schemas (apiextensions' structural validation + the
// OpenAPI-schema checks of the CRD validation), with kube's paths and messages for the
// common violations: missing types, non-object roots, arrays without items, metadata
// beyond name/generateName, properties next to additionalProperties, $ref, uniqueItems.
// Counterpart of k8s.io/apiextensions-apiserver/pkg/apiserver/schema/validation.go.
import { forbidden, invalid, required, type FieldError, type FieldPath } from '../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import type { JSONSchemaProps } from '../v1/types.ts';

type Level = 'root' | 'item' | 'field';
const TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];

export function validateStructuralSchema(s: DeepReadonly<JSONSchemaProps>, path: FieldPath): FieldError[] {
  return walk(s, path, 'root');
}

function walk(s: DeepReadonly<JSONSchemaProps>, path: FieldPath, lvl: Level): FieldError[] {
  const errs: FieldError[] = [];
  const type = s.type ?? '';
  const isEmbedded = s['x-kubernetes-embedded-resource'] === true;
  if (s.$ref !== undefined) errs.push(forbidden(path.child('$ref'), '$ref is not supported'));
  if (s.uniqueItems === true) {
    errs.push(forbidden(path.child('uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  }
  if (s.additionalProperties !== undefined && Object.keys(s.properties ?? {}).length > 0 &&
      (s.additionalProperties === false || typeof s.additionalProperties === 'object')) {
    errs.push(forbidden(path.child('additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
  }
  if (type !== '' && !TYPES.includes(type)) {
    errs.push(invalid(path.child('type'), type, `must be one of ${TYPES.map((t) => `"${t}"`).join(', ')}`));
  }
  if (isEmbedded && type !== 'object') {
    errs.push(type === '' ? required(path.child('type'), 'must be object if x-kubernetes-embedded-resource is true')
      : invalid(path.child('type'), type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (type === '' && s['x-kubernetes-int-or-string'] !== true && s['x-kubernetes-preserve-unknown-fields'] !== true) {
    const detail = lvl === 'root' ? 'must not be empty at the root'
      : lvl === 'item' ? 'must not be empty for specified array items' : 'must not be empty for specified object fields';
    errs.push(required(path.child('type'), detail));
  }
  if (lvl === 'root' && type !== '' && type !== 'object') errs.push(invalid(path.child('type'), type, 'must be object at the root'));
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(invalid(path.child('x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  }
  if (type === 'array' && s.items === undefined) errs.push(required(path.child('items'), 'must be specified'));
  if (s.items !== undefined && type !== '' && type !== 'array') {
    errs.push(forbidden(path.child('items'), 'must be empty for type other than array'));
  }
  const checkMetadata = lvl === 'root' || isEmbedded;
  const props = s.properties ?? {};
  if (checkMetadata) {
    for (const f of ['kind', 'apiVersion'] as const) {
      const p = props[f];
      if (p !== undefined && p.type !== 'string') errs.push(invalid(path.child('properties').key(f).child('type'), p.type ?? '', 'must be string'));
    }
    const meta = props['metadata'];
    if (meta !== undefined) {
      if (meta.type !== 'object') errs.push(invalid(path.child('properties').key('metadata').child('type'), meta.type ?? '', 'must be object'));
      if (lvl === 'root') {
        const other = Object.keys(meta).filter((k) => k !== 'type' && k !== 'properties' && k !== 'description');
        const otherProps = Object.keys(meta.properties ?? {}).filter((k) => k !== 'name' && k !== 'generateName');
        if (other.length > 0 || otherProps.length > 0) {
          errs.push(forbidden(path.child('properties').key('metadata'),
            'must not specify anything other than name and generateName, but metadata is implicitly specified'));
        }
      }
    }
  }
  for (const name of Object.keys(props).sort()) {
    const p = props[name];
    if (p !== undefined) errs.push(...walk(p, path.child('properties').key(name), 'field'));
  }
  if (typeof s.additionalProperties === 'object') errs.push(...walk(s.additionalProperties, path.child('additionalProperties'), 'field'));
  if (s.items !== undefined) errs.push(...walk(s.items, path.child('items'), 'item'));
  return errs;
}
