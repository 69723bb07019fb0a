// Live MCP sessions, each bound to the key that opened it: another key presenting its id finds nothing. A session
// nobody has used for `idleMs` (and with no request or stream open) is closed, and past `max` sessions the least
// recently used goes first, so clients that vanish without DELETE cannot pile sessions up.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SessionTransport } from './session-transport.js';

export type Session = {
  id: string;
  keyId: string;
  server: McpServer;
  transport: SessionTransport;
  lastSeen: number;
  /** Requests in flight, open SSE streams included. */
  active: number;
};

export type SessionLimits = { idleMs: number; max: number };

export function createSessionRegistry({ idleMs, max }: SessionLimits) {
  const sessions = new Map<string, Session>();

  async function close(session: Session): Promise<void> {
    sessions.delete(session.id);
    await session.server.close().catch(() => undefined);
  }

  function add(session: Session): void {
    sessions.set(session.id, session);
    if (sessions.size <= max) return;
    const oldest = [...sessions.values()]
      .filter((s) => s.active === 0 && s !== session)
      .sort((a, b) => a.lastSeen - b.lastSeen)[0];
    if (oldest) void close(oldest);
  }

  /** The session with this id, if the same key opened it. */
  function find(id: string, keyId: string): Session | undefined {
    const session = sessions.get(id);
    return session?.keyId === keyId ? session : undefined;
  }

  /** Counts a request as in flight for the idle sweep while `work` runs. */
  async function using<T>(session: Session, work: () => Promise<T>): Promise<T> {
    session.active++;
    session.lastSeen = Date.now();
    try {
      return await work();
    } finally {
      session.active--;
      session.lastSeen = Date.now();
    }
  }

  async function sweep(now = Date.now()): Promise<number> {
    const idle = [...sessions.values()].filter((s) => s.active === 0 && now - s.lastSeen > idleMs);
    await Promise.all(idle.map(close));
    return idle.length;
  }

  return {
    add,
    find,
    using,
    sweep,
    forget: (id: string | undefined) => void (id && sessions.delete(id)),
    closeAll: () => Promise.all([...sessions.values()].map(close)),
    get size() {
      return sessions.size;
    },
  };
}

export type SessionRegistry = ReturnType<typeof createSessionRegistry>;
