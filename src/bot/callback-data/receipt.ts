import { createCallbackData } from 'callback-data';

/** 🔁 Beli lagi under a Sukses receipt: buy the product of transaction `ref` again. */
export const buyAgainData = createCallbackData('again', { ref: String });

/** 🧾 Struk pelanggan under a Sukses receipt: the customer receipt of transaction `ref` (text and PNG). */
export const customerReceiptData = createCallbackData('struk', { ref: String });

/** The answer to "same target or another?": `same` buys for transaction `ref`'s target, otherwise the flow asks. */
export const buyAgainTargetData = createCallbackData('againto', { ref: String, same: Boolean });

/** ❌ Batal under the 🔁 Beli lagi question: ends the question, nothing bought. */
export const buyAgainCancelData = createCallbackData('againx', { ref: String });
