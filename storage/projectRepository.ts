import type { SqlValue } from 'sql.js';
import type { ProjectRecord, ProjectStore } from '../gateway/core/index.js';
import type { SqlDatabase } from './sqlDatabase.js';

/** Projects in the embedded database. */
export class ProjectRepository implements ProjectStore {
  constructor(private readonly db: SqlDatabase) {}

  get(id: string): ProjectRecord | undefined {
    const row = this.db.all('SELECT * FROM projects WHERE id = ?', [id])[0];
    return row ? toProject(row) : undefined;
  }

  list(): ProjectRecord[] {
    return this.db.all('SELECT * FROM projects ORDER BY id').map(toProject);
  }

  create(p: ProjectRecord): Promise<void> {
    return this.db.write('INSERT INTO projects (id, name, connectors, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [
      p.id,
      p.name,
      selectionJson(p.connectors),
      p.createdAt,
      p.updatedAt,
    ]);
  }

  update(p: ProjectRecord): Promise<void> {
    return this.db.write('UPDATE projects SET name = ?, connectors = ?, updated_at = ? WHERE id = ?', [
      p.name,
      selectionJson(p.connectors),
      p.updatedAt,
      p.id,
    ]);
  }
}

function selectionJson(connectors: string[] | null): string | null {
  return connectors === null ? null : JSON.stringify(connectors);
}

function toProject(row: Record<string, SqlValue>): ProjectRecord {
  return {
    id: String(row.id),
    name: String(row.name),
    connectors: row.connectors === null ? null : (JSON.parse(String(row.connectors)) as string[]),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  };
}
