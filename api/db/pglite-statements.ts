import { parse, protocol, type messages, type PGlite, type Results } from "@electric-sql/pglite";

const { serialize } = protocol;
type BackendMessage = Awaited<ReturnType<PGlite["execProtocol"]>>["messages"][number];

/** Statements kept prepared per database; the least recently used is closed beyond this. */
const MAX_STATEMENTS = 200;

/** Only data statements are kept prepared: DDL and transaction control run as PGlite runs them. */
const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * PGlite as the query client of kysely-pglite-dialect, with each data statement prepared once under a name
 * (docs/performance.md 'Prepared statements on PGlite'). PGlite's own `query` parses and analyses the SQL text on
 * every call, in WASM on the main thread, and enters the WASM loop six times (parse, describe, bind, describe,
 * execute, sync). Kysely sends the same texts again and again with other parameters: here a text is parsed once,
 * then each call is one batch (bind, execute, sync) and PostgreSQL's plan cache chooses per statement between
 * custom and generic plans, as for any prepared statement. Answers are parsed by PGlite's own parser.
 */
export function preparedStatementClient(pglite: PGlite) {
  type Statement = { name: string; paramTypes: number[]; row: RowDescription[]; parsers: ParserMap };
  const statements = new Map<string, Statement>();
  /** Statements to close with the next batch (evicted, or made stale by DDL). */
  const closing: string[] = [];
  let counter = 0;
  const send = async (...messages: Uint8Array[]) =>
    (
      await pglite.execProtocol(
        Buffer.concat([...closing.splice(0).map(closeStatement), ...messages, serialize.sync()]),
        {
          syncToFs: false,
        },
      )
    ).messages;

  async function prepare(sql: string) {
    const name = `kysely_${++counter}`;
    const described = await send(serialize.parse({ name, text: sql }), serialize.describe({ type: "S", name }));
    // The statement's row description stands in for the portal's: same columns, text format.
    const row = described.filter((message): message is RowDescription => message.name === "rowDescription");
    const statement: Statement = {
      name,
      paramTypes: parse.parseDescribeStatementResults(described),
      row,
      parsers: columnParsers(row, pglite.parsers),
    };
    statements.set(sql, statement);
    if (statements.size > MAX_STATEMENTS) {
      const [oldestSql, oldest] = statements.entries().next().value!;
      statements.delete(oldestSql);
      closing.push(oldest.name);
    }
    return statement;
  }

  async function run<T>(sql: string, params: unknown[]): Promise<Results<T>> {
    let statement = statements.get(sql);
    if (statement) {
      // Most recently used last: the Map's order is the eviction order.
      statements.delete(sql);
      statements.set(sql, statement);
    } else {
      statement = await prepare(sql);
    }
    const values = params.map((param, index) => {
      if (param === null || param === undefined) return null;
      const serializer = pglite.serializers[statement.paramTypes[index]!];
      return serializer ? serializer(param) : String(param);
    });
    let messages: BackendMessage[];
    try {
      messages = await send(serialize.bind({ statement: statement.name, values }), serialize.execute({}));
    } catch (error) {
      // A table changed under the statement ('cached plan must not change result type'): prepare it anew next time.
      if (isStaleStatement(error) && statements.get(sql) === statement) {
        statements.delete(sql);
        closing.push(statement.name);
      }
      throw error;
    }
    await pglite.syncToFs();
    return parse.parseResults([...statement.row, ...messages], statement.parsers)[0] as Results<T>;
  }

  return {
    async query<T>(sql: string, params: unknown[] = []): Promise<Results<T>> {
      if (!DATA_STATEMENT.test(sql)) return pglite.query<T>(sql, params);
      try {
        return await pglite.runExclusive(() => run<T>(sql, params));
      } catch (error) {
        // Prepared again, it reads the table as it is now; inside a transaction the error has aborted it anyway.
        if (!isStaleStatement(error) || pglite.isInTransaction()) throw error;
        return pglite.runExclusive(() => run<T>(sql, params));
      }
    },
    /** After DDL run outside this client (migrations): prepared statements may read columns that changed. */
    async forgetAll() {
      await pglite.runExclusive(async () => {
        statements.clear();
        closing.length = 0;
        await send(serialize.query("deallocate all"));
      });
    },
    close: () => pglite.close(),
  };
}

type ParserMap = PGlite["parsers"];
type RowDescription = messages.RowDescriptionMessage;

/**
 * The parsers of a statement's columns only. PGlite's parseResults copies the parser map it is given on every call
 * (`{...parsers}`), and the database's holds 316 types: that copy was half of a small query's CPU (120 of 260 µs).
 * A type missing here is missing from the database's map too, and both fall back to PGlite's defaults. The map is
 * cut when the statement is prepared; DDL that changes its columns makes it stale, and it is prepared again.
 */
function columnParsers(row: RowDescription[], parsers: ParserMap): ParserMap {
  const chosen: ParserMap = {};
  for (const message of row) {
    for (const field of message.fields) {
      const parser = parsers[field.dataTypeID];
      if (parser) chosen[field.dataTypeID] = parser;
    }
  }
  return chosen;
}

const closeStatement = (name: string) => serialize.close({ type: "S", name });

/** 'cached plan must not change result type': DDL changed the columns a prepared statement returns. */
function isStaleStatement(error: unknown) {
  return (error as { code?: string } | null)?.code === "0A000";
}
