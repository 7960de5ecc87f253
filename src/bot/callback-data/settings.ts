import { createCallbackData } from 'callback-data';

/** Buttons of the settings screen: `connect`, `disconnect`, `language` or `pin`. */
export const settingsData = createCallbackData('settings', { action: String });
