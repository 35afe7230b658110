import {
  AliasNode,
  TableNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from "kysely";

/**
 * Tells listeners which tables a statement writes, so in-process read caches (api/lib/read-cache.ts) forget what it
 * may change. Every statement of this process goes through Kysely, so no write path can forget to invalidate: the
 * listener runs when the statement is compiled and again when it has run (a read that started in between is not
 * stored). A raw SQL statement that writes names no table the plugin can read: every listener runs.
 */
export type WriteListener = { tables: ReadonlySet<string>; onWrite: () => void };

export class WriteWatch implements KyselyPlugin {
  readonly #listeners: WriteListener[] = [];
  readonly #pending = new WeakMap<QueryId, WriteListener[]>();

  watch(tables: readonly string[], onWrite: () => void) {
    this.#listeners.push({ tables: new Set(tables), onWrite });
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    const written = writtenTables(node);
    if (written) {
      const hit = this.#listeners.filter(
        (listener) => written === "any" || written.some((table) => listener.tables.has(table)),
      );
      if (hit.length > 0) {
        for (const listener of hit) listener.onWrite();
        this.#pending.set(queryId, hit);
      }
    }
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    for (const listener of this.#pending.get(queryId) ?? []) listener.onWrite();
    this.#pending.delete(queryId);
    return result;
  }
}

/** The tables a statement writes, "any" for raw SQL that may write, undefined for a read. */
function writtenTables(node: RootOperationNode): string[] | "any" | undefined {
  switch (node.kind) {
    case "InsertQueryNode":
      return node.into ? [tableName(node.into)].filter(isString) : "any";
    case "UpdateQueryNode":
      return node.table ? [tableName(node.table)].filter(isString) : "any";
    case "DeleteQueryNode":
      return node.from.froms.map(tableName).filter(isString);
    case "MergeQueryNode":
      return [tableName(node.into)].filter(isString);
    case "RawNode":
      return node.sqlFragments.some((fragment) => /\b(insert|update|delete|truncate|merge)\b/i.test(fragment))
        ? "any"
        : undefined;
    default:
      return undefined;
  }
}

function tableName(node: OperationNode): string | undefined {
  if (AliasNode.is(node)) return tableName(node.node);
  if (TableNode.is(node)) return node.table.identifier.name;
  return undefined;
}

const isString = (value: string | undefined): value is string => value !== undefined;
