/**
 * A form the app sends itself: the browser neither validates it (our messages are Russian and stand under their
 * fields) nor loads a page on submit; Enter in a field submits as usual.
 */
import type { FormHTMLAttributes, ReactNode } from 'react';

type FormProps = Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit' | 'noValidate'> & {
  onSubmit: () => unknown;
  children: ReactNode;
};

export function Form({ onSubmit, children, ...form }: FormProps) {
  return (
    <form
      {...form}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      {children}
    </form>
  );
}
