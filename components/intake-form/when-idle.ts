// The form's idle scheduling lives with the runtime that uses it too (lib/forms/scheduling.ts).
export { whenIdle } from '@/lib/forms/scheduling';
