import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/tokens.css';
import './ui/base.css';
import './ui/ui.css';
import './app/app.css';
import { Providers } from './app/providers';
import { followSystemTheme } from './app/theme';

followSystemTheme();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers />
  </StrictMode>,
);
