## Buy: /buy, quick-buy CODE.TARGET, summary, confirmation, PIN and results

buy-unknown-code = Code <code>{ $code }</code> is not in your price list. Send another code, or see /prices.
buy-unavailable-code = { $product } (<code>{ $code }</code>) is unavailable right now: { $status }. Send another code, or see /prices.
buy-code-format = That is not a product code. Send just the code (for example <code>TSEL10</code>), or CODE.TARGET.
buy-ask-target-phone = { $product } (<code>{ $code }</code>) — { $price }
    Send the destination phone number (for example 081234567890).
buy-ask-target-verbatim = { $product } (<code>{ $code }</code>) — { $price }
    Send the destination id exactly as it must be sent (game id, PLN meter/customer number, ...).
buy-ask-target-auto = { $product } (<code>{ $code }</code>) — { $price }
    Send the destination (phone number, game id or meter number).
buy-target-retry = { $problem }. Send the destination again, or /cancel to stop.

buy-problem-format = "{ $text }" is not in the CODE.TARGET format
buy-problem-unknown = code <code>{ $code }</code> is not in the price list (see /prices)
buy-problem-unavailable = { $product } (<code>{ $code }</code>) is unavailable right now: { $status }
buy-problem-target-phone = "{ $target }" is not a valid phone number (it must start with 08, +62 or 62 and have 10–13 digits)
buy-problem-target-empty = the destination is empty
buy-problem-target-too-long = the destination is too long (at most { $max } characters)
buy-problem-target-characters = the destination contains characters that are not allowed
buy-problem-line = Line { $line }: { $problem }

buy-too-many-lines = At most { $max } lines per message, you sent { $count }. Nothing was bought; send them in several messages.
buy-nothing-to-buy = Nothing can be bought:
buy-nothing-to-buy-hint-spaced = The format is <code>/buy CODE TARGET</code> (for example <code>/buy TSEL10 081234567890</code>). The codes are in /prices.
buy-nothing-to-buy-hint = The format is CODE.TARGET, one per line (for example <code>TSEL10.081234567890</code>). The codes are in /prices.

buy-summary-title = 🛒 <b>Purchase summary</b>
buy-summary-title-bulk = 🛒 <b>Purchase summary</b> ({ $count } transactions)
buy-summary-product = Product: { $product } (<code>{ $code }</code>)
buy-summary-target = Destination: <code>{ $target }</code>
buy-summary-price = Price: <b>{ $price }</b>
buy-summary-operator-warning = ⚠️ { $prefix } is { $numberOperator ->
        [XL] an
        [Indosat] an
        [Axis] an
       *[other] a
    } { $numberOperator } number, this product is { $productOperator }.
buy-summary-price-sell = Cost → sell: { $figures }
buy-summary-line = { $n }. { $product } (<code>{ $code }</code>) → <code>{ $target }</code> — { $price }
buy-summary-total = Total: <b>{ $total }</b>
buy-summary-sell-total = Sell total: <b>{ $sell }</b> (margin { $margin })
buy-summary-balance = Your balance: { $balance }
buy-summary-balance-unknown = Your balance: cannot be checked right now
buy-summary-balance-short = ⚠️ Your balance is below the total; the provider will refuse what it does not cover.
buy-summary-wallet = Your wallet balance: { $balance }
buy-summary-wallet-short = ⚠️ Your wallet is { $short } short of the total: this purchase will be refused. Top up first with /deposit.
buy-summary-skipped = ⚠️ Not included:
buy-summary-question = Go ahead?
buy-summary-checking = ⏳ Being checked — not bought yet.
buy-summary-not-bought = ❌ Not bought.
buy-summary-confirmed = ✅ Confirmed.
buy-summary-cancelled = ❌ Cancelled.
buy-summary-abandoned = (This summary is no longer valid.)
buy-summary-price-changed = 🔄 Price changed — not bought. See the new summary below.
buy-price-changed-title = 🔄 <b>Price changed</b> since the summary above. Check again, then confirm:
buy-price-changed-line = • { $product } (<code>{ $code }</code>): { $old } → <b>{ $new }</b>

buy-button-confirm = ✅ Confirm
buy-button-cancel = ❌ Cancel
buy-button-again = ✅ Yes, buy again

buy-use-buttons = Tap ✅ Confirm or ❌ Cancel under the summary, or send /cancel.
buy-answer-question = First answer the question above (Yes, buy again / Cancel), or send /cancel.
buy-cancelled = Purchase cancelled. Nothing was bought.
buy-expired = This summary is no longer valid. Send /buy to start again.
buy-already-done = This purchase was confirmed once already and is not bought again. See the result in /history.
buy-in-progress = Processing…

