import { socketDocRoutes } from '../../src/features/events/index.js';
import { userSocketFrameSchema } from '../../src/features/matches/index.js';
import { spectatorSocketFrameSchema } from '../../src/features/spectator/index.js';
import { buildOpenApi } from '../../src/platform/http/openapi.js';
import { ApiContract, type ApiDocument } from './api-contract.js';

/**
 * The WebSocket endpoints' part of the OpenAPI document (their refusals and their frames), generated in this
 * process: it depends on no setting, so it holds for a server of any configuration, in any process.
 */
export const socketContract = new ApiContract(
  buildOpenApi(socketDocRoutes({ user: userSocketFrameSchema, spectator: spectatorSocketFrameSchema })) as ApiDocument,
);

/** Whether `path` is a WebSocket the document describes (another, such as a bare uWS route, is not this API's). */
export const isDocumentedSocket = (path: string) => socketContract.templateOf(path) !== undefined;
