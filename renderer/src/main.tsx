import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/tokens.css';
import './ui/base.css';
import './ui/ui.css';
import './app/app.css';
import { meQuery } from './api/me';
import { Providers } from './app/providers';
import { queryClient } from './app/query-client';
import { followSystemTheme } from './app/theme';

followSystemTheme();
// Who is signed in is asked for while the first screen's code loads, not after.
void queryClient.prefetchQuery(meQuery());
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers />
  </StrictMode>,
);
