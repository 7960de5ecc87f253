## Game shop: /games, /order (order conversation), /orders, payment reminder

command-games = Games of the game shop (tap to order)
command-order = Order a game top-up
command-orders = My game orders

games-title = 🎮 <b>Games in the shop</b>
games-popular = 🔥 <b>Popular</b>
games-category = 📂 <b>{ $category }</b>
games-category-count = 📂 { $category } — { $count ->
    [one] { $count } game
   *[other] { $count } games
}
games-hint = Tap a game to order it, or open its category. You can also use /order directly.
games-category-hint = Tap a game to order it.
games-none = The game shop has no active games right now. Try again later.
games-gone = That game is no longer in the shop. Send /games for the current list.
games-button-category = 📂 { $category } ({ $count })

order-no-games = The game shop has no active games right now, so nothing can be ordered. Try again later.
order-ask-game = 🎮 Which game do you want to top up? Pick one below, or type its name. Send /cancel to stop.
order-game-unknown = No game matches "{ $text }". Pick one from the buttons or type another name.
order-game-several = Several games match. Pick one:
order-game-not-listed = The game "{ $game }" is not among the shop's active games.
order-no-catalogue = ℹ️ This bot has no list of the shop's products and payment methods, so I ask for their numeric ids. Nothing is broken: orders work as usual. You find the ids on the shop's website.
order-game-not-in-catalogue = ℹ️ This bot's product list does not include { $game } yet, so I ask for the numeric product id. Nothing is broken: the order works as usual. You find the id on the shop's website.

order-ask-product = 🎮 <b>{ $game }</b>
    Pick a product, or type its id:
order-ask-product-id = 🎮 <b>{ $game }</b>
    Send the product id (a number), for example <code>104</code>.
order-product-invalid = Pick a product from the buttons, or send its id (a number, for example <code>104</code>).
order-product-id-invalid = The product id is a number, for example <code>104</code>. Send it again.
order-ask-method = 💳 Pick a payment method, or type its id:
order-ask-method-id = 💳 Send the payment method id (a number), for example <code>1</code>.
order-method-invalid = Pick a payment method from the buttons, or send its id (a number, for example <code>1</code>).
order-method-id-invalid = The payment method id is a number, for example <code>1</code>. Send it again.

order-ask-player = 👤 Send the <b>{ $label }</b> of the { $game } account to top up.
order-server-next = (I ask for the { $server } next; send it separately.)
order-player-invalid = Send the { $label } as one line of text.
order-player-with-server = Send the { $label } only, without the { $server } in brackets. I ask for the { $server } next.
order-too-long = The { $label } is too long (at most { $max } characters). Send it again.
order-use-last-hint = Tap the button to use the last one, or send a new one.
order-use-last = Use { $value }

order-ask-server = 🌐 Send the account's <b>{ $label }</b>.
order-ask-server-choice = 🌐 Pick the account's <b>{ $label }</b>:
order-ask-server-optional = 🌐 If this game uses a server / zone id, send it now. If not, tap Skip.
order-server-invalid = The { $label } is one line of at most { $max } characters. Send it again.
order-server-not-listed = That { $label } is not one of the choices. Pick one from the buttons.

order-ask-whatsapp = 📱 Send your WhatsApp number (the shop sends the receipt and order news there), for example <code>081234567890</code>.
order-whatsapp-invalid = That is not a valid Indonesian mobile number. Send a number starting with 08, +62 or 62, for example <code>081234567890</code>.
order-ask-nickname = 🏷️ In-game nickname (optional). Send it, or tap Skip.
order-ask-email = 📧 E-mail for the receipt (optional). Send it, or tap Skip.
order-email-invalid = That is not a valid e-mail address (example: <code>name@example.com</code>). Send it again, or tap Skip.
order-ask-promo = 🎟️ Got a promo code? Send it, or tap Skip.
order-promo-invalid-format = A promo code has no spaces and at most { $max } characters. Send it again, or tap Skip.
order-ask-quantity = 🔢 How many? Tap a number below (usually 1), or type the quantity.
order-quantity-invalid = The quantity is a whole number from 1 to { $max }. Send it again.

order-answer-hint = Send the answer as text or tap a button above, or send /cancel to stop.
order-use-buttons = Tap a button under the message above, or send /cancel to stop.
order-button-old = That button belongs to an earlier question. Answer the last one.
order-question-expired = This question is over. Send /order to order again.
order-skipped = Skipped

order-field-game = Game
order-field-product-id = Product
order-field-payment-method-id = Payment method
order-field-id = User ID / Player ID
order-field-server = Server / Zone ID
order-field-whatsapp = WhatsApp
order-field-nickname = Nickname
order-field-email = E-mail
order-field-promo-code = Promo code
order-field-quantity = Quantity