buy-repeat-title = ⚠️ <b>The same purchase was just made</b>
buy-repeat-recent = • { $product } → <code>{ $target }</code>, { $seconds } seconds ago
buy-repeat-batch = • { $product } → <code>{ $target }</code>, more than once in this message
buy-repeat-question = Are you sure you want to buy it again?

buy-pin-ask = 🔐 Send your transaction PIN. I delete the message with the PIN right away.
buy-pin-format = A PIN is 4–6 digits. Send your PIN again, or /cancel.
buy-pin-wrong = Wrong PIN. Tries left: { $left }. Send your PIN again, or /cancel.
buy-pin-locked = 🔒 Too many wrong PINs, purchases are locked until { $until }. Nothing was bought.
buy-pin-first = Send your PIN first.

buy-processing = ⏳ Sending the purchase to the provider…
buy-processing-again = ⏳ This purchase was already recorded (the bot handled your tap again after an interruption). Checking it with the provider under the same ref (nothing is bought twice)…
buy-not-recorded = The purchase could not be recorded, so nothing was sent to the provider. Try again in a moment.
buy-wallet-short = Your wallet holds { $balance }, { $short } short of this purchase. Nothing was bought and nothing was taken from your wallet. Top up with ➕ Deposit, then order again.
buy-downline-suspended = Your downline account is suspended by your upline, so you cannot buy for now. Contact your upline.
buy-downline-unavailable = Your upline's service is unavailable right now. Try again later or contact your upline.
buy-downline-price-changed = The price changed just as you confirmed, so nothing was bought and nothing was taken from your wallet. Please order again to see the current price.
buy-downline-product-unavailable = This product is unavailable for now. Your wallet has been refunded; try again later.

buy-result-success = ✅ <b>Success</b>
buy-result-failed = ❌ <b>Failed</b> — the provider reports this transaction failed.
buy-result-rejected = ⛔ <b>Refused by the provider</b> — nothing was bought.
buy-result-pending = ⏳ <b>Being processed</b> — I will message you as soon as this transaction completes.
buy-result-unclear = ⏳ <b>Not certain yet</b> — the provider gave no clear answer, so it is not known yet whether this went through. I will re-check with the same ref (it cannot be bought twice) and tell you the result. Please do not buy it again meanwhile.
buy-result-product = Product: { $product } (<code>{ $code }</code>)
buy-result-target = Destination: <code>{ $target }</code>
buy-result-price = Price: { $price }
buy-result-sn = SN: <code>{ $sn }</code>
buy-result-ref = Ref: <code>{ $ref }</code>
buy-result-bulk-title = 🧾 <b>Results of { $count } transactions</b>
buy-result-bulk-line = { $n }. { $icon } { $product } → <code>{ $target }</code>: { $status }
buy-result-bulk-unclear = Where the provider gave no clear answer, I re-check with the same ref (nothing is bought twice). Please do not buy those again meanwhile.
buy-result-bulk-sn = { "   " }SN: <code>{ $sn }</code>
buy-result-bulk-reason = { "   " }{ $reason }
buy-result-bulk-pending = ⏳ I will message you about those still being processed as soon as they complete.
buy-status-success = Success
buy-status-failed = Failed
buy-status-rejected = Refused
buy-status-pending = Processing

## Buy by taps: /buy without arguments (category → brand → product → target)

buy-picker-categories = 🛒 <b>Buy</b> — choose a category.
    Or type a product code (for example <code>TSEL10</code>) or CODE.TARGET. Full list: /prices
buy-picker-brands = <b>{ $category }</b> — choose a brand.
buy-picker-products = <b>{ $category } › { $brand }</b> — choose a product.
buy-picker-page = Page { $page }/{ $pages }
buy-picker-footer = ⛔ = cannot be bought right now. You can also type its code.
buy-picker-empty = The provider's price list is empty. Try again later.
buy-picker-recent = Or tap one of your recent destinations below.
buy-picker-hint = Tap one of the buttons, or type a product code. Send /cancel to stop.
buy-picker-outdated = This button is no longer valid. Use the buttons of the latest message.
buy-picker-unavailable = { $name } is unavailable right now (status: { $status }). Choose another product.

buy-category-pulsa = 📱 Airtime
buy-category-data = 🌐 Data plans
buy-category-pln = ⚡ PLN / Electricity token
buy-category-emoney = 💳 E-Money
buy-category-game = 🎮 Games
buy-category-other = 📦 Other

buy-picker-button-category = { $label } ({ $count })
buy-picker-button-product = { $name } · { $price }
buy-picker-button-unavailable = ⛔ { $name } · { $status }
buy-picker-button-back = ⬅️ Back
