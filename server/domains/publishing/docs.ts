/** Reference notes for /llms.txt and /llms-full.txt: what diagrams, charts and artifacts share, and a minimal example of each to copy. */

export const publishingRules = `Published items (diagrams, charts, artifacts) are identified by a slug unique on this Folio (a-z, 0-9, -; 409 when taken; generated from the title when left out). PUT /:slug publishes version N+1; every version stays readable with ?version=N on the API and on pages; answers carry \`version\` and \`latestVersion\`. New items are private: only a person (a session) can make them unlisted or public (POST /:slug/visibility); a key gets 403. Pages: /d/<slug> (+ .svg, .png), /c/<slug> (+ .svg, .png), /a/<slug> (+ .png card); private pages open only for the owner's session, archived ones answer 404. Return the page URL (\`urls.page\`) to the user. No DELETE: archive instead.`;

export const diagramSummary = `Diagrams are SVG written with a small class vocabulary (GET /api/v1/diagrams/vocabulary) that the server themes light and dark; or let POST /api/v1/diagrams/layout (ELK) place nodes and route edges and answer a ready SVG. Preview before publishing: POST /api/v1/diagrams/preview. ${publishingRules}`;

export const chartSummary =
  'Charts are Vega-Lite specs, validated against the Vega-Lite schema (errors as JSON pointers) and rendered to SVG and PNG on the server; /c/<slug> is interactive (tooltips, selections). Data inline as "values", or a CSV/JSON asset of the workspace as "url": "asset:<asset id>" (a key needs the assets service too); other URLs are refused. Preview: POST /api/v1/charts/preview.';

export const artifactSummary =
  'Artifacts are pages composed from 15 components (GET /api/v1/artifacts/components: heading, markdown, callout, metric, table, chart, diagram, image, audio, code, tabs, accordion, grid, links, timeline), checked with POST /api/v1/artifacts/validate (every problem with its JSON pointer) and rendered by the server at /a/<slug>. No script, style or raw HTML from the document ever reaches the page.';

export const diagramDocs = `### Minimal diagram

    curl -s $BASE/api/v1/diagrams -H "Authorization: Bearer $FOLIO_KEY" -H 'content-type: application/json' -d '{
      "title": "Upload flow", "kind": "flowchart",
      "svg": "<svg viewBox=\\"0 0 420 80\\"><rect class=\\"node\\" x=\\"0\\" y=\\"10\\" width=\\"140\\" height=\\"56\\" rx=\\"8\\"/><text class=\\"label\\" x=\\"70\\" y=\\"38\\">Browser</text><path class=\\"edge\\" d=\\"M140,38 L270,38\\"/><g class=\\"ok\\"><rect class=\\"node\\" x=\\"270\\" y=\\"10\\" width=\\"150\\" height=\\"56\\" rx=\\"8\\"/><text class=\\"label\\" x=\\"345\\" y=\\"38\\">Folio</text></g></svg>"
    }'

### Laid out by the server

    curl -s $BASE/api/v1/diagrams/layout -H "Authorization: Bearer $FOLIO_KEY" -H 'content-type: application/json' -d '{
      "format": "svg", "direction": "right", "title": "Checkout",
      "nodes": [{ "id": "web", "label": "Web app" }, { "id": "api", "label": "API", "tone": "emphasis" }, { "id": "db", "label": "Orders", "shape": "store" }],
      "edges": [{ "from": "web", "to": "api", "label": "HTTPS" }, { "from": "api", "to": "db" }]
    }'
    # → { width, height, nodes, edges, svg }: POST the svg to /api/v1/diagrams as is.

${publishingRules}`;

export const chartDocs = `### Minimal chart

    curl -s $BASE/api/v1/charts -H "Authorization: Bearer $FOLIO_KEY" -H 'content-type: application/json' -d '{
      "title": "Revenue by quarter",
      "spec": {
        "data": { "values": [{ "q": "Q1", "r": 120 }, { "q": "Q2", "r": 160 }, { "q": "Q3", "r": 150 }] },
        "mark": "bar",
        "encoding": { "x": { "field": "q", "type": "nominal" }, "y": { "field": "r", "type": "quantitative" }, "tooltip": [{ "field": "r" }] }
      }
    }'

Data from an uploaded CSV: \`"data": { "url": "asset:ast_..." }\` (the asset must be in the key's workspace, and the key needs the \`assets\` service as well as \`charts\`, else 403 naming it). At most 200,000 rows.`;

export const artifactDocs = `### Minimal artifact

    curl -s $BASE/api/v1/artifacts -H "Authorization: Bearer $FOLIO_KEY" -H 'content-type: application/json' -d '{
      "title": "Q3 review",
      "document": { "children": [
        { "type": "heading", "text": "Q3 review", "level": 1 },
        { "type": "grid", "columns": 2, "children": [
          { "type": "metric", "label": "Revenue", "value": 1240, "unit": "k€", "delta": 18, "deltaLabel": "% vs Q2" },
          { "type": "metric", "label": "Churn", "value": 2.1, "unit": "%", "delta": -0.4, "goodWhen": "down" } ] },
        { "type": "markdown", "text": "Revenue grew **18 %**, led by EU subscriptions." },
        { "type": "chart", "slug": "revenue-by-quarter" }
      ] }
    }'

Validate first with POST /api/v1/artifacts/validate { "document": ... } → { valid, issues: [{ path, message }] }.`;
