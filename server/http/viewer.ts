// Who is calling, after authentication (authenticate.ts) and workspace resolution (authorize.ts).
export const SERVICE_NAMES = [
  'assets',
  'transcription',
  'realtime',
  'diagrams',
  'artifacts',
  'charts',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** Credentials a route can accept. `workspaceOwner` = a session that owns the workspace in `:id`. */
export type Credential = 'public' | 'session' | 'key' | 'grant' | 'workspaceOwner' | 'instanceOwner';

export type GrantInfo = { id: string; purpose: string; workspaceId: string; [field: string]: unknown };

export type Viewer =
  | { kind: 'public' }
  | {
      kind: 'session';
      sessionId: string;
      email: string;
      userId: string | null;
      approved: boolean;
      isInstanceOwner: boolean;
    }
  | { kind: 'key'; keyId: string; workspaceId: string; services: ServiceName[] }
  | { kind: 'grant'; grant: GrantInfo };

export type WorkspaceRef = { id: string; name: string; ownerId: string };

/** The services a caller acts with: a key its own, a session every one, anyone else none. */
export const servicesOf = (viewer: Viewer): readonly ServiceName[] =>
  viewer.kind === 'key' ? viewer.services : viewer.kind === 'session' ? SERVICE_NAMES : [];
