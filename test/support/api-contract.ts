import { schemaProblems } from './json-schema.js';

type Schema = Record<string, unknown>;
type MediaType = { schema?: Schema };
type DocResponse = { description: string; content?: Record<string, MediaType>; 'x-error-codes'?: string[] };
type Operation = { responses: Record<string, DocResponse>; 'x-frames'?: Schema };
export type ApiDocument = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

/** What a client received, as the contract judges it. */
export type ReceivedResponse = { status: number; contentType?: string; body: unknown; text: string };

const ERROR_SCHEMA = { $ref: '#/components/schemas/Error' };

type Template = { path: string; regex: RegExp; parameters: number };

/** A path template of the document as a regular expression (`/a/{id}` → `^/a/[^/]+$`). */
function compile(path: string): Template {
  const source = path
    .split('/')
    .map((segment) => (/^\{\w+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return { path, regex: new RegExp(`^${source}$`), parameters: (path.match(/\{/g) ?? []).length };
}

const mediaTypeOf = (contentType: string | undefined) => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

/** Thrown when an answer or a frame does not fit the document: says what was received and every problem. */
export class ContractViolation extends Error {
  constructor(
    readonly summary: string,
    readonly problems: string[],
  ) {
    super(`${summary}, which the OpenAPI document does not allow:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ContractViolation';
  }
}

/**
 * The OpenAPI document as a judge of answers: for a method and path, the operation whose template matches
 * (a template with fewer parameters first, as OpenAPI resolves `/webhooks/{id}` against a literal path), the
 * response of the status (or `default`), its media type, its body's schema, and for an error the codes the
 * document lists for that route and status.
 */
export class ApiContract {
  private readonly templates: Template[];

  constructor(readonly document: ApiDocument) {
    this.templates = Object.keys(document.paths)
      .map(compile)
      .sort((a, b) => a.parameters - b.parameters);
  }

  /** The document's template for `path` (its query left off), or undefined when none matches. */
  templateOf(path: string): string | undefined {
    const pathname = new URL(path, 'http://contract.invalid').pathname;
    return this.templates.find((template) => template.regex.test(pathname))?.path;
  }

  /** Every way `received` breaks the document, as the answer to `method` `path`; [] when it fits. */
  problems(method: string, path: string, received: ReceivedResponse): string[] {
    const template = this.templateOf(path);
    const verb = method.toLowerCase();
    // A CORS preflight is the server's, for every path, and outside the document: 204 where a path is served, else 404.
    if (verb === 'options')
      return received.status === (template ? 204 : 404) && received.text === '' ? [] : [`a preflight is answered ${template ? 204 : 404} with no body`];
    const operation = template ? this.document.paths[template]![verb] : undefined;
    if (!operation) {
      // What the document does not serve is answered, for every method, in the error envelope: 405 where the path takes other methods, else 404.
      const [status, code] = template ? [405, 'method_not_allowed'] : [404, 'not_found'];
      const why = template ? `${template} has no ${method.toUpperCase()} in the document` : 'no path of the document matches';
      if (received.status !== status) return [`${why}, so the answer is ${status}, not ${received.status}`];
      return this.bodyProblems(received, { description: why, content: { 'application/json': { schema: ERROR_SCHEMA } }, 'x-error-codes': [code] });
    }
    const response = operation.responses[String(received.status)] ?? operation.responses.default;
    if (!response)
      return [`status ${received.status} is not documented for ${method.toUpperCase()} ${template} (it lists ${Object.keys(operation.responses).join(', ')})`];
    return this.bodyProblems(received, response);
  }

  /** Throws a ContractViolation when `received` does not fit. */
  check(method: string, path: string, received: ReceivedResponse) {
    const problems = this.problems(method, path, received);
    if (problems.length > 0) throw new ContractViolation(`${method.toUpperCase()} ${path} answered ${received.status}`, problems);
  }

  /** Every way `frame` breaks the frames (`x-frames`) the document gives the WebSocket at `path`. */
  frameProblems(path: string, frame: unknown): string[] {
    const template = this.templateOf(path);
    const frames = template ? this.document.paths[template]!.get?.['x-frames'] : undefined;
    if (!frames) return [`the document names no frames of a WebSocket at ${path}`];
    return schemaProblems(this.document, frames, frame);
  }

  private bodyProblems(received: ReceivedResponse, response: DocResponse): string[] {
    const mediaType = mediaTypeOf(received.contentType);
    if (!response.content) return received.text === '' ? [] : [`the document gives this status no body, but one came (${mediaType || 'no content type'})`];
    const declared = response.content[mediaType];
    if (!declared) return [`the content type ${mediaType || '(none)'} is not one the document gives (${Object.keys(response.content).join(', ')})`];
    if (mediaType !== 'application/json' || !declared.schema) return [];
    if (typeof received.body === 'string') return ['the body is not JSON'];
    const problems = schemaProblems(this.document, declared.schema, received.body);
    const codes = response['x-error-codes'];
    const code = (received.body as { error?: { code?: unknown } } | null)?.error?.code;
    if (codes && !codes.includes(code as string))
      problems.push(`$.error.code: ${JSON.stringify(code)} is not among the codes the document lists for this status (${codes.join(', ')})`);
    return problems;
  }
}
