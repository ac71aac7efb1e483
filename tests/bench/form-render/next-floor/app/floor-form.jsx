'use client';

import { useEffect, useRef } from 'react';

/** One text input in a form marked ready once hydrated: what the benchmark waits for on every page. */
export function FloorForm() {
  const form = useRef(null);
  useEffect(() => {
    form.current?.setAttribute('data-form-ready', 'true');
  }, []);
  return (
    <form ref={form} data-form-ready="false">
      <label>
        Text <input type="text" name="text" defaultValue="Sample answer" />
      </label>
    </form>
  );
}
