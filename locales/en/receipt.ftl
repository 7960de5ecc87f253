## Receipt: one transaction in detail (/status, /history, settlement notices)

receipt-title = 🧾 <b>Transaction receipt</b>
receipt-product = Product: { $product } ({ $code })
receipt-target = Target: { $target }
receipt-price = Price: { $price }
receipt-price-sell = Cost → sell: { $cost } → { $sell } ({ $margin })
receipt-price-sell-loss = Cost → sell: { $cost } → { $sell } (⚠️ loss { $margin })
receipt-price-sell-open = Cost → sell: { $cost } → { $sell } ({ $margin } if successful)
receipt-price-sell-none = Cost → sell: { $cost } → { $sell } (no margin)
receipt-status = Status: { $status }
receipt-sn = SN: { $sn }
receipt-token = Token: { $token }
receipt-token-info = Details: { $info }
receipt-ref = Ref ID: { $refId }
receipt-trx = Trx ID: { $trxId }
receipt-time = Time: { $time }
receipt-settled = Settled: { $time }

receipt-status-success = Success
receipt-status-failed = Failed
receipt-status-pending = Pending
receipt-status-created = Processing
receipt-status-rejected = Rejected
receipt-status-unresolved = Unresolved

receipt-note-pending = ⏳ The provider is still processing it. You will be told as soon as it settles; check yourself any time with /status { $refId }
receipt-note-rejected = The provider refused this transaction; your balance was not charged. Reason: { $reason }
receipt-note-downline-unavailable = The product was unavailable; your wallet has been refunded.
receipt-note-unresolved = The status could not be confirmed within the checking period. Ask the provider about it with the Ref ID above.
receipt-note-restored = The bot was restored from a backup made before this purchase was sent, and did not send it again. Ask the provider about it with the Ref ID above.

receipt-button-copy-sn = 📋 Copy SN
# $n: the line's number in a multi-line purchase's result.
receipt-button-line-sn = 📋 SN { $n }
receipt-button-line-receipt = 🧾 Receipt { $n }
receipt-button-copy-token = 📋 Copy token
receipt-button-buy-again = 🔁 Buy again

## Buy again (the button under a Sukses receipt)

receipt-again-question = 🔁 Buy { $product } (<code>{ $code }</code>) again — to the same target or another one?
receipt-again-same = 📱 { $target }
receipt-again-other = ✏️ Another target
receipt-again-cancelled = ❌ Cancelled. Nothing was bought.
receipt-again-gone = This transaction can no longer be found. Buy through /prices or /buy.

## The one-line message that pings the owner when a transaction settles (the receipt is the message it replies to)

receipt-ping = { $icon } { $product } · { $target } · { $status }
