import { createGroupHandler } from '../../shared/http/group-handler.js';
import { runIdempotent } from '../../shared/http/idempotency.js';
import { getImageOperation } from './get-image.js';
import { listImagesOperation } from './list-images.js';
import { registerImageOperation } from './register-image.js';
import { createImageUploadOperation } from './create-image-upload.js';
import { completeImageUploadOperation } from './complete-image-upload.js';

export const operations = [registerImageOperation, createImageUploadOperation, completeImageUploadOperation, listImagesOperation, getImageOperation];
export const handler = createGroupHandler('images', operations, { idempotency: runIdempotent });
