/**
 * `tsx bin/build/openapi-document.ts OUT.json`: writes the OpenAPI document of the route table. The
 * CDK bundling of the docs function runs it (lib/group-functions.ts), so the deployed function serves
 * a built document and bundles neither the generator nor the other groups' schemas.
 */
import { writeOpenApiDocument } from '../../shared/openapi/document.js';

const [out] = process.argv.slice(2);
if (!out) {
  console.error('Usage: tsx bin/build/openapi-document.ts OUT.json');
  process.exit(1);
}
writeOpenApiDocument(out);
