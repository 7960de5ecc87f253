## History: /history, the user's transactions

history-title = 🧾 <b>Transaction history</b> — page { $page }
history-empty = No transactions yet. See the products with /prices, or send CODE.TARGET (for example TSEL10.081234567890) to buy quickly.
history-line = { $n }. { $icon } <b>{ $product }</b> → <code>{ $target }</code>
    { $price } · { $status } · { $time }
history-footer = Tap a transaction's number to see its receipt.
history-not-found = This transaction was not found in your account.

history-button-item = { $n }. { $code } → { $target }
history-button-back = « Back to history
