'use client';

import { useEffect, useRef, useState } from 'react';

export interface QueuedUpload {
  readonly key: number;
  readonly file: File;
  readonly loaded: number;
  readonly started: boolean;
  readonly controller: AbortController;
}

/** Sends one file; resolves once it is done (the caller records the result), rejects when it failed. */
export type SendFile = (file: File, signal: AbortSignal, onProgress: (loaded: number) => void) => Promise<void>;

/** Two at a time keeps a batch moving without one slow file holding up the rest or flooding the connection. */
const PARALLEL_UPLOADS = 2;

/**
 * Files waiting, uploading (with progress) and cancellable, two at a time; what is still running stops when
 * the component goes away. The file question and the Autofill evidence panel share it.
 */
export function useUploadQueue(send: SendFile, onFailed: (file: File, error: unknown) => void) {
  const [uploads, setUploads] = useState<QueuedUpload[]>([]);
  const nextKey = useRef(0);
  const waiting = useRef<QueuedUpload[]>([]);
  const running = useRef(0);
  const inFlight = useRef(new Set<AbortController>());
  // Uploads finish after renders the callbacks were made in: the latest ones are read from here.
  const latest = useRef({ send, onFailed });
  useEffect(() => {
    latest.current = { send, onFailed };
  });

  useEffect(() => {
    const queue = waiting;
    const controllers = inFlight.current;
    return () => {
      queue.current = [];
      for (const c of controllers) c.abort();
    };
  }, []);

  const patch = (key: number, change: Partial<QueuedUpload>) =>
    setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));
  const drop = (key: number) => setUploads((list) => list.filter((u) => u.key !== key));

  function pump() {
    while (running.current < PARALLEL_UPLOADS && waiting.current.length > 0) {
      const next = waiting.current.shift()!;
      running.current += 1;
      void run(next).finally(() => {
        running.current -= 1;
        pump();
      });
    }
  }

  async function run({ file, key, controller }: QueuedUpload) {
    if (controller.signal.aborted) return;
    patch(key, { started: true });
    inFlight.current.add(controller);
    try {
      await latest.current.send(file, controller.signal, (loaded) => patch(key, { loaded }));
      drop(key);
    } catch (e) {
      drop(key);
      if (!controller.signal.aborted) latest.current.onFailed(file, e);
    } finally {
      inFlight.current.delete(controller);
    }
  }

  return {
    uploads,
    enqueue(files: readonly File[]) {
      if (files.length === 0) return;
      const added = files.map((file) => ({ key: nextKey.current++, file, loaded: 0, started: false, controller: new AbortController() }));
      setUploads((list) => [...list, ...added]);
      waiting.current.push(...added);
      pump();
    },
    cancel(upload: QueuedUpload) {
      waiting.current = waiting.current.filter((u) => u.key !== upload.key);
      upload.controller.abort();
      drop(upload.key);
    },
  };
}
