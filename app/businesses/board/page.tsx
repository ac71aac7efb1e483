import type { Metadata } from 'next';
import Link from 'next/link';
import { PipelineBoard } from '@/components/businesses/pipeline-board';
import { readBoard } from '@/server/businesses/board';
import { appDb } from '@/server/db/app-db';
import { guardPage, type PageProps } from '@/server/http/page-guard';

export const metadata: Metadata = { title: 'Pipeline board' };

// /businesses/board – the businesses of a pipeline by stage (?pipeline=), moved by drag and drop or a menu (staff only)
export default async function BoardPage({ searchParams }: PageProps) {
  const query = await searchParams;
  await guardPage({ path: '/businesses/board', query, roles: ['staff'] });
  const board = await readBoard(await appDb(), typeof query.pipeline === 'string' ? query.pipeline : undefined);
  return (
    <section aria-labelledby="board-title">
      <p>
        <Link href="/businesses">← Businesses</Link>
      </p>
      <h1 id="board-title">{board ? `Pipeline board: ${board.pipeline.name}` : 'Pipeline board'}</h1>
      {board ? <PipelineBoard key={board.pipeline.id} view={board} now={new Date().toISOString()} /> : <p>No business pipeline is known yet.</p>}
    </section>
  );
}
