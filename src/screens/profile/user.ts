/** The server sends the role as {name}; the UI wants the name (docs/product.md §3). */
import type { User, UserWire } from '../../../contract/entities.ts';

export function flattenUser(wire: UserWire | User): User {
  return { ...wire, role: typeof wire.role === 'string' ? wire.role : wire.role.name };
}
