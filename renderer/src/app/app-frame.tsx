// The root of every screen: who is signed in decides between the sign-in states and the app.
import { Suspense } from 'react';
import { isApiError } from '../api/client';
import { useMe } from '../api/me';
import { SignedOutScreen } from '../features/account/components/signed-out-screen';
import { WaitingScreen } from '../features/account/components/waiting-screen';
import { ErrorState, Spinner } from '../ui/states';
import { AppShell } from './app-shell';

export function AppFrame() {
  const me = useMe();
  if (me.isPending) return <Splash />;
  if (me.isError) {
    if (isApiError(me.error, 401)) return <SignedOutScreen />;
    return (
      <div className="splash">
        <ErrorState title="Folio could not be reached" error={me.error} onRetry={() => me.refetch()} />
      </div>
    );
  }
  if (!me.data.isApproved) return <WaitingScreen email={me.data.email} />;
  return (
    <Suspense fallback={<Splash />}>
      <AppShell profile={me.data.profile} />
    </Suspense>
  );
}

export function Splash() {
  return (
    <div className="splash">
      <Spinner size={20} label="Loading Folio" />
    </div>
  );
}
