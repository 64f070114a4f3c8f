/* global process */
// One Lambda execution environment: loads a function's asset bundle the way the Node.js runtime does
// (`<file>` exports `<handler>`), then answers invocations from the parent, one at a time, over IPC.
// Plain JavaScript run by plain Node: nothing transforms the bundle on its way in.
import { pathToFileURL } from 'node:url';

const [, , file, exportName] = process.argv;

// Init phase: a failing import fails every invocation, as Runtime.ImportModuleError does.
const handlerLoaded = import(pathToFileURL(file).href).then((module) => {
  const handler = module[exportName];
  if (typeof handler !== 'function') throw new Error(`${file} does not export a function named ${exportName}`);
  return handler;
});
handlerLoaded.catch(() => undefined);

function describeError(error) {
  return { errorType: error?.name ?? 'Error', errorMessage: String(error?.message ?? error) };
}

process.on('message', async ({ id, event, context }) => {
  try {
    const handler = await handlerLoaded;
    const deadline = Date.now() + context.remainingMs;
    const lambdaContext = {
      ...context,
      callbackWaitsForEmptyEventLoop: true,
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
      done: () => undefined,
      fail: () => undefined,
      succeed: () => undefined,
    };
    const result = await handler(event, lambdaContext);
    // The runtime returns the JSON serialisation of the result.
    process.send({ id, payload: JSON.stringify(result ?? null) });
  } catch (error) {
    process.send({ id, error: describeError(error) });
  }
});
process.send({ ready: true });
