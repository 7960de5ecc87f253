/** One request as a simulated service sees it, already read off the wire. */
export interface SandboxRequest {
  method: string;
  /** Path below the service's prefix, e.g. `/cek-saldo` or `/api/items/all`. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | undefined>;
  /** Content-Type of the body, lowercased and without parameters ('' when absent). */
  contentType: string;
  /** Raw body text. */
  rawBody: string;
  /** Parsed JSON (application/json) or form fields as an object (urlencoded); undefined otherwise or when unparsable. */
  body: unknown;
  /** Remote address as seen by the server. */
  ip: string;
}

/** What a simulated service answers. `body` is serialised as JSON; `raw` is sent verbatim instead. */
export interface SandboxResponse {
  status: number;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

/** A simulated service: a pure function of its own state and the request. */
export interface SimulatedService {
  handle(request: SandboxRequest): SandboxResponse | Promise<SandboxResponse>;
}
