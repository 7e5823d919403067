// The last resort of the command line: an error no layer handled (a rejected promise nobody
// waits on, an exception thrown from a timer or an event) is logged as one line and the process
// keeps serving the API and every other connection. Each such line is a bug to fix where it
// happened; MQTT connections have their own net that closes only the one at fault
// (broker/hooks.ts connectionFault).

function describe(reason: unknown): string {
  if (reason instanceof Error) return `${reason.name}: ${reason.message}${reason.stack ? ` (${reason.stack.split('\n')[1]?.trim() ?? ''})` : ''}`;
  return String(reason);
}

/** Installs the handlers for unhandled rejections and uncaught exceptions on this process. */
export function keepServing(log: (line: string) => void): void {
  let count = 0;
  process.on('unhandledRejection', (reason) => {
    log(`simulator: unhandled rejection, still serving (${++count} so far): ${describe(reason)}`);
  });
  process.on('uncaughtException', (err) => {
    log(`simulator: uncaught exception, still serving (${++count} so far): ${describe(err)}`);
  });
}
