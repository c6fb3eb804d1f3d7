/** The helper text under a control that is disabled while the server cannot be reached (a title shows on hover only). */
import { NEEDS_SERVER } from '../engine/use-online.ts';

export function NeedsServerHint({ offline, what }: { offline: boolean; what?: string }) {
  if (!offline) return null;
  return <p className="needs-server">{what ? `${NEEDS_SERVER}, чтобы ${what}` : NEEDS_SERVER}</p>;
}
