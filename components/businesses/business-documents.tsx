'use client';

import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { apiUrl } from '@/lib/api/client';
import { formApi } from '@/lib/api/endpoints';
import { intakeFormBase } from '@/lib/api/form-base';
import { formatBytes } from '@/lib/forms/file-checks';
import { applicationContractQuery } from '@/lib/queries/application-contract';
import { applicationFilesQuery } from '@/lib/queries/application-files';
import { LoadState } from '../ui/load-state';
import { TableHead } from '../ui/table-head';
import { When } from '../ui/when';
import { fileQuestionLabels, fileQuestionPath } from './slot-labels';

/**
 * The documents of the business: the Portal keeps the ones uploaded at create (and later in the form) as
 * files of its intake application's questions, so they are listed from there, each with what it is and a
 * download through the BFF (the Portal's signed download URL never reaches the browser).
 */
export function BusinessDocuments({ applicationId }: { applicationId: string }) {
  const files = useInfiniteQuery(applicationFilesQuery(applicationId));
  const contract = useQuery(applicationContractQuery(applicationId));
  const labels = fileQuestionLabels(contract.data);
  const items = files.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <section aria-labelledby="biz-docs-title" className="stack">
      <h2 id="biz-docs-title">Documents</h2>
      <LoadState query={files} what="the documents" />
      {files.data && items.length === 0 && <p>No documents yet: none was uploaded at create or in the application.</p>}
      {items.length > 0 && (
        <table className="table stacked">
          <TableHead caption="Documents of the business’s intake application, as uploaded" columns={['Document', 'What it is', 'Size', 'Uploaded']} />
          <tbody>
            {items.map((f) => (
              <tr key={f.id}>
                <td data-label="Document">
                  <a href={apiUrl(formApi.fileDownload.GET, { params: { form: intakeFormBase(applicationId), fileId: f.id } })} download={f.filename}>
                    <span className="visually-hidden">Download </span>
                    {f.filename}
                  </a>
                </td>
                <td data-label="What it is">{labels.get(fileQuestionPath(f)) ?? fileQuestionPath(f)}</td>
                <td data-label="Size">{formatBytes(f.size)}</td>
                <td data-label="Uploaded">
                  <When iso={f.created_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {files.hasNextPage && (
        <p>
          <button type="button" className="secondary" disabled={files.isFetchingNextPage} onClick={() => void files.fetchNextPage()}>
            {files.isFetchingNextPage ? 'Loading more documents…' : 'Show more documents'}
          </button>
        </p>
      )}
    </section>
  );
}
