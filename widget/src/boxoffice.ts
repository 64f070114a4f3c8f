/**
 * Boxoffice embeddables, one script for both elements:
 *   <script src="https://API/widget/v1/boxoffice.js" async></script>
 *   <boxoffice-events referral-code="CODE"></boxoffice-events>
 *   <boxoffice-form form-id="ID"></boxoffice-form>
 * Without `api-base`, the elements call the API this script was loaded from.
 */
import { defineEventsElement } from './events-element.js';
import { defineFormElement } from './form-element.js';

const script = document.currentScript as HTMLScriptElement | null;
const scriptBase = script?.src ? script.src.replace(/\/widget\/v\d+\/[^/]*$/, '') : location.origin;

defineEventsElement(scriptBase);
defineFormElement(scriptBase);
