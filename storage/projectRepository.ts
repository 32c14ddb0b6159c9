import type { ProjectRecord, ProjectStore } from '../gateway/core/index.js';
import { idList, rowMapper, text } from './rowMapper.js';
import type { SqlExecutor } from './sqlExecutor.js';

const projects = rowMapper<ProjectRecord>('projects', {
  id: text,
  name: text,
  connectors: idList,
  createdAt: text,
  updatedAt: text,
});

/** Projects in a SQL database (embedded or PostgreSQL). */
export class ProjectRepository implements ProjectStore {
  constructor(private readonly db: SqlExecutor) {}

  async get(id: string): Promise<ProjectRecord | undefined> {
    const row = (await this.db.all('SELECT * FROM projects WHERE id = ?', [id]))[0];
    return row ? projects.fromRow(row) : undefined;
  }

  async list(): Promise<ProjectRecord[]> {
    return (await this.db.all('SELECT * FROM projects ORDER BY id')).map(projects.fromRow);
  }

  async create(project: ProjectRecord): Promise<void> {
    await this.db.write(projects.insertSql, projects.toParams(project));
  }

  async update(p: ProjectRecord): Promise<void> {
    await this.db.write('UPDATE projects SET name = ?, connectors = ?, updated_at = ? WHERE id = ?', [
      p.name, idList.toSql(p.connectors), p.updatedAt, p.id,
    ]);
  }
}
