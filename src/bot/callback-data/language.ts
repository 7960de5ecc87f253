import { createCallbackData } from 'callback-data';

/** Button of the /language picker. */
export const languageData = createCallbackData('lang', { locale: String });
