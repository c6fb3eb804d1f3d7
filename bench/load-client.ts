/**
 * The load generator of server-load.ts, in a process of its own so it does not share the server's event loop:
 * `connections` keep-alive clients GET `url` back to back for `seconds`; prints every latency (ms) as JSON.
 * The job comes in the LOAD_JOB environment variable.
 */
import http from 'node:http';

interface Job {
  url: string;
  token: string | null;
  seconds: number;
  connections: number;
}

const job = JSON.parse(process.env.LOAD_JOB ?? '{}') as Job;
const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
const latencies: number[] = [];
let errors = 0;

function one(): Promise<void> {
  return new Promise((resolve) => {
    const started = performance.now();
    const request = http.get(job.url, { agent, headers: job.token ? { authorization: `Bearer ${job.token}` } : {} }, (response) => {
      response.resume();
      response.on('end', () => {
        if (response.statusCode !== 200) errors += 1;
        latencies.push(performance.now() - started);
        resolve();
      });
    });
    request.on('error', () => {
      errors += 1;
      resolve();
    });
  });
}

const end = Date.now() + job.seconds * 1000;
await Promise.all(
  Array.from({ length: job.connections }, async () => {
    while (Date.now() < end) await one();
  }),
);
agent.destroy();
process.stdout.write(JSON.stringify({ latencies, errors }));
