## Receipt: one transaction in detail (/status, /history, settlement notices)

receipt-title = 🧾 <b>Transaction receipt</b>
receipt-product = Product: { $product } ({ $code })
receipt-target = Target: { $target }
receipt-price = Price: { $price }
receipt-status = Status: { $status }
receipt-sn = SN: { $sn }
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
receipt-note-unresolved = The status could not be confirmed within the checking period. Ask the provider about it with the Ref ID above.

receipt-button-copy-sn = 📋 Copy SN
