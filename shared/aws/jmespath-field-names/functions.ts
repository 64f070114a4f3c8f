/**
 * `@aws-lambda-powertools/jmespath/functions` in the Lambda bundles (see `./index.ts`). Powertools
 * Idempotency instantiates `PowertoolsFunctions` as the default custom functions and compares its
 * constructor between configurations; a bare field name calls no function.
 */
export class PowertoolsFunctions {}
