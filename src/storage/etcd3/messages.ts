// TypeScript shapes of the etcd messages kapi sends and receives (proto field names, longs as
// decimal strings, bytes as Buffers), as proto-loader decodes them with defaults on.
// Counterpart of go.etcd.io/etcd/api/v3/etcdserverpb and go.etcd.io/etcd/api/v3/mvccpb.
import type { FieldsOf } from './proto/load.ts';

export type Int64 = string | number;

export interface PbKeyValue {
  readonly key: Buffer;
  readonly create_revision: string;
  readonly mod_revision: string;
  readonly version: string;
  readonly value: Buffer;
  readonly lease: string;
}

export interface PbEvent {
  /** 0 PUT, 1 DELETE. */
  readonly type: number;
  readonly kv: PbKeyValue | null;
  readonly prev_kv: PbKeyValue | null;
}

export interface PbHeader {
  readonly revision: string;
}

export interface RangeRequest {
  readonly key: Buffer;
  readonly range_end?: Buffer;
  readonly limit?: Int64;
  readonly revision?: Int64;
  readonly count_only?: boolean;
  readonly keys_only?: boolean;
}

export interface RangeResponse {
  readonly header: PbHeader | null;
  readonly kvs: readonly PbKeyValue[];
  readonly more: boolean;
  readonly count: string;
}

export interface PutRequest {
  readonly key: Buffer;
  readonly value: Buffer;
  readonly lease?: Int64;
  readonly prev_kv?: boolean;
}

export interface PutResponse {
  readonly header: PbHeader | null;
  readonly prev_kv: PbKeyValue | null;
}

export interface DeleteRangeRequest {
  readonly key: Buffer;
  readonly range_end?: Buffer;
  readonly prev_kv?: boolean;
}

export interface DeleteRangeResponse {
  readonly header: PbHeader | null;
  readonly deleted: string;
  readonly prev_kvs: readonly PbKeyValue[];
}

export type RequestOp =
  | { readonly request_range: RangeRequest }
  | { readonly request_put: PutRequest }
  | { readonly request_delete_range: DeleteRangeRequest };

export interface ResponseOp {
  readonly response_range: RangeResponse | null;
  readonly response_put: PutResponse | null;
  readonly response_delete_range: DeleteRangeResponse | null;
}

/** Compare.CompareResult / CompareTarget values. */
export const CMP_EQUAL = 0;
export const TARGET_VERSION = 0;
export const TARGET_MOD = 2;

export interface Compare {
  readonly result: number;
  readonly target: number;
  readonly key: Buffer;
  readonly version?: Int64;
  readonly mod_revision?: Int64;
}

export interface TxnRequest {
  readonly compare: readonly Compare[];
  readonly success: readonly RequestOp[];
  readonly failure: readonly RequestOp[];
}

export interface TxnResponse {
  readonly header: PbHeader | null;
  readonly succeeded: boolean;
  readonly responses: readonly ResponseOp[];
}

export interface CompactionRequest {
  readonly revision: Int64;
  readonly physical?: boolean;
}

export interface CompactionResponse {
  readonly header: PbHeader | null;
}

export interface WatchCreateRequest {
  readonly key: Buffer;
  readonly range_end?: Buffer;
  readonly start_revision?: Int64;
  readonly progress_notify?: boolean;
  readonly prev_kv?: boolean;
  readonly fragment?: boolean;
}

export type WatchRequest =
  | { readonly create_request: WatchCreateRequest }
  | { readonly cancel_request: { readonly watch_id: Int64 } }
  | { readonly progress_request: Record<string, never> };

export interface WatchResponse {
  readonly header: PbHeader | null;
  readonly watch_id: string;
  readonly created: boolean;
  readonly canceled: boolean;
  readonly compact_revision: string;
  readonly cancel_reason: string;
  readonly fragment: boolean;
  readonly events: readonly PbEvent[];
}

export interface LeaseGrantRequest {
  readonly TTL: Int64;
  readonly ID?: Int64;
}

export interface LeaseGrantResponse {
  readonly header: PbHeader | null;
  readonly ID: string;
  readonly TTL: string;
  readonly error: string;
}

export interface LeaseRevokeRequest {
  readonly ID: Int64;
}

export interface LeaseRevokeResponse {
  readonly header: PbHeader | null;
}

export type StatusRequest = Record<string, never>;

export interface StatusResponse {
  readonly header: PbHeader | null;
  readonly version: string;
  readonly errors: readonly string[];
}

/** Unary methods by `Service/Method`, with their request and response types. */
export interface UnaryMethods {
  'KV/Range': [RangeRequest, RangeResponse];
  'KV/Put': [PutRequest, PutResponse];
  'KV/DeleteRange': [DeleteRangeRequest, DeleteRangeResponse];
  'KV/Txn': [TxnRequest, TxnResponse];
  'KV/Compact': [CompactionRequest, CompactionResponse];
  'Lease/LeaseGrant': [LeaseGrantRequest, LeaseGrantResponse];
  'Lease/LeaseRevoke': [LeaseRevokeRequest, LeaseRevokeResponse];
  'Maintenance/Status': [StatusRequest, StatusResponse];
}

const HEADER = { header: true } as const;

/** The fields of each response message, checked on every decoded response. */
export const RESPONSE_FIELDS: { readonly [M in keyof UnaryMethods]: FieldsOf<UnaryMethods[M][1]> } = {
  'KV/Range': { ...HEADER, kvs: true, more: true, count: true },
  'KV/Put': { ...HEADER, prev_kv: true },
  'KV/DeleteRange': { ...HEADER, deleted: true, prev_kvs: true },
  'KV/Txn': { ...HEADER, succeeded: true, responses: true },
  'KV/Compact': HEADER,
  'Lease/LeaseGrant': { ...HEADER, ID: true, TTL: true, error: true },
  'Lease/LeaseRevoke': HEADER,
  'Maintenance/Status': { ...HEADER, version: true, errors: true },
};

export const WATCH_RESPONSE_FIELDS: FieldsOf<WatchResponse> = {
  ...HEADER, watch_id: true, created: true, canceled: true, compact_revision: true, cancel_reason: true, fragment: true, events: true,
};
