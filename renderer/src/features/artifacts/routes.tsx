import { LayoutPanelLeft } from 'lucide-react';
import { PublicationBrowser } from '../../ui/publication/publication-browser';
import { artifactHooks } from './hooks';

export default function ArtifactsScreen() {
  return (
    <PublicationBrowser
      section="artifacts"
      title="Artifacts"
      singular="Artifact"
      description="Interactive pages your agents compose from the component catalog, served under a strict sandbox."
      icon={<LayoutPanelLeft size={20} />}
      hooks={artifactHooks}
      renderPreview={(item, version) => (
        // The page runs in an opaque origin (no allow-same-origin): it can never reach the dashboard's session.
        <iframe
          title={`Artifact: ${item.title}`}
          sandbox="allow-scripts"
          src={`${item.urls.page}?version=${version}`}
        />
      )}
      agentHint={
        <>
          An agent with a key for the <code>artifacts</code> service publishes with{' '}
          <code>POST /api/v1/artifacts</code> or the MCP tool <code>artifacts_publish</code>.
        </>
      }
    />
  );
}
