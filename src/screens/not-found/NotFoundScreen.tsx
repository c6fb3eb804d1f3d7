/** Any path the router does not know. */
import { Link } from 'wouter';
import { Page } from '../../ui/Page.tsx';

export function NotFoundScreen() {
  return (
    <Page title="Страница не найдена">
      <p>Такой страницы нет. Возможно, ссылка устарела или в адресе опечатка.</p>
      <Link href="/profile" className="button">
        На главную
      </Link>
    </Page>
  );
}
