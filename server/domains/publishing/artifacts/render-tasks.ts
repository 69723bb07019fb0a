/** The artifact tasks a render worker runs (render-pool.ts loads this module in each worker). */
import { renderPreviewCard } from '../pages/preview-card.js';
import { renderArtifactPage } from './render-page.js';
import { validateArtifact } from './validate-document.js';

export const renderTasks = {
  'artifacts.check': validateArtifact,
  'artifacts.page': renderArtifactPage,
  'artifacts.card': renderPreviewCard,
};
