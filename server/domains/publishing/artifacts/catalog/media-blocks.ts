/** Media and navigation components: image, audio, links. */
import { type ComponentSpec, component, text } from './types.js';

const AssetId = { type: 'string', pattern: '^ast_[A-Za-z0-9_-]{1,64}$' };

export const image: ComponentSpec = {
  name: 'image',
  description:
    'An image asset of this workspace, responsive, with alt text (required: describe what it shows).',
  schema: component(
    'image',
    {
      asset: { ...AssetId, description: 'An image asset id (ast_...).' },
      alt: text('What the image shows, for people who cannot see it.', 300),
      caption: text('A caption under the image.', 200),
    },
    ['asset', 'alt'],
  ),
  example: {
    type: 'image',
    asset: 'ast_3fQk9ZbR2m',
    alt: 'The new checkout page on a phone',
    caption: 'Checkout, v2',
  },
};

export const audio: ComponentSpec = {
  name: 'audio',
  description:
    'An audio asset with a player; with a transcript of it, the words show beside it and highlight as it plays.',
  schema: component(
    'audio',
    {
      asset: { ...AssetId, description: 'An audio asset id (ast_...).' },
      transcript: {
        type: 'string',
        pattern: '^[A-Za-z0-9_-]{1,64}$',
        description: 'A completed transcript id of this audio.',
      },
      title: text('What the recording is.', 120),
    },
    ['asset'],
  ),
  example: {
    type: 'audio',
    asset: 'ast_7Hs2LmQp0x',
    transcript: 'trn_5kDq2PzT8w',
    title: 'Customer interview, 12 Sep',
  },
};

export const links: ComponentSpec = {
  name: 'links',
  description: 'A list of links or a row of buttons (http, https, mailto). Open in a new tab.',
  schema: component(
    'links',
    {
      style: { type: 'string', enum: ['list', 'buttons'], default: 'list' },
      items: {
        type: 'array',
        minItems: 1,
        maxItems: 30,
        items: {
          type: 'object',
          properties: {
            label: text('The link text.', 120),
            href: {
              type: 'string',
              maxLength: 2000,
              pattern: '^(https?:|mailto:)',
              description: 'http(s) or mailto URL.',
            },
            description: text('One line about where it goes.', 200),
          },
          required: ['label', 'href'],
          additionalProperties: false,
        },
      },
    },
    ['items'],
  ),
  example: {
    type: 'links',
    style: 'buttons',
    items: [
      { label: 'Open the dashboard', href: 'https://example.com/dash' },
      { label: 'Email finance', href: 'mailto:finance@example.com' },
    ],
  },
};
