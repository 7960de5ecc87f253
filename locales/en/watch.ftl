## Price-change alerts (/watch)

command-watch = Watch price changes and product outages
watch-title = <b>📊 Price-change alerts</b>
watch-status-on = 🔔 On: I tell you once per change (outage, back in stock, price up/down, new or removed products).
watch-status-off = 🔕 Off.
watch-brands-all = Brands: all
watch-brands-some = Brands: { $brands }
watch-group-on = Group { $title }: gets the digest too (without cost or margin)
watch-group-off = Group { $title }: does not get the digest
watch-group-none = Group: none yet (type /linkgroup in your group to link it)
watch-brands-unavailable = The brand list cannot be fetched right now; try /watch again in a moment.
watch-hint = Tap a brand to choose it (tap again to drop it), or type e.g. /watch telkomsel xl. /watch all for every brand, /watch off to stop.
watch-button-on = 🔔 Turn on
watch-button-off = 🔕 Turn off
watch-button-all = All brands
watch-button-group-on = 👥 Send to the group too
watch-button-group-off = 👥 Don't send to the group
watch-saved = Saved.
watch-unsubscribed = 🔕 Price alerts are off. Type /watch to turn them on again.
watch-unknown-brands = These brands are not in your price list: { $words }. Pick from the buttons below.

watch-digest-title = <b>📊 Price changes</b>
watch-digest-losses = ⚠️ { $count } products sell at a loss at your current sell price: update your sell prices.
watch-kind-unavailable = <b>⛔ Unavailable ({ $count })</b>
watch-kind-active = <b>✅ Back in stock ({ $count })</b>
watch-kind-up = <b>🔺 Up ({ $count })</b>
watch-kind-down = <b>🔻 Down ({ $count })</b>
watch-kind-new = <b>🆕 New ({ $count })</b>
watch-kind-removed = <b>🗑 Removed ({ $count })</b>
watch-line = • <code>{ $code }</code> { $name }
watch-line-status = • <code>{ $code }</code> { $name } — { $status }
watch-line-new = • <code>{ $code }</code> { $name } — { $price }
watch-line-price = • <code>{ $code }</code> { $name }: { $old } → { $new }
watch-margin = · margin { $margin }
watch-loss = ⚠️ loss { $loss } (sell { $sell })
watch-digest-more = … and { $count } more
watch-digest-footer = Choose brands and the group with /watch.
