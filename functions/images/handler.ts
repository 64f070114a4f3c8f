import { createGroupHandler } from '../../shared/http/group-handler.js';
import { runIdempotent } from '../../shared/http/idempotency.js';
import { getImageOperation } from './get-image.js';
import { listImagesOperation } from './list-images.js';
import { registerImageOperation } from './register-image.js';

export const operations = [registerImageOperation, listImagesOperation, getImageOperation];
export const handler = createGroupHandler('images', operations, { idempotency: runIdempotent });
