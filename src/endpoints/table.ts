// Converts objects and lists into metav1.Table (kubectl get's columns) and
// PartialObjectMetadata(List), the transformed shapes clients ask for with `as=`.
import type { KubeList, KubeObject, ObjectMeta } from '../apimachinery/meta/types.ts';
import type { DeepReadonly, ResourceDefinition, TableColumn } from '../registry/rest/strategy.ts';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableColumnDefinition {
  name: string; type: string; format: string; description: string; priority: number;
}
export interface TableRow { cells: unknown[]; object?: unknown }
export interface Table {
  kind: 'Table'; apiVersion: string; metadata: KubeList['metadata'];
  /** null without headers (a watch's events after the first): Go's nil slice, which has no omitempty. */
  columnDefinitions: TableColumnDefinition[] | null;
  /** null for no objects under the default convertor, which appends to a nil slice (the printers make an empty one). */
  rows: TableRow[] | null;
}

/** The default convertor's columns (rest.NewDefaultTableConvertor): Name and Created At. */
const DEFAULT_COLUMNS: readonly TableColumn<KubeObject>[] = [
  { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.',
    cell: (o) => o.metadata.name ?? '' },
  { name: 'Created At', type: 'date', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
    cell: (o) => o.metadata.creationTimestamp ?? null },
];

/** The default convertor's columns (Name, and Created At of type date), which no printer has: kinds without a printer. */
function isDefaultConvertor(cols: readonly TableColumn<KubeObject>[]): boolean {
  return cols.length === 2 && cols[1]?.name === 'Created At' && cols[1].type === 'date';
}

function columnsOf(def: ResourceDefinition<KubeObject> | undefined): readonly TableColumn<KubeObject>[] {
  return def?.table ?? DEFAULT_COLUMNS;
}

export function partialObjectMetadata(obj: KubeObject, apiVersion: string, def?: ResourceDefinition<KubeObject>): KubeObject {
  const metadata = def?.metadataView?.(obj as DeepReadonly<KubeObject>) ?? obj.metadata as ObjectMeta;
  return { kind: 'PartialObjectMetadata', apiVersion, metadata };
}

/** A list's items as metadata; `items` is null when there are none (kube appends to a nil slice). */
export function partialObjectMetadataList(list: KubeList, apiVersion: string,
  def?: ResourceDefinition<KubeObject>): Omit<KubeList, 'items'> & { items: KubeObject[] | null } {
  return {
    kind: 'PartialObjectMetadataList', apiVersion, metadata: list.metadata,
    items: list.items.length === 0 ? null : list.items.map((o) => partialObjectMetadata(o, apiVersion, def)),
  };
}

export function toTable(def: ResourceDefinition<KubeObject> | undefined, objs: readonly KubeObject[],
  listMeta: KubeList['metadata'], apiVersion: string, include: IncludeObject, noHeaders = false): Table {
  const cols = columnsOf(def);
  const now = Date.now();
  const rows: TableRow[] = objs.map((o) => {
    const row: TableRow = { cells: cols.map((c) => c.cell(o as DeepReadonly<KubeObject>, now)) };
    if (include === 'Metadata') row.object = partialObjectMetadata(o, apiVersion, def);
    else if (include === 'Object') row.object = o;
    return row;
  });
  return {
    kind: 'Table', apiVersion, metadata: listMeta,
    columnDefinitions: noHeaders ? null : cols.map((c) => ({
      name: c.name, type: c.type, format: c.format ?? '', description: c.description ?? '', priority: c.priority ?? 0,
    })),
    rows: rows.length === 0 && isDefaultConvertor(cols) ? null : rows,
  };
}
