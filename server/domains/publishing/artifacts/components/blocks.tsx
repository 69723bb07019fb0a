/** One component per catalog entry, chosen by `type`; containers render their children through `Blocks`. */
import type { ReactNode } from 'react';
import { CodeBlock } from './code-block.js';
import { Chart, Diagram, Metric, Table } from './data-blocks.js';
import { Accordion, Grid, Tabs } from './layout-blocks.js';
import { MarkdownText } from './markdown.js';
import { Audio, Image, Links } from './media-blocks.js';
import { Callout, Heading, Timeline } from './text-blocks.js';

// biome-ignore lint/suspicious/noExplicitAny: props were checked against the component's JSON Schema before rendering
type Props = any;

const render = (children: unknown[], pointer: string): ReactNode => (
  <Blocks list={children} pointer={pointer} />
);

export function Block({ node, pointer }: { node: Props; pointer: string }) {
  switch (node.type) {
    case 'heading':
      return <Heading {...node} />;
    case 'markdown':
      return <MarkdownText text={node.text} />;
    case 'callout':
      return <Callout {...node} />;
    case 'metric':
      return <Metric {...node} />;
    case 'table':
      return <Table {...node} />;
    case 'chart':
      return <Chart pointer={pointer} caption={node.caption} />;
    case 'diagram':
      return <Diagram pointer={pointer} caption={node.caption} />;
    case 'image':
      return <Image pointer={pointer} alt={node.alt} caption={node.caption} />;
    case 'audio':
      return <Audio pointer={pointer} title={node.title} />;
    case 'code':
      return <CodeBlock {...node} />;
    case 'tabs':
      return <Tabs tabs={node.tabs} pointer={pointer} render={render} />;
    case 'accordion':
      return <Accordion items={node.items} pointer={pointer} render={render} />;
    case 'grid':
      return (
        <Grid columns={node.columns} pointer={pointer} render={render}>
          {node.children}
        </Grid>
      );
    case 'links':
      return <Links items={node.items} style={node.style} />;
    case 'timeline':
      return <Timeline items={node.items} />;
    default:
      return null;
  }
}

export function Blocks({ list, pointer }: { list: unknown[]; pointer: string }) {
  return (
    <>
      {list.map((node, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a document's components are positional
        <Block key={i} node={node} pointer={`${pointer}/${i}`} />
      ))}
    </>
  );
}
