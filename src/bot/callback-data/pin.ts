import { createCallbackData } from 'callback-data';

/** Buttons of the /pin conversation: `change`, `remove` or `cancel`. */
export const pinData = createCallbackData('pin', { action: String });
