/** Sign-in with e-mail and password; the engine's message is shown as it comes (docs/product.md §8). */
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { getEngine } from '../../engine/engine.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { Field } from '../../ui/Field.tsx';
import { AuthFrame } from '../../ui/AuthFrame.tsx';
import { currentSubscription } from '../../app/pwa/push.ts';
import { landingFor } from '../../app/nav.ts';
import { Form } from '../../ui/Form.tsx';

export function LoginScreen() {
  const { auth } = useEngineSnapshot();
  const [, navigate] = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<{ email?: string | undefined; password?: string | undefined }>({});

  async function submit(): Promise<void> {
    // Our own Russian messages, not the browser's bubbles (which speak the browser's language).
    const missing = { email: email.trim() === '' ? 'Укажите e-mail' : undefined, password: password === '' ? 'Укажите пароль' : undefined };
    setFieldErrors(missing);
    if (missing.email || missing.password) return;
    setBusy(true);
    setError(null);
    try {
      // docs/product.md §7: the login carries this device's push subscription, when notifications are on here.
      const subscription = await currentSubscription().catch(() => null);
      const result = await getEngine().login(email.trim(), password, subscription);
      // A driver lands on his tasks of the day, staff on the board (app/nav.ts).
      if (result.ok) navigate(landingFor(result.data.role), { replace: true });
      // The fields keep what was typed, so a typo is fixed, not retyped.
      else setError(result.message);
    } catch (failure: unknown) {
      console.error('login failed', failure);
      setError('Login failed');
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthFrame title="Вход">
      <Form className="form" onSubmit={submit}>
        {auth.isAuthenticated && auth.user && (
          <p className="notice">
            Вы уже вошли как {auth.user.name}. <Link href="/profile">Перейти в профиль</Link>
          </p>
        )}
        <Field
          label="E-mail"
          type="email"
          name="username"
          autoComplete="username"
          inputMode="email"
          required
          value={email}
          error={fieldErrors.email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <Field
          label="Пароль"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          error={fieldErrors.password}
          onChange={(event) => setPassword(event.target.value)}
        />
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Вход...' : 'Войти'}
        </button>
        <p className="form-footer">
          Нет аккаунта? <Link href="/register">Зарегистрироваться</Link>
        </p>
      </Form>
    </AuthFrame>
  );
}
