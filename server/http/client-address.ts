// The client's address: the peer's, unless the peer is a proxy the operator trusts (FOLIO_TRUSTED_PROXIES), in
// which case X-Forwarded-For is read from the right, skipping trusted hops, to the first address no trusted proxy
// vouches for. Anything a client writes further left is never believed.
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

export type ProxyTrust = (address: string) => boolean;

/** Parses `127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`; throws naming an entry that is neither. */
export function trustProxies(entries: string[]): ProxyTrust | undefined {
  if (entries.length === 0) return undefined;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split('/');
    const family = isIP(address ?? '');
    if (!family || (bits !== undefined && !/^\d{1,3}$/.test(bits)))
      throw new Error(`FOLIO_TRUSTED_PROXIES: "${entry}" is not an address or a CIDR range`);
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address!, type);
    else list.addSubnet(address!, Number(bits), type);
  }
  return (address) => {
    const plain = address.replace(/^::ffff:(?=\d+\.)/, '');
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };
}

export function clientAddress(req: IncomingMessage, trusted: ProxyTrust | undefined): string {
  const peer = req.socket.remoteAddress ?? '';
  if (!trusted?.(peer)) return peer;
  const forwarded = String(req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  for (let i = forwarded.length - 1; i >= 0; i--) if (!trusted(forwarded[i]!)) return forwarded[i]!;
  return forwarded[0] ?? peer;
}
