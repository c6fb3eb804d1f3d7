/**
 * The staff console's own tables (../shared/CONSOLE.md, docs/product.md): announcements with their reads and responses, each
 * user's settings, the task templates and the Excel imports. Part of `Database` (schema.ts).
 */
import type { Generated } from 'kysely';
import type { ResponseStatus } from '../../contract/announcements.ts';

type Id = Generated<number>;

export interface AnnouncementsTable {
  id: Id;
  company_id: number | null;
  author_id: number | null;
  title: string;
  body: string;
  created_at: string;
  /** 0/1: drivers are asked to respond (confirm they read it, or answer). */
  requires_response: Generated<number>;
}

export interface AnnouncementReadsTable {
  id: Id;
  announcement_id: number;
  user_id: number;
  read_at: string;
}

export interface AnnouncementResponsesTable {
  id: Id;
  announcement_id: number;
  user_id: number;
  text: string | null;
  status: ResponseStatus;
  created_at: string;
  decided_at: string | null;
  decided_by: number | null;
}

/** A user's own settings (migration 008): the alerts they want, JSON of contract/alerts.ts AlertSettings. */
export interface UserSettingsTable {
  user_id: number;
  alerts: string;
  updated_at: string;
}

/** A company's task template: a name and a task's fields without its date (JSON of contract/calls/tasks.ts). */
export interface TaskTemplatesTable {
  id: Id;
  company_id: number;
  name: string;
  fields: string;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

/** An Excel file imported into a company's tasks, by its SHA-256 (the same file twice is refused). */
export interface TaskImportsTable {
  id: Id;
  company_id: number;
  file_hash: string;
  file_name: string;
  tasks: number;
  created_by: number | null;
  created_at: string;
}
