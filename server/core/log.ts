/** Structured JSON logs, one object per line on stdout (stderr for errors). */
export type LogFields = Record<string, unknown>;

export interface Log {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

function write(level: string, msg: string, fields: LogFields | undefined, stream: 'out' | 'err'): void {
  const line = JSON.stringify({ level, time: new Date().toISOString(), msg, ...fields });
  if (stream === 'err') process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

export function createLog(level: 'info' | 'warn' | 'error' | 'silent' = 'info'): Log {
  const rank = { info: 0, warn: 1, error: 2, silent: 3 }[level];
  return {
    info: (msg, fields) => rank <= 0 && write('info', msg, fields, 'out'),
    warn: (msg, fields) => rank <= 1 && write('warn', msg, fields, 'err'),
    error: (msg, fields) => rank <= 2 && write('error', msg, fields, 'err'),
  };
}

/** Turns anything thrown into loggable fields without leaking it to clients. */
export function errorFields(err: unknown): LogFields {
  if (err instanceof Error) return { error: err.message, error_name: err.name, stack: err.stack };
  return { error: String(err) };
}
