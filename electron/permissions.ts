/**
 * Which browser permissions the window grants: the microphone for dictation and clipboard writes for the copy
 * buttons, and only to the dashboard's own origin. Everything else (camera, location, notifications from
 * pages, MIDI ...) is refused.
 */
import { isLocalUrl } from './navigation.js';

const ALLOWED = new Set(['media', 'clipboard-sanitized-write']);

export function allowPermission(
  permission: string,
  requestingUrl: string,
  origin: string,
  details: { mediaTypes?: string[] } = {},
): boolean {
  if (!ALLOWED.has(permission) || !isLocalUrl(requestingUrl, origin)) return false;
  if (permission === 'media') return (details.mediaTypes ?? ['audio']).every((t) => t === 'audio');
  return true;
}
