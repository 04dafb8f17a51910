/**
 * What a benchmark's server child answers over IPC besides its port: its CPU time so far ('cpu': user
 * and system µs, a figure that does not depend on what else the machine runs) and a CPU profile of a
 * stretch of load ('profile:start' [sampling interval µs], then 'profile:stop' → the profile written
 * to the path given). The profiler is V8's own, the one `node --cpu-prof` uses, started over
 * node:inspector so that the profile covers the measured load only, not the start-up (tsx compiling
 * every module). Every answer is `{ stats }`, read by `ask` (bench/load.ts).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

export function answerControl(extra: (message: unknown) => unknown = () => undefined): void {
  let session: Session | undefined;
  process.on('message', (message: unknown) => {
    void (async () => {
      const [verb, arg] = typeof message === 'string' ? message.split(' ', 2) : [];
      if (verb === 'cpu') return reply(process.cpuUsage());
      if (verb === 'profile:start') {
        session = new Session();
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: Number(arg ?? 100) });
        await session.post('Profiler.start');
        return reply(true);
      }
      if (verb === 'profile:stop' && session && arg) {
        const { profile } = await session.post('Profiler.stop');
        session.disconnect();
        session = undefined;
        writeFileSync(arg, JSON.stringify(profile));
        return reply(arg);
      }
      const answer = extra(message);
      if (answer !== undefined) reply(await answer);
    })();
  });
}

function reply(stats: unknown): void {
  process.send?.({ stats });
}
