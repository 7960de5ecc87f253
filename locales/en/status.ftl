## Status: /status, one transaction re-checked with the provider

status-not-found = Transaction <code>{ $query }</code> was not found in your account. Type the Ref ID or Trx ID (on the receipt), or the target number; or see /history.
status-not-found-short = This transaction was not found in your account.
status-pending-none = You have no transactions still pending. All your transactions are in /history; check one with /status REF_ID.
status-pending-title = ⏳ <b>Transactions still in process</b> ({ $count }). Tap one to check its status with the provider:
status-pending-line = { $n }. <b>{ $product }</b> → <code>{ $target }</code> · { $status } · { $time }
status-pending-more = …and { $count } more. Check them one by one with /status REF_ID.

status-matches-title = 🔎 <b>{ $count } transactions to this number</b>, newest first. Tap one to see its receipt:
status-matches-more = …older ones are in /history.
status-button-item = { $n }. { $code } → { $target }
status-button-again = 🔄 Check again
status-button-list = « Pending list

status-recheck-refused = The provider gave an unexpected answer when this transaction was re-checked. It is not final: I keep checking it automatically and will tell you when it settles. Do not buy it again.
status-recheck-review = The provider keeps giving unexpected answers when this transaction is re-checked. It is not final: I keep checking it automatically, and the operator has been told to look into it. Do not buy it again.
