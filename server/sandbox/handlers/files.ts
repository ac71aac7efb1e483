import {
  AnswerFileDeleteResult,
  AnswerFilePage,
  AnswerFilesQuery,
  FileUploadCredential,
  FileUploadRequestBody,
  type AnswerFile,
} from '@/lib/portal';
import type { RouteDef } from '../http/context';
import { SandboxError, notFound } from '../http/errors';
import { keysetPage, pageQuery } from '../http/paging';
import type { Sandbox } from '../sandbox';
import type { FileRec } from '../store/types';
import { answersChanged } from './answers';
import { CLIENT_INTAKE, type ApplicationKindSpec } from './application-kinds';
import { belowApplication } from './application-routes';
import { downloadToken, issueUpload } from './uploads';

export function fileView(sb: Sandbox, f: FileRec): AnswerFile {
  return {
    id: f.id,
    object: 'answer_file',
    block_key: f.block_key,
    schema_key: f.schema_key,
    field_key: f.field_key,
    item_id: f.item_id,
    filename: f.filename,
    content_type: f.content_type,
    size: f.size,
    created_at: f.created_at,
    url: sb.urls.download(f.id, downloadToken(sb, f.id)),
  };
}

/** File uploads and files of one kind of application. */
export function fileRoutesFor(spec: ApplicationKindSpec): RouteDef[] {
  const deal = spec.kind === 'deal';
  return belowApplication(spec, 'files', [
    {
      // POST {segment}/{id}/file-uploads/ – upload credentials for one file question
      method: 'POST',
      path: 'file-uploads/',
      open: true,
      summary: deal ? 'Request upload credentials for a deal application' : 'Request upload credentials',
      requestBody: FileUploadRequestBody,
      response: FileUploadCredential,
      successStatus: 201,
      handle: async (ctx, app) => {
        const { sb } = ctx;
        const body = await ctx.body(FileUploadRequestBody);
        const index = sb.index(app);
        const at = { block_key: body.block_key, schema_key: body.schema_key, field_key: body.field_key };
        const info = index.byKey.get(`${body.block_key}|${body.schema_key}|${body.field_key}`);
        if (!info || !info.isFile || !info.question.answer_operations.includes('upload')) {
          throw new SandboxError('validation_failed', 'That field does not take files.', [
            { code: 'not_a_file_field', message: 'Choose a question whose answer_shape is file.', ...at },
          ]);
        }
        const itemId = body.item_id ?? null;
        if (info.group) {
          const item = itemId ? app.items[itemId] : undefined;
          if (!item || item.block_key !== info.group.block_key) {
            throw new SandboxError('validation_failed', 'Files of a repeatable question belong to one of its items.', [
              { code: 'invalid_item', message: `item_id must name an item of ${info.group.block_key}.`, parameter: 'item_id', ...at },
            ]);
          }
        } else if (itemId) {
          throw new SandboxError('validation_failed', 'This question is not repeatable: leave item_id out.', [
            { code: 'unexpected_item', message: 'Leave item_id out.', parameter: 'item_id', ...at },
          ]);
        }
        const credential = issueUpload(sb, app, info, itemId);
        sb.changed();
        return { status: 201, body: credential };
      },
    },
    {
      // GET {segment}/{id}/files/ – files attached to the application's file questions
      method: 'GET',
      path: 'files/',
      query: AnswerFilesQuery,
      summary: deal ? 'List deal application answer files' : 'List answer files',
      response: AnswerFilePage,
      handle: ({ sb, query }, app) => {
        const q = query as { block_key?: string; schema_key?: string; field_key?: string; item_id?: string };
        const all = Object.values(app.files)
          .filter(
            (f) =>
              (q.block_key === undefined || f.block_key === q.block_key) &&
              (q.schema_key === undefined || f.schema_key === q.schema_key) &&
              (q.field_key === undefined || f.field_key === q.field_key) &&
              (q.item_id === undefined || f.item_id === q.item_id),
          )
          .sort((a, b) => a.seq - b.seq);
        const scope = `files:${app.id}:${q.block_key ?? ''}:${q.schema_key ?? ''}:${q.field_key ?? ''}:${q.item_id ?? ''}`;
        const page = keysetPage({ sb, items: all, keyOf: (f) => f.seq, scope, ...pageQuery(query), backward: false });
        return { status: 200, body: { ...page, items: page.items.map((f) => fileView(sb, f)) } };
      },
    },
    {
      // DELETE {segment}/{id}/files/{file_id}/ – remove an attached file
      method: 'DELETE',
      path: 'files/:file/',
      open: true,
      summary: deal ? 'Delete a deal application answer file' : 'Delete an answer file',
      response: AnswerFileDeleteResult,
      handle: ({ sb, params }, app) => {
        const f = app.files[params.file!];
        if (!f) throw notFound('file');
        const info = sb.index(app).byKey.get(`${f.block_key}|${f.schema_key}|${f.field_key}`);
        if (info && !info.question.answer_operations.includes('delete')) {
          throw new SandboxError('forbidden', 'Files of this question cannot be deleted.', [
            { code: 'operation_not_allowed', message: 'answer_operations does not include delete.', block_key: f.block_key, schema_key: f.schema_key, field_key: f.field_key },
          ]);
        }
        delete app.files[f.id];
        answersChanged(sb, app);
        return { status: 200, body: { id: f.id, object: 'answer_file', deleted: true } };
      },
    },
  ]);
}

export const fileRoutes: RouteDef[] = fileRoutesFor(CLIENT_INTAKE);
