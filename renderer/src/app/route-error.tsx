import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorState } from '../ui/states';

/** A screen that failed to load or render; the rest of the app stays usable after a reload. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error;
  return (
    <div className="splash">
      <ErrorState
        title="Something went wrong on this screen"
        error={message}
        onRetry={() => window.location.reload()}
      />
    </div>
  );
}
