import { lazy, Suspense, useEffect, useState } from 'react';
import { RouterProvider as AriaRouterProvider } from 'react-aria-components';
import { Outlet, useHref, useNavigate, useNavigation } from 'react-router';
import type { Profile } from '../api/types';
import { Sidebar } from './sidebar';

// cmdk and its dialog load on first use: nothing of the palette is on the first load.
const CommandPalette = lazy(() => import('./command-palette'));

export function AppShell({ profile }: { profile: Profile }) {
  const navigate = useNavigate();
  const navigation = useNavigation();
  const [paletteOpen, setPaletteOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setPaletteOpen((open) => !open);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <AriaRouterProvider navigate={(to) => navigate(to)} useHref={useHref}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="app">
        <Sidebar profile={profile} onOpenPalette={() => setPaletteOpen(true)} />
        <main className="main" id="main" tabIndex={-1}>
          {navigation.state === 'loading' && (
            <div className="nav-progress" role="progressbar" aria-label="Loading screen" />
          )}
          <Outlet />
        </main>
      </div>
      {paletteOpen && (
        <Suspense fallback={null}>
          <CommandPalette
            open={paletteOpen}
            onOpenChange={setPaletteOpen}
            isOwner={profile.isInstanceOwner}
          />
        </Suspense>
      )}
    </AriaRouterProvider>
  );
}
