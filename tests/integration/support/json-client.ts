/** A reply read whole: its body parsed as JSON when it is JSON, else left as text. */
export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function readReply<T>(res: Response): Promise<Reply<T>> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: the body stays text */
  }
  return { status: res.status, headers: res.headers, body: body as T, text };
}

/** The verbs of a test HTTP client, over its one `call`. */
export abstract class JsonClient<Options> {
  abstract call<T = unknown>(method: string, path: string, o?: Options): Promise<Reply<T>>;

  get = <T = unknown>(p: string, o?: Options) => this.call<T>('GET', p, o);
  post = <T = unknown>(p: string, o?: Options) => this.call<T>('POST', p, o);
  patch = <T = unknown>(p: string, o?: Options) => this.call<T>('PATCH', p, o);
  put = <T = unknown>(p: string, o?: Options) => this.call<T>('PUT', p, o);
  delete = <T = unknown>(p: string, o?: Options) => this.call<T>('DELETE', p, o);
}