order-summary-title = 🧾 <b>Order summary</b>
order-summary-game = Game: { $game }
order-summary-product = Product: { $product }
order-summary-quantity = Quantity: { $quantity }
order-summary-method = Payment: { $method }
order-summary-player = { $label }: <code>{ $value }</code>
order-summary-server = { $label }: <code>{ $value }</code>
order-summary-whatsapp = WhatsApp: <code>{ $value }</code>
order-summary-nickname = Nickname: { $value }
order-summary-email = E-mail: { $value }
order-summary-promo = Promo code: { $value }
order-summary-none = -
order-summary-estimate = Estimated subtotal: { $amount } (before promo, fee and unique code; the shop sets the exact total)
order-summary-question = Order now?
order-summary-confirmed = ✅ Confirmed.
order-summary-cancelled = ❌ Cancelled.
order-summary-expired = This summary is no longer valid. Send /order to order again.
order-already-created = This order was already created once ({ $orderId }) and is not ordered again. See /orders.
order-in-progress = Ordering…
order-cancelled = Order cancelled. Nothing was ordered.

order-button-skip = Skip ➡️
order-button-confirm = ✅ Order now
order-button-without-promo = ✅ Order without promo
order-button-other-promo = 🎟️ Other promo code
order-button-pay = 💳 Pay
order-button-copy-code = 📋 Copy code

order-created-title = ✅ <b>Order created</b>
order-created-already = ✅ <b>This order was already created</b> (not ordered again)
order-created-id = Order no.: <code>{ $orderId }</code>
order-created-item = { $game } — { $product } × { $quantity }
order-created-method = Payment: { $method }
order-created-status = Payment status: <b>{ $status }</b>
order-payment-status = { $status ->
    [UNPAID] Unpaid
    [PENDING] Awaiting payment
    [PAID] Paid
    [SUCCESS] Paid
    [SETTLED] Paid
    [EXPIRED] Expired
    [FAILED] Failed
    [CANCELED] Cancelled
    [CANCELLED] Cancelled
    [REFUNDED] Refunded
   *[other] { $word }
}
order-price-title = <b>Price breakdown</b>
order-price-unit = Unit price: { $unit } × { $quantity } = { $subtotal }
order-price-promo = Promo discount (<code>{ $code }</code>): −{ $amount }
order-price-fee = Payment fee: { $amount }
order-price-unique = Unique code: { $amount }
order-price-total = <b>Total to pay: { $amount }</b>
order-created-code = Payment code: <code>{ $code }</code>
order-created-qris = Pay with QRIS: scan the QR picture below this message.
order-created-expires = ⏳ Pay before: <b>{ $at }</b>
order-created-reminder = I will remind you 10 minutes before the deadline.
order-created-no-reminder = The deadline is less than 10 minutes away, so there is no reminder: pay now.
order-created-not-saved = ⚠️ This order exists at the shop, but the bot could not record it: it is not in /orders and there is no reminder. Keep the order number above.
order-pay-link = Pay on this page: { $url }
order-qr-caption = QRIS for order <code>{ $orderId }</code> — total { $total }. Scan it with a bank or e-wallet app.
order-qr-merchant = Payee: { $merchant }
order-qr-failed = The QR image cannot be shown here. Open the QR with this link: { $url }
    (or tap 💳 Pay above).
order-qr-failed-no-link = The QR image cannot be shown here. Tap 💳 Pay above to pay.

order-fields-refused = ⚠️ The game shop refused some fields:
order-fields-ask-again = I will ask for just those again.
order-fields-cannot-fix = Those fields cannot be corrected here. Nothing was ordered; send /order to try again.
order-product-mismatch = ⚠️ Product { $product } is not a product of { $game } (shop: { $message }). Pick another product for this game.
order-promo-refused = ⚠️ The promo code <code>{ $code }</code> is not valid (shop: { $message }). It may be mistyped, expired, or not valid for this product.
    Continue without the promo, try another code, or cancel? Nothing has been ordered yet.
order-promo-dropped = ✅ Ordered without promo.
order-promo-retype = 🎟️ Another promo code.
order-not-found-product = ⚠️ The shop does not know that product (shop: { $message }). Pick or send another product.
order-not-found-method = ⚠️ The shop does not know that payment method (shop: { $message }). Pick or send another method.
order-not-found-game = ⚠️ The shop does not know the game { $game } (shop: { $message }). It may have just been disabled. Nothing was ordered; see /games for the current list.
order-unknown-outcome = ⚠️ <b>The outcome of the order is unknown.</b> The game shop did not answer clearly (network or server trouble), so the order <b>may or may not have been created</b>.
    Do not order again straight away: first check your WhatsApp/e-mail or the order history on the shop's website. If there is no order, order again with /order. The bot does not repeat this order on its own.

order-reminder = ⏰ <b>Payment reminder</b>
    Order <code>{ $orderId }</code> ({ $item }) must be paid before <b>{ $at }</b> — 10 minutes from now.
    Total: { $total }
    Already paid? Ignore this message.

orders-empty = No game orders yet. Send /games or /order to order.
orders-title = 🧾 <b>Your game orders</b> (page { $page })
orders-line = { $n }. <code>{ $orderId }</code>
    { $game } — { $product } × { $quantity }
    { $total } · { $method } · { $status } · created { $created }
orders-pay-before = ⏳ Pay before { $at }
orders-expired = ⌛ The payment deadline has passed ({ $at })
orders-footer = The payment status is the one recorded when the order was created; the bot does not follow it. The payment page shows the current status.
orders-button-pay = 💳 Pay #{ $n }
