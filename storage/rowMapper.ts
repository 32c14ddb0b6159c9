import type { SqlValue } from 'sql.js';
import type { Row, SqlParam } from './sqlExecutor.js';

export type { Row };

/** How one record field is written to its column and read back. */
export interface Column<V> {
  toSql(value: V): SqlParam;
  fromSql(value: SqlValue | undefined): V;
}

const isNull = (v: SqlValue | undefined): v is null | undefined => v === null || v === undefined;

export const text: Column<string> = { toSql: (v) => v, fromSql: (v) => String(v) };
export const nullableText: Column<string | null> = { toSql: (v) => v, fromSql: (v) => (isNull(v) ? null : String(v)) };
export const integer: Column<number> = { toSql: (v) => v, fromSql: (v) => Number(v ?? 0) };
export const nullableInteger: Column<number | null> = { toSql: (v) => v, fromSql: (v) => (isNull(v) ? null : Number(v)) };
/** SQLite has no boolean: 0 / 1. */
export const flag: Column<boolean> = { toSql: (v) => Number(v), fromSql: (v) => Boolean(v) };
export const nullableFlag: Column<boolean | null> = {
  toSql: (v) => (v === null ? null : Number(v)),
  fromSql: (v) => (isNull(v) ? null : Boolean(v)),
};
/** A connector selection: a JSON array, or NULL for "inherit". */
export const idList: Column<string[] | null> = {
  toSql: (v) => (v === null ? null : JSON.stringify(v)),
  fromSql: (v) => (isNull(v) ? null : (JSON.parse(String(v)) as string[])),
};
/** Any JSON value, stored as its text (`null` too). */
export const json: Column<unknown> = { toSql: (v) => JSON.stringify(v), fromSql: (v) => (isNull(v) ? null : JSON.parse(String(v))) };

/** A string union: an unknown stored value reads as `fallback`, so older rows never break a read. */
export function oneOf<T extends string>(values: readonly T[], fallback: T): Column<T> {
  return { toSql: (v) => v, fromSql: (v) => (values.includes(v as T) ? (v as T) : fallback) };
}

/** The same as `text`, typed as a string union whose values the gateway alone writes. */
export function textAs<T extends string>(): Column<T> {
  return text as Column<T>;
}

/** The same as `nullableText`, typed as a nullable string union. */
export function nullableTextAs<T extends string>(): Column<T | null> {
  return nullableText as Column<T | null>;
}

/** One table's mapping: camelCase record fields ↔ snake_case columns, one `Column` per field. */
export interface RowMapper<T> {
  readonly table: string;
  /** The table's columns, in the order of `toParams`. */
  readonly columns: readonly string[];
  /** `INSERT INTO table (every column) VALUES (?, …)`; its parameters come from `toParams`. */
  readonly insertSql: string;
  toParams(record: T): SqlParam[];
  fromRow(row: Row): T;
}

/** camelCase record field → snake_case column. */
export function snakeCase(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Builds a table's mapper; the schema names every field of the record, so a new field cannot be forgotten. */
export function rowMapper<T>(table: string, schema: { [K in keyof T]-?: Column<T[K]> }): RowMapper<T> {
  const fields = Object.keys(schema) as Array<keyof T & string>;
  const columns = fields.map(snakeCase);
  return {
    table,
    columns,
    insertSql: `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    toParams: (record) => fields.map((f) => schema[f].toSql(record[f])),
    // Runs for every row read (the Session, three times per call): the column names are derived once, above.
    fromRow: (row) => {
      const record = {} as T;
      for (let i = 0; i < fields.length; i++) record[fields[i]!] = schema[fields[i]!].fromSql(row[columns[i]!]);
      return record;
    },
  };
}
