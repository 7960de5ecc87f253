import { createCallbackData } from 'callback-data';

/**
 * Buttons of /connect: `pick` a service from the picker (also "try again" after a failure),
 * `replace` the credentials of an already connected service, `cancel` the flow (`service` `-` on the
 * picker, the service being connected on a credential prompt).
 */
export const connectData = createCallbackData('connect', { action: String, service: String });

/**
 * Buttons of /disconnect: `pick` a connected service, then `confirm` its removal or `keep` it
 * (`service` `-` on keep).
 */
export const disconnectData = createCallbackData('disconnect', { action: String, service: String });
