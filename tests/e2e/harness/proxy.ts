/**
 * A fault-injecting HTTP proxy between Chromium and the real server. Playwright's routing does not see a
 * SharedWorker's requests, so the tests cut the network here instead: `down` refuses connections the way a
 * dead network does, `failNext` answers 5xx for matching requests, `delayNext` holds matching requests on
 * their way to the server, and every request is counted.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Fault {
  method: string;
  path: RegExp;
  status: number;
  remaining: number;
}

export interface Delay {
  method: string;
  path: RegExp;
  ms: number;
  remaining: number;
  /** Held requests whose body has fully arrived. */
  received: number;
  /** Held requests sent on to the server. */
  forwarded: number;
}

export interface CountedRequest {
  method: string;
  path: string;
  status: number | null;
  /** Which server instance answered, in the two-instance run (HAProxy's X-Reis-Instance). */
  instance?: string;
  /** Still open (a stream in progress): the browser has not hung up and the answer has not ended. */
  open: boolean;
}

export class FaultProxy {
  readonly requests: CountedRequest[] = [];
  private down = false;
  private faults: Fault[] = [];
  private delays: Delay[] = [];
  private readonly sockets = new Set<Socket>();
  private server: http.Server | null = null;
  url = '';

  constructor(private readonly target: string) {}

  async start(): Promise<string> {
    const targetUrl = new URL(this.target);
    this.server = http.createServer((req, res) => this.handle(req, res, targetUrl));
    this.server.on('connection', (socket) => {
      if (this.down) {
        socket.destroy();
        return;
      }
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  /** Cuts the network: open connections are destroyed, new ones refused. */
  setDown(down: boolean): void {
    this.down = down;
    if (down) for (const s of this.sockets) s.destroy();
  }

  /** Answers `status` to the next `times` requests matching method and path. */
  failNext(method: string, path: RegExp, status: number, times: number): void {
    this.faults.push({ method, path, status, remaining: times });
  }

  /**
   * Holds the next `times` requests matching method and path for `ms` once their body has arrived, then
   * forwards them — even when the browser hung up meanwhile (a closed tab): such a request reached the
   * server, only its answer is lost, which is what an Idempotency-Key is for.
   */
  delayNext(method: string, path: RegExp, ms: number, times = 1): Delay {
    const delay: Delay = { method, path, ms, remaining: times, received: 0, forwarded: 0 };
    this.delays.push(delay);
    return delay;
  }

  count(method: string, path: RegExp): number {
    return this.requests.filter((r) => r.method === method && path.test(r.path)).length;
  }

  /** How many matching requests are open right now (long-lived streams). */
  openCount(method: string, path: RegExp): number {
    return this.requests.filter((r) => r.open && r.method === method && path.test(r.path)).length;
  }

  reset(): void {
    this.requests.length = 0;
    this.faults = [];
    this.delays = [];
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse, target: URL): void {
    const path = req.url ?? '/';
    const entry: CountedRequest = { method: req.method ?? 'GET', path, status: null, open: true };
    res.on('close', () => (entry.open = false));
    if (path.startsWith('/api/')) this.requests.push(entry);
    if (this.down) {
      req.socket.destroy();
      return;
    }
    const fault = this.faults.find((f) => f.remaining > 0 && f.method === req.method && f.path.test(path));
    if (fault) {
      fault.remaining -= 1;
      entry.status = fault.status;
      req.resume();
      req.on('end', () => {
        res.writeHead(fault.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ detail: 'Сбой сервера (тест)' }));
      });
      return;
    }
    const delay = this.delays.find((d) => d.remaining > 0 && d.method === req.method && d.path.test(path));
    if (delay) {
      delay.remaining -= 1;
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A body cut short (the browser gave up mid-upload) never reaches the server, as on a real network.
      req.on('end', () => {
        delay.received += 1;
        setTimeout(() => {
          delay.forwarded += 1;
          this.forward(req, res, target, entry, Buffer.concat(chunks));
        }, delay.ms);
      });
      return;
    }
    this.forward(req, res, target, entry);
  }

  /** Sends the request on to the server: its body streamed from `req`, or the `body` already read. */
  private forward(req: IncomingMessage, res: ServerResponse, target: URL, entry: CountedRequest, body?: Buffer): void {
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: entry.path, headers: { ...req.headers, host: target.host } },
      (up) => {
        entry.status = up.statusCode ?? null;
        const instance = up.headers['x-reis-instance'];
        if (typeof instance === 'string') entry.instance = instance;
        if (res.destroyed || req.socket.destroyed) {
          up.resume();
          return;
        }
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    if (body) upstream.end(body);
    else req.pipe(upstream);
  }
}
