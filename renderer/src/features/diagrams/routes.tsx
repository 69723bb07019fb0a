import { Network } from 'lucide-react';
import { PublicationBrowser } from '../../ui/publication/publication-browser';
import { diagramHooks } from './hooks';

export default function DiagramsScreen() {
  return (
    <PublicationBrowser
      section="diagrams"
      title="Diagrams"
      singular="Diagram"
      description="Diagrams your agents publish: sanitized SVG in a themed style, each version kept."
      icon={<Network size={20} />}
      hooks={diagramHooks}
      hasKinds
      renderPreview={(item, version) =>
        item.urls.svg ? (
          <img src={`${item.urls.svg}?version=${version}`} alt={`Diagram: ${item.title}`} />
        ) : null
      }
      agentHint={
        <>
          An agent with a key for the <code>diagrams</code> service publishes with{' '}
          <code>POST /api/v1/diagrams</code> or the MCP tool <code>diagrams_publish</code>.
        </>
      }
    />
  );
}
