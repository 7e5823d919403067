/**
 * A stand-in for XMLHttpRequest in UI tests of uploads (`web/lib/upload.ts`): each request is
 * recorded with its URL, headers and FormData; the test moves its progress and answers it.
 */
export class FakeXhr {
  static requests: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | undefined;
  status = 0;
  statusText = '';
  responseText = '';
  aborted = false;
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.requests.push(this);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  /** Reports `fraction` of the body as sent. */
  progress(fraction: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded: fraction * 1000, total: 1000 });
  }
  /** Answers with a status and an optional JSON body. */
  respond(status: number, body?: unknown) {
    this.status = status;
    this.responseText = body === undefined ? '' : JSON.stringify(body);
    this.onload?.();
  }
  /** Fails as a network error. */
  fail() {
    this.onerror?.();
  }
}

/** Installs the fake as the global XMLHttpRequest; returns a restore function. */
export function installFakeXhr() {
  const original = globalThis.XMLHttpRequest;
  FakeXhr.requests = [];
  (globalThis as { XMLHttpRequest: unknown }).XMLHttpRequest = FakeXhr;
  return () => ((globalThis as { XMLHttpRequest: unknown }).XMLHttpRequest = original);
}

/** Chooses `file` in a file input as a user would (change event). */
export function chooseFile(input: Element | null, file: File) {
  if (!input) throw new Error('no file input');
  Object.defineProperty(input, 'files', { configurable: true, value: [file] });
  input.dispatchEvent(new Event('change', { bubbles: true }));
}
