/** Editing the profile's name and phone (PUT /users/me/), checked with the server's own schema. */
import { useState, type FormEvent } from 'react';
import { showToast } from '../../ui/toasts.ts';
import { z } from 'zod';
import type { User } from '../../../contract/entities.ts';
import { profileUpdateSchema } from '../../../contract/payloads.ts';
import { getEngine } from '../../engine/engine.ts';
import { useSend } from '../../engine/api.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { Field } from '../../ui/Field.tsx';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';

export function ProfileEditForm({ user, onDone }: { user: User; onDone: () => void }) {
  const [name, setName] = useState(user.name);
  const [phone, setPhone] = useState(user.phone);
  const [errors, setErrors] = useState<{ name?: string; phone?: string }>({});
  const save = useSend('PUT /users/me/');
  // The network may go while the form is open: what was typed stays, saving waits for the server.
  const server = useNeedsServer();

  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    const checked = profileUpdateSchema.safeParse({ name, phone });
    if (!checked.success) {
      const fields = z.flattenError(checked.error).fieldErrors;
      setErrors({ name: fields.name?.[0], phone: fields.phone?.[0] });
      return;
    }
    setErrors({});
    save.mutate({ body: checked.data }, {
      onSuccess: () => {
        showToast('success', 'Профиль сохранён');
        // The header reads the engine's user; ask the engine to pick up the change.
        void getEngine().fetchProfile();
        onDone();
      },
    });
  }

  return (
    <form className="form" onSubmit={submit} noValidate>
      <Field label="Имя" autoComplete="name" value={name} onChange={(event) => setName(event.target.value)} error={errors.name} />
      <Field
        label="Телефон"
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        value={phone}
        onChange={(event) => setPhone(event.target.value)}
        error={errors.phone}
      />
      {save.isError && (
        <p className="form-error" role="alert">
          {save.error.message}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={save.isPending || server.offline} title={server.reason}>
          {save.isPending ? 'Сохранение...' : 'Сохранить'}
        </button>
        <button type="button" className="button button-quiet" onClick={onDone} disabled={save.isPending}>
          Отмена
        </button>
      </div>
      <NeedsServerHint offline={server.offline} what="сохранить" />
    </form>
  );
}
