/**
 * A document's moves (docs/documents.md «The states»), pure: which state each action may start from, and the Russian
 * 409 for every other. The store applies a move only with a conditional update on the state it read, so two tabs (or
 * two instances) cannot both make it.
 */
import { DOCUMENT_STATE_LABELS, type DocumentState } from '../../contract/documents.ts';

export type DocumentAction = 'ready' | 'send' | 'accept' | 'reject' | 'annul';

/** From which states each action may move a document, and where to. */
export const MOVES: Record<DocumentAction, { from: readonly DocumentState[]; to: DocumentState }> = {
  // A draft made ready; a rejected one made ready again once the fix is in (a new file, a new key).
  ready: { from: ['draft', 'rejected'], to: 'ready' },
  // Only the operator adapter sends, and only what is ready.
  send: { from: ['ready'], to: 'sent' },
  accept: { from: ['sent'], to: 'accepted' },
  reject: { from: ['sent'], to: 'rejected' },
  // Not while the operator has it (sent: wait for its answer), and not twice.
  annul: { from: ['draft', 'ready', 'rejected', 'accepted'], to: 'annulled' },
};

const WHY_NOT: Record<DocumentAction, Partial<Record<DocumentState, string>>> = {
  ready: {
    ready: 'Документ уже готов к подписи',
    sent: 'Документ уже отправлен оператору: дождитесь его ответа',
    accepted: 'Документ уже принят оператором: изменить его нельзя, только аннулировать',
    annulled: 'Документ аннулирован: возьмите титул в работу заново',
  },
  send: {
    draft: 'Черновик не отправляют: сначала отметьте его «Готов к подписи»',
    sent: 'Документ уже отправлен: повторно он не отправляется',
    accepted: 'Документ уже принят оператором',
    rejected: 'Документ отклонён: исправьте и отметьте «Готов к подписи» заново',
    annulled: 'Документ аннулирован',
  },
  accept: {},
  reject: {},
  annul: {
    sent: 'Документ у оператора: аннулировать можно после его ответа',
    annulled: 'Документ уже аннулирован',
  },
};

export function canMove(action: DocumentAction, state: DocumentState): boolean {
  return MOVES[action].from.includes(state);
}

/** Why the action may not start from this state, in Russian; null when it may. */
export function refusal(action: DocumentAction, state: DocumentState): string | null {
  if (canMove(action, state)) return null;
  return WHY_NOT[action][state] ?? `Документ в состоянии «${DOCUMENT_STATE_LABELS[state]}»: ответ оператора к нему не относится`;
}
