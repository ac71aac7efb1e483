import { unknownApiRoute as unknown } from '@/server/http/unknown-api-route';

export { unknown as DELETE, unknown as GET, unknown as HEAD, unknown as OPTIONS, unknown as PATCH, unknown as POST, unknown as PUT };
