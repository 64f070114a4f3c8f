import type { Seeder } from './seed-client.js';
import { seedPropertiesAndContacts } from './properties-and-contacts.js';
import { seedEvents } from './events.js';
import { seedInvoices } from './invoices.js';
import { seedForms } from './forms.js';
import { seedImagesAndCheckouts } from './images-and-checkouts.js';
import { seedWidgetDemo } from './widget-demo.js';

/**
 * Demo-data seeders, run in order against the running local server on first start. Each feature adds
 * its own file here; a later seeder may use what an earlier one created (properties before forms).
 */
export const seeders: { name: string; seed: Seeder }[] = [
  { name: 'properties and contacts', seed: seedPropertiesAndContacts },
  { name: 'forms', seed: seedForms },
  { name: 'events and demo partner', seed: seedEvents },
  { name: 'invoices, payments and payouts', seed: seedInvoices },
  { name: 'images and checkouts', seed: seedImagesAndCheckouts },
  { name: 'widget demo form and event places', seed: seedWidgetDemo },
];
