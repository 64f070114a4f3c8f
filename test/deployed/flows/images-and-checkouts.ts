import { solidPng } from '../../../shared/images/sample-images.js';
import type { Flow } from '../support/flows.js';

const DAY = 86_400_000;

/** Images (binary bodies through the gateway) and checkouts, which show an event's image by its URL. */
export const imagesAndCheckoutsFlow: Flow = {
  name: 'images and checkouts',
  async run({ call, check }) {
    const image = await call('register image', 'POST', '/v1/assets/images?filename=poster.png', { raw: solidPng(40, 30), headers: { 'Content-Type': 'image/png' } });
    const imageId = image.body?.data?.id as string;
    const imageUrl = image.body?.data?.url as string;
    check(image.body?.data?.width === 40 && image.body?.data?.height === 30, 'the image dimensions were not read from the bytes');
    const download = imageUrl ? await fetch(imageUrl).catch(() => undefined) : undefined;
    check(download === undefined || download.ok || imageUrl.includes('.cloudfront.test/'), `the image URL ${imageUrl} does not download`);
    await call('get image', 'GET', `/v1/assets/images/${imageId}`);
    await call('list images', 'GET', '/v1/assets/images?page=0&pageSize=10');
    await call('image with another content type', 'POST', '/v1/assets/images?filename=notes.txt', { raw: 'hello', headers: { 'Content-Type': 'text/plain' } });
    await call('bytes that are not the declared type', 'POST', '/v1/assets/images?filename=fake.png', { raw: 'not a png', headers: { 'Content-Type': 'image/png' } });

    const start = new Date(Date.now() + 30 * DAY).toISOString();
    const end = new Date(Date.now() + 30 * DAY + 3_600_000).toISOString();
    const event = await call('create event with the image', 'POST', '/v1/events', {
      body: { name: 'Gala', start, end, image: [imageId], products: [{ name: 'Seat', price: 2_500, required: true }] },
    });
    const productId = event.body?.data?.products?.[0]?.id as string;
    const checkout = await call('create checkout', 'POST', '/v1/checkouts', {
      body: { name: 'Gala tickets', eventId: event.body?.data?.id, products: [{ productId }] },
    });
    const checkoutId = checkout.body?.data?.id as string;
    const read = await call('get checkout', 'GET', `/v1/checkouts/${checkoutId}`);
    // The checkouts function must answer the image URL the images function answers for the same image.
    check(read.body?.checkout?.eventImage === imageUrl, `checkout eventImage ${read.body?.checkout?.eventImage} differs from the image url ${imageUrl}`);
    const listed = await call('list checkouts', 'GET', '/v1/checkouts?pageSize=5');
    check(listed.body?.data?.[0]?.eventImage === imageUrl, `listed checkout eventImage ${listed.body?.data?.[0]?.eventImage} differs from the image url ${imageUrl}`);
    await call('delete checkout', 'DELETE', `/v1/checkouts/${checkoutId}`);
    await call('deleted checkout', 'GET', `/v1/checkouts/${checkoutId}`);

    // An Idempotency-Key belongs to the workspace, across functions: the events function used this one
    // first, so the checkouts function refuses it (each function has its own name, once Powertools' default
    // record prefix).
    await call('event with a key', 'POST', '/v1/events', { body: { name: 'Keyed', start, end }, headers: { 'Idempotency-Key': 'tier-shared-key' } });
    const reused = await call('checkout with the event\'s key', 'POST', '/v1/checkouts', {
      body: { name: 'Keyed tickets', eventId: event.body?.data?.id, products: [{ productId }] }, headers: { 'Idempotency-Key': 'tier-shared-key' },
    });
    check(reused.body?.error?.code === 'idempotency_key_reused', `a key used by another function answered ${reused.status}`);
  },
};
