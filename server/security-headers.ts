/**
 * Security headers on every answer (nosniff, frame and referrer policy, cross-origin isolation of resources),
 * as helmet sets them. Their values depend only on the options, so helmet runs once at start-up against a
 * recording response and each request gets the recorded headers: @fastify/helmet built a new helmet middleware
 * chain (options parsed, a dozen functions) on every request, a twentieth of a small authenticated GET.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

type Step = { set: string; value: string | number | readonly string[] } | { remove: string };

/** What helmet does to a response with these options, in order. */
export function securityHeaderSteps(options: Readonly<HelmetOptions>): Step[] {
  const steps: Step[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      steps.push({ set: name, value });
      return recorder;
    },
    removeHeader(name: string) {
      steps.push({ remove: name });
    },
  };
  let failure: unknown = null;
  helmet(options)({} as never, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) failure = error;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return steps;
}

export function installSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const steps = securityHeaderSteps(options);
  app.addHook('onRequest', (_request, reply, done) => {
    const res = reply.raw;
    for (const step of steps) {
      if ('set' in step) res.setHeader(step.set, step.value);
      else res.removeHeader(step.remove);
    }
    done();
  });
}
