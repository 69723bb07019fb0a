import { BarChart3 } from 'lucide-react';
import { PublicationBrowser } from '../../ui/publication/publication-browser';
import { chartHooks } from './hooks';

export default function ChartsScreen() {
  return (
    <PublicationBrowser
      section="charts"
      title="Charts"
      singular="Chart"
      description="Data-driven charts your agents publish, rendered on this machine, interactive on their pages."
      icon={<BarChart3 size={20} />}
      hooks={chartHooks}
      renderPreview={(item, version) =>
        item.urls.svg ? (
          <img src={`${item.urls.svg}?version=${version}`} alt={`Chart: ${item.title}`} />
        ) : null
      }
      agentHint={
        <>
          An agent with a key for the <code>charts</code> service publishes a Vega-Lite document with{' '}
          <code>POST /api/v1/charts</code> or the MCP tool <code>charts_publish</code>.
        </>
      }
    />
  );
}
