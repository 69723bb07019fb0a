// A minimal MCP Apps host for the Chromium test, bundled by esbuild: the ext-apps AppBridge drives a view in a
// sandboxed iframe (as Claude, VS Code and other hosts do) and forwards its tools/call to the test's MCP client.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

declare global {
  interface Window {
    folioCallTool(name: string, args: unknown): Promise<CallToolResult>;
    folioOpenLink(url: string): Promise<void>;
    showView(html: string, input: Record<string, unknown>, result: CallToolResult): Promise<void>;
  }
}

window.showView = async (html, input, result) => {
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.style.cssText = 'width: 720px; height: 520px; border: 1px solid #ccc';
  document.body.append(iframe);
  const view = iframe.contentWindow as Window;
  const bridge = new AppBridge(
    null,
    { name: 'folio-test-host', version: '1.0.0' },
    { openLinks: {}, serverTools: {} },
  );
  bridge.oncalltool = (params) => window.folioCallTool(params.name, params.arguments ?? {});
  bridge.onopenlink = async ({ url }) => {
    await window.folioOpenLink(url);
    return {};
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  await bridge.connect(new PostMessageTransport(view, view));
  iframe.srcdoc = html;
  await initialized;
  await bridge.sendToolInput({ arguments: input });
  await bridge.sendToolResult(result);
};
