// The dashboard's only fetch: same-origin, with the session cookie and the chosen workspace, turning the
// server's `{ error }` bodies into a typed ApiError (docs/api.md, "Errors").
import { filenameFromDisposition } from './download-filename';
import { currentWorkspaceId } from './workspace-store';

export type ApiIssue = { path: string; message: string };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
  get issues(): ApiIssue[] {
    return Array.isArray(this.body.issues) ? (this.body.issues as ApiIssue[]) : [];
  }
}

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  signal?: AbortSignal;
  /** Send no X-Folio-Workspace (account-wide calls like the workspace list). */
  noWorkspace?: boolean;
  /** Act on this workspace rather than the chosen one (a watched folder's destination). */
  workspace?: string;
};

export function apiUrl(path: string, query?: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {}))
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

export function workspaceHeaders(noWorkspace = false): Record<string, string> {
  const id = noWorkspace ? null : currentWorkspaceId();
  return id ? { 'X-Folio-Workspace': id } : {};
}

/** Sends a request and answers the parsed JSON (undefined for 204); throws ApiError for any error status. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    ...(options.workspace
      ? { 'X-Folio-Workspace': options.workspace }
      : workspaceHeaders(options.noWorkspace)),
  };
  let body: BodyInit | undefined;
  if (options.body instanceof Blob || options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(apiUrl(path, options.query), {
    method: options.method ?? 'GET',
    headers,
    body,
    signal: options.signal,
    credentials: 'same-origin',
  });
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const json = text ? parseJson(text) : undefined;
  if (!response.ok) throw toApiError(response.status, json, response.statusText);
  return json as T;
}

export function toApiError(status: number, json: unknown, fallback: string): ApiError {
  const body = (json && typeof json === 'object' ? json : {}) as Record<string, unknown>;
  const message = typeof body.error === 'string' ? body.error : fallback || `Request failed (${status})`;
  return new ApiError(status, message, body);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { error: text.slice(0, 200) };
  }
}

export const isApiError = (error: unknown, status?: number): error is ApiError =>
  error instanceof ApiError && (status === undefined || error.status === status);

/** Downloads a file from the API (exports need the workspace header, so a plain link cannot fetch them). */
export async function apiDownload(path: string, query?: RequestOptions['query']): Promise<void> {
  const response = await fetch(apiUrl(path, query), {
    headers: workspaceHeaders(),
    credentials: 'same-origin',
  });
  if (!response.ok)
    throw toApiError(response.status, await response.json().catch(() => undefined), response.statusText);
  const name = filenameFromDisposition(response.headers.get('content-disposition'));
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
