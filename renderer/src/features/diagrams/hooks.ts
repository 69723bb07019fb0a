import type { PublicationHooks } from '../../ui/publication/publication-hooks';
import { useArchiveDiagram } from './api/archive-diagram';
import { useDiagram } from './api/get-diagram';
import { useDiagramVersions } from './api/list-diagram-versions';
import { useDiagrams } from './api/list-diagrams';
import { useDiagramVisibility } from './api/set-diagram-visibility';

export const diagramHooks: PublicationHooks = {
  useList: useDiagrams,
  useOne: useDiagram,
  useVersions: useDiagramVersions,
  useVisibility: useDiagramVisibility,
  useArchive: useArchiveDiagram,
};
