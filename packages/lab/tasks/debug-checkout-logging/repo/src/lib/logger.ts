// Structured logs, one JSON object per line on stderr; the log shipper picks them up from there.
// stdout is reserved for the HTTP access log, which is why nothing in src/ prints to it.

export type Level = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  log(level: Level, message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(service: string, write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  return {
    log(level, message, fields = {}) {
      write(`${JSON.stringify({ time: new Date().toISOString(), level, service, message, ...fields })}\n`);
    },
  };
}
