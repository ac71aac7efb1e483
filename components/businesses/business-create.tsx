'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import type { BusinessCreatedView, PortalView } from '@/lib/bff/businesses';
import { BusinessCreateForm } from './business-create-form';
import { DocumentUploads } from './document-uploads';
import './businesses.css';

/**
 * Creating a business: the form, then (when there is something to say or send) a step showing the Portal's
 * warnings and uploading the chosen documents into the new business's slots, then its page.
 */
export function BusinessCreate({ initialPortal }: { initialPortal: PortalView }) {
  const router = useRouter();
  const [files, setFiles] = useState<File[]>([]);
  const [created, setCreated] = useState<BusinessCreatedView | null>(null);
  const [documentsDone, setDocumentsDone] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const next = useRef<HTMLAnchorElement>(null);

  const onCreated = (view: BusinessCreatedView) => {
    const pagePath = `/businesses/${view.business.id}`;
    // Nothing to show or send: straight to the business.
    if (view.warnings.length === 0 && files.length === 0 && view.prefilled.problem === null) router.push(pagePath);
    else setCreated(view);
  };

  useEffect(() => {
    if (created) heading.current?.focus();
  }, [created]);
  useEffect(() => {
    if (documentsDone) next.current?.focus();
  }, [documentsDone]);

  if (!created) return <BusinessCreateForm initialPortal={initialPortal} files={files} onFilesChange={setFiles} onCreated={onCreated} />;

  const name = created.business.name ?? created.business.id;
  const pagePath = `/businesses/${created.business.id}`;
  const uploading = files.length > 0 && created.uploads.length > 0 && !documentsDone;
  return (
    <div className="stack biz-created">
      <h2 ref={heading} tabIndex={-1}>
        {name} was created
      </h2>
      {created.warnings.length > 0 && (
        <div className="notice warning">
          <p>The Portal noted:</p>
          <ul>
            {created.warnings.map((w, i) => (
              <li key={i}>{w.message ?? w.code ?? 'A warning without a message.'}</li>
            ))}
          </ul>
        </div>
      )}
      {created.prefilled.questions.length > 0 && <p>Filled in its application from this form: {created.prefilled.questions.join(', ')}.</p>}
      {created.prefilled.problem && <p className="notice warning">{created.prefilled.problem}</p>}
      {files.length > 0 && created.uploads.length === 0 && (
        <p className="notice info">This business’s application has no document questions: attach the documents to it later.</p>
      )}
      {files.length > 0 && created.uploads.length > 0 && (
        <DocumentUploads created={created} files={files} onFinished={() => setDocumentsDone(true)} />
      )}
      <p>
        <Link ref={next} href={pagePath}>
          {uploading ? `Go to ${name} without the remaining documents` : `Go to ${name}`}
        </Link>
      </p>
    </div>
  );
}
