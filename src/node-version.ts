/**
 * Stops the service at once, with one line saying what to do, on a Node.js other than the release line it
 * runs on: src/main.ts imports this module first, so it runs before any other module is loaded. An older
 * Node.js otherwise started and then failed on what it lacks, such as the global WebSocket ("could not
 * start: WebSocket is not defined"), and uWebSockets.js ships no binary for a later one. `npm ci` refuses
 * such a Node.js too (`engine-strict` in .npmrc, `engines` in package.json).
 */

/** The Node.js release line the service is built and tested on (package.json `engines`, .ci/node.sh, the Dockerfile). */
export const NODE_MAJOR = 22;

/** What to say on Node.js `version` (as `process.versions.node` gives it), or undefined when it will do. */
export function nodeVersionProblem(version: string): string | undefined {
  const major = Number(version.split('.')[0]);
  if (major === NODE_MAJOR) return undefined;
  const why = major < NODE_MAJOR ? 'an older one lacks what it uses, such as the global WebSocket' : 'uWebSockets.js ships no binary for a later one';
  return (
    `agent-match needs Node.js ${NODE_MAJOR} (${why}), and this is Node.js ${version}: install Node.js ${NODE_MAJOR} ` +
    `(nvm install ${NODE_MAJOR} && nvm use ${NODE_MAJOR}, or https://nodejs.org/en/download), then run npm ci and start again.`
  );
}

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  console.error(problem);
  process.exit(1);
}
