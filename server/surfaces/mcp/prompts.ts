// A few prompts for what people most often ask an agent to do with Folio. Each names the tools it needs and is
// offered only to a key that has them; a prompt about a transcript attaches it, read through its route.
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Reader, TemplateResource } from './resources.js';

type Args = Record<string, string | undefined>;

export type FolioPrompt = {
  name: string;
  title: string;
  description: string;
  /** Tools the prompt asks the model to call; it is offered when the key may call all of them. */
  needs: string[];
  args: Record<string, z.ZodType<string | undefined>>;
  messages(args: Args, reader: Reader, templates: TemplateResource[]): Promise<GetPromptResult['messages']>;
};

const say = (text: string): GetPromptResult['messages'][number] => ({
  role: 'user',
  content: { type: 'text', text },
});

export const prompts: FolioPrompt[] = [
  {
    name: 'publish_chart',
    title: 'Publish this data as a chart',
    description: 'Turn data (CSV, JSON or a table) into a published Folio chart and answer its page URL',
    needs: ['charts_preview', 'charts_publish'],
    args: {
      data: z.string().describe('The data: CSV, JSON rows or a table'),
      title: z.string().optional().describe('The chart title'),
    },
    messages: async ({ data, title }) => [
      say(
        `Publish this data as a chart with Folio${title ? ` titled "${title}"` : ''}. Write a Vega-Lite spec with the data inline (read folio://reference/charts for what Folio accepts), check it with charts_preview, fix any issue it reports, then publish it with charts_publish and give me the page URL.\n\nData:\n${data}`,
      ),
    ],
  },
  {
    name: 'draw_diagram',
    title: 'Draw a diagram',
    description: 'Lay out and publish a diagram from a description of its boxes and arrows',
    needs: ['diagrams_layout', 'diagrams_publish'],
    args: { description: z.string().describe('What the diagram shows: its nodes and how they connect') },
    messages: async ({ description }) => [
      say(
        `Draw this as a Folio diagram: ${description}\n\nRead folio://diagrams/vocabulary, lay the graph out with diagrams_layout, publish the SVG with diagrams_publish and give me the page URL.`,
      ),
    ],
  },
  {
    name: 'transcribe_file',
    title: 'Transcribe an audio file',
    description: 'Transcribe a local audio or video file and summarise it with timestamps',
    needs: ['transcripts_create'],
    args: { path: z.string().describe('Absolute path of the audio or video file') },
    messages: async ({ path }) => [
      say(
        `Transcribe ${path} with transcripts_create, then give me a short summary and the key moments with their timestamps.`,
      ),
    ],
  },
  {
    name: 'summarize_transcript',
    title: 'Summarise a transcript',
    description: 'Summarise a Folio transcript, attached to the conversation',
    needs: ['transcripts_get'],
    args: { id: z.string().describe('The transcript id (trn_...)') },
    async messages({ id }, reader, templates) {
      const template = templates.find((t) => t.name === 'transcripts');
      const uri = `folio://transcripts/${encodeURIComponent(id ?? '')}`;
      const attached = template ? await template.read(id ?? '', reader) : undefined;
      return [
        ...(attached
          ? [
              {
                role: 'user' as const,
                content: { type: 'resource' as const, resource: { uri, ...attached } },
              },
            ]
          : []),
        say('Summarise this transcript: the main points in order, with the timestamps where each starts.'),
      ];
    },
  },
];
