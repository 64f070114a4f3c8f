import type { Flow } from '../support/flows.js';
import { demoSeedFlow } from './demo-seed.js';
import { imagesAndCheckoutsFlow } from './images-and-checkouts.js';
import { largeImagesFlow } from './large-images.js';
import { publicRoutesFlow } from './public-routes.js';
import { systemAndGatewayFlow } from './system-and-gateway.js';
import { webhooksFlow } from './webhooks.js';
import { widgetsFlow } from './widgets.js';

/**
 * Every flow the deployed-artifact tier runs against both the local server and the deployment.
 * A new endpoint group adds a file here with a representative flow.
 */
export const flows: readonly Flow[] = [systemAndGatewayFlow, demoSeedFlow, imagesAndCheckoutsFlow, publicRoutesFlow, largeImagesFlow, webhooksFlow, widgetsFlow];
