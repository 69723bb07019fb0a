import type { PublicationHooks } from '../../ui/publication/publication-hooks';
import { useArchiveArtifact } from './api/archive-artifact';
import { useArtifact } from './api/get-artifact';
import { useArtifactVersions } from './api/list-artifact-versions';
import { useArtifacts } from './api/list-artifacts';
import { useArtifactVisibility } from './api/set-artifact-visibility';

export const artifactHooks: PublicationHooks = {
  useList: useArtifacts,
  useOne: useArtifact,
  useVersions: useArtifactVersions,
  useVisibility: useArtifactVisibility,
  useArchive: useArchiveArtifact,
};
