import { FloorForm } from './floor-form';

// Rendered per request, as the form page is: the floor includes Next's dynamic rendering, not a static file.
export const dynamic = 'force-dynamic';

export default function Page() {
  return (
    <main>
      <h1>One input</h1>
      <FloorForm />
    </main>
  );
}
