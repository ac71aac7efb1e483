import { createHmac } from 'node:crypto';
import type { FileUploadCredential } from '@/lib/portal';
import type { FieldInfo } from '../domain/contract-index';
import type { Sandbox } from '../sandbox';
import { newId, randomToken } from '../store/ids';
import type { ApplicationRec } from '../store/types';

/** Whether a file question takes several files (its value_schema allows more than one item). */
const takesMultiple = (info: FieldInfo) => (info.field.value_schema.maxItems ?? 1) > 1;
export const maxFiles = (info: FieldInfo) => info.field.value_schema.maxItems ?? 1;

const requestPathOf = (info: FieldInfo, itemId: string | null) =>
  [info.question.block_key, itemId, info.question.schema_key, info.field.field_key].filter(Boolean).join('/');

/** Issues a signed, expiring upload URL for one file question: its token is the only credential. */
export function issueUpload(sb: Sandbox, app: ApplicationRec, info: FieldInfo, itemId: string | null): FileUploadCredential {
  const id = newId(sb.state, 'fileUpload');
  const token = randomToken();
  const request_path = requestPathOf(info, itemId);
  const multiple = takesMultiple(info);
  sb.state.uploads[id] = {
    id,
    application_id: app.id,
    block_key: info.question.block_key,
    schema_key: info.question.schema_key,
    field_key: info.field.field_key,
    item_id: itemId,
    request_path,
    multiple,
    token,
    expires_at: new Date(Date.now() + sb.options.uploadTtlSeconds * 1000).toISOString(),
  };
  return { id, object: 'file_upload', request_path, upload_url: sb.urls.transfer(id, token), multiple };
}

/** Download links are signed per file with the sandbox secret: no API key, no expiry in the sandbox. */
export const downloadToken = (sb: Sandbox, fileId: string) =>
  createHmac('sha256', sb.options.secret).update(`download:${fileId}`).digest('base64url').slice(0, 32);
