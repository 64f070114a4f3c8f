/**
 * How a workspace is known to API Gateway's usage plans. The API's key source is AUTHORIZER: API
 * Gateway never reads a key from the request (`X-API-Key` is ignored), it takes the key the authorizer
 * returns as `usageIdentifierKey` and throttles by the usage plan that key belongs to. That key is
 * therefore an identifier, not a credential: it is derived from the stage and the workspace id, so the
 * authorizer computes it without another read, and the admin CLI creates the same one.
 */

/** API Gateway wants key values of at least 20 characters. */
const PREFIX = 'boxoffice';

/** Name and value of the workspace's API Gateway API key on a stage (API key values are per region). */
export function usagePlanKeyOf(stage: string, workspaceId: string): { name: string; value: string } {
  const name = `${PREFIX}-${stage}-ws-${workspaceId}`;
  return { name, value: name };
}

/** Name of the workspace's usage plan on a stage. */
export function usagePlanNameOf(stage: string, workspaceId: string): string {
  return `${PREFIX}-${stage}-ws-${workspaceId}`;
}
