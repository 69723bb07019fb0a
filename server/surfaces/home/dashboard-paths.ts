/**
 * The dashboard's client-side sections (renderer/src/app/nav.ts and router.tsx). A signed-in GET of any of
 * them, or anything below them, is answered with the dashboard's page; the API, serve and page routes keep
 * their own paths. Listed one by one rather than caught all, so unknown paths stay JSON 404s and the
 * router's 405s stay right.
 */
export const DASHBOARD_SECTIONS = [
  'assets',
  'transcripts',
  'dictation',
  'diagrams',
  'charts',
  'artifacts',
  'keys',
  'models',
  'workspaces',
  'sync',
  'owner',
  'settings',
  'profile',
] as const;
