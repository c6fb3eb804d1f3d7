/** React.lazy for named exports, so screens keep their names and still load as their own chunk. */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export function lazyNamed<K extends string, P extends object>(
  load: () => Promise<{ [key in K]: ComponentType<P> }>,
  name: K,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => ({ default: (await load())[name] }));
}
