// Routes, each screen code-split so the first load carries only the frame and the screen opened.
import { createBrowserRouter } from 'react-router';
import { AppFrame, Splash } from './app-frame';
import { RouteError } from './route-error';

const screen = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({
  Component: (await load()).default,
});

export const router = createBrowserRouter([
  {
    path: '/',
    element: <AppFrame />,
    hydrateFallbackElement: <Splash />,
    errorElement: <RouteError />,
    children: [
      { index: true, lazy: screen(() => import('../features/getting-started/routes')) },
      { path: 'assets/:id?', lazy: screen(() => import('../features/assets/routes')) },
      { path: 'transcripts/:id?', lazy: screen(() => import('../features/transcripts/routes')) },
      { path: 'dictation', lazy: screen(() => import('../features/realtime/routes')) },
      { path: 'diagrams/:slug?', lazy: screen(() => import('../features/diagrams/routes')) },
      { path: 'charts/:slug?', lazy: screen(() => import('../features/charts/routes')) },
      { path: 'artifacts/:slug?', lazy: screen(() => import('../features/artifacts/routes')) },
      { path: 'keys/:id?', lazy: screen(() => import('../features/keys/routes')) },
      { path: 'models', lazy: screen(() => import('../features/models/routes')) },
      { path: 'workspaces', lazy: screen(() => import('../features/workspaces/routes')) },
      { path: 'sync', lazy: screen(() => import('../features/sync/routes')) },
      { path: 'owner', lazy: screen(() => import('../features/owner/routes')) },
      { path: 'settings', lazy: screen(() => import('../features/settings/routes')) },
      { path: 'profile', lazy: screen(() => import('../features/account/routes')) },
      { path: '*', lazy: screen(() => import('./not-found')) },
    ],
  },
]);
