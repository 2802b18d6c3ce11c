/**
 * The `Response` of `emulator.fetch`: a standard `Response` (a subclass: `instanceof Response`,
 * its `status`, `headers`, `ok`...) over the bytes the app answered, which are all there when it
 * resolves. `text()`, `json()`, `arrayBuffer()` and `bytes()` read them directly; `body` makes a
 * stream of them only when asked. A `Response` built with a body makes its stream at once, and on
 * Node 20 that stream (made transferable between threads) cost more than the rest of the answer.
 */

/** The body's bytes and whether they have been read (as `bodyUsed` says). */
interface BufferedBody {
  bytes: Uint8Array<ArrayBuffer> | null;
  used: boolean;
  stream?: ReadableStream<Uint8Array>;
}

/** What `fetch` rejects with for a body read twice. */
const unusable = () => new TypeError('Body is unusable: Body has already been read');

/** Extra facts of a fetch's answer that `new Response` cannot set. */
export interface ResponseFacts {
  url: string;
  redirected: boolean;
}

/** A `Response` whose body is bytes already in memory (null for a bodiless answer). */
export class BufferedResponse extends Response {
  readonly #body: BufferedBody;
  readonly #facts: ResponseFacts;

  constructor(bytes: Uint8Array<ArrayBuffer> | null, init: ResponseInit, facts: ResponseFacts) {
    super(null, init);
    this.#body = { bytes, used: false };
    this.#facts = facts;
  }

  override get url(): string {
    return this.#facts.url;
  }

  override get redirected(): boolean {
    return this.#facts.redirected;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    const body = this.#body;
    if (body.bytes === null) return null;
    if (!body.stream) {
      const bytes = body.bytes;
      // Pulled only when read (no queue to fill ahead): looking at `body` does not use it.
      body.stream = new ReadableStream(
        {
          pull(controller) {
            if (body.used) return controller.error(unusable());
            body.used = true;
            if (bytes.length > 0) controller.enqueue(bytes);
            controller.close();
          },
        },
        { highWaterMark: 0 },
      );
    }
    return body.stream as ReadableStream<Uint8Array<ArrayBuffer>>;
  }

  override get bodyUsed(): boolean {
    return this.#body.used && this.#body.bytes !== null;
  }

  /** The bytes, once; an empty body for a bodiless answer, as `fetch` gives. */
  #take(): Uint8Array<ArrayBuffer> {
    const body = this.#body;
    if (body.bytes === null) return new Uint8Array(0);
    if (body.used) throw unusable();
    body.used = true;
    return body.bytes;
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.#take();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  }

  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return new Uint8Array(await this.arrayBuffer());
  }

  override async text(): Promise<string> {
    return Buffer.from(this.#take()).toString('utf8');
  }

  override async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  override async blob(): Promise<Blob> {
    const type = this.headers.get('content-type');
    return new Blob([this.#take()], type === null ? {} : { type });
  }

  override async formData(): Promise<FormData> {
    return new Response(this.#take(), { headers: this.headers }).formData();
  }

  override clone(): BufferedResponse {
    if (this.bodyUsed) throw unusable();
    return new BufferedResponse(
      this.#body.bytes,
      { status: this.status, statusText: this.statusText, headers: this.headers },
      this.#facts,
    );
  }
}
