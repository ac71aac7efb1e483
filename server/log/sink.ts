import 'server-only';

/** Receives each finished JSON line (no trailing newline). */
export type LogSink = (line: string) => void;

const stdoutSink: LogSink = (line) => {
  process.stdout.write(`${line}\n`);
};

let current: LogSink = stdoutSink;

export const currentSink = (): LogSink => current;

/** Redirects log lines (tests capture them); `null` restores stdout. Returns a function that undoes the change. */
export function setLogSink(sink: LogSink | null): () => void {
  const previous = current;
  current = sink ?? stdoutSink;
  return () => {
    current = previous;
  };
}
