// The peer of the form render benchmark: the large contract rendered by @rjsf/core with the AJV 8 validator,
// as an rjsf user would write it. Bundled by peer-server.ts with esbuild (production React, minified) and served
// with the schema, uiSchema and initial formData made by contract-to-json-schema.ts.
//
// It renders on the client only (rjsf's usual setup), and marks its <form data-form-ready="true"> in an effect
// after the first commit: the same signal our intake page gives once hydrated, so both are measured alike.
// Live validation is on (`?live=0` turns it off): our form also validates as you type.
import Form from '@rjsf/core';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { useEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';

interface PeerData {
  schema: RJSFSchema;
  uiSchema: UiSchema;
  formData: Record<string, unknown>;
}

function Peer({ data, live }: { data: PeerData; live: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.querySelector('form')?.setAttribute('data-form-ready', 'true');
  }, []);
  return (
    <div ref={box}>
      <Form
        schema={data.schema}
        uiSchema={data.uiSchema}
        formData={data.formData}
        validator={validator}
        liveValidate={live ? 'onChange' : undefined}
      />
    </div>
  );
}

async function main() {
  const res = await fetch('/form.json');
  if (!res.ok) throw new Error(`GET /form.json → ${res.status}`);
  const data = (await res.json()) as PeerData;
  const live = new URLSearchParams(location.search).get('live') !== '0';
  createRoot(document.getElementById('root')!).render(<Peer data={data} live={live} />);
}

main().catch((e: unknown) => {
  document.body.setAttribute('data-peer-error', String(e));
  console.error(e);
});
