import type { Application } from '../../src/app.js';
import { JsonClient, type JsonBody, type JsonClientOptions, type JsonRequestOptions, type JsonResponse } from '../../src/clients/json-client.js';
import { buildOpenApi } from '../../src/platform/http/openapi.js';
import { ApiContract, type ApiDocument } from './api-contract.js';

/** The document of every route `app` serves, the public API's and the operators', generated in this process. */
export const contractOf = (app: Application) => new ApiContract(buildOpenApi(app.http.routes) as ApiDocument);

/**
 * A JsonClient that holds the service to its OpenAPI document: every answer, success or error, is checked
 * against the response the document gives its route and status, and one that does not fit throws a
 * ContractViolation (failing the test that got it) instead of being returned.
 */
export class ContractClient extends JsonClient {
  constructor(
    baseUrl: string,
    readonly contract: ApiContract,
    options?: JsonClientOptions,
  ) {
    super(baseUrl, options);
  }

  /**
   * A client of a server running in another process: the contract is the document that server serves
   * (built from its own settings), read once.
   */
  static async served(baseUrl: string, options?: JsonClientOptions): Promise<ContractClient> {
    const reader = new JsonClient(baseUrl);
    try {
      const document = await reader.get<ApiDocument>('/api/v1/openapi.json');
      if (document.status !== 200) throw new Error(`${baseUrl} serves no OpenAPI document (${document.status})`);
      return new ContractClient(baseUrl, new ApiContract(document.body), options);
    } finally {
      reader.close();
    }
  }

  override async request<T = JsonBody>(method: string, path: string, options?: JsonRequestOptions): Promise<JsonResponse<T>> {
    const response = await super.request<T>(method, path, options);
    const contentType = response.headers['content-type'];
    this.contract.check(method, path, {
      status: response.status,
      contentType: Array.isArray(contentType) ? contentType[0] : contentType,
      body: response.body,
      text: response.text,
    });
    return response;
  }
}
