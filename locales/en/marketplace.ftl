## Marketplace: /account, /items, /verify (seller account, items, purchase-code validation)

command-account = Marketplace account: profile and balance
command-items = Your marketplace items
command-verify = Check a purchase code: /verify CODE

marketplace-account-title = 🏪 <b>Marketplace account</b>
marketplace-account-name = Name: <b>{ $name }</b>
marketplace-account-username = Username: { $username }
marketplace-account-heading = Profile: { $heading }
marketplace-account-balance = Balance: <b>{ $balance }</b>
marketplace-account-registered = Member since: { $date }

marketplace-items-title = 🛍 <b>Your items</b> ({ $count }) — page { $page }/{ $pages }
marketplace-items-line =
    { $n }. <b>{ $name }</b>
    { $category } · v{ $version }
    Price: { $regular } (regular) / { $extended } (extended)
marketplace-items-footer = Tap an item to see its details.
marketplace-items-empty = Your shop has no items yet. Items you publish on the marketplace will show up here.
marketplace-items-button = { $n }. { $name }

marketplace-item-title = <b>{ $name }</b>
marketplace-item-meta = { $category } · v{ $version }
marketplace-item-price = 💵 { $regular } (regular) / { $extended } (extended)
marketplace-item-tags = 🏷 Tags: { $tags }
marketplace-item-demo = 🔗 Demo: { $url }
marketplace-item-video = 🎬 Video preview: { $url }
marketplace-item-audio = 🎧 Audio preview: { $url }
marketplace-item-image = 🖼 Image: { $url }
marketplace-item-button-demo = 🔗 Live demo
marketplace-item-button-video = 🎬 Watch preview
marketplace-item-button-audio = 🎧 Listen to preview

marketplace-verify-usage =
    Send the purchase code after the command, for example:
    <code>/verify 8f2c1a3e-5b7d-4e91-a6c0-2d4f8b9e1c37</code>
    Buyers find their purchase code on the marketplace's download page.
# Plain text (no HTML): a reply is recognised by this exact text.
marketplace-verify-prompt = 🔑 Send the purchase code to validate as a reply to this message.
marketplace-verify-placeholder = Purchase code
marketplace-verify-valid = ✅ <b>Purchase code is valid</b>
marketplace-verify-item = 📦 Item: { $item }
marketplace-verify-license = 📄 License: { $license }
marketplace-verify-price = 💵 Price: { $price }
marketplace-verify-date = 🗓 Purchased: { $date }
marketplace-verify-support-active = 🛟 Support: active until { $until }
marketplace-verify-support-expired = 🛟 Support: expired since { $since }
marketplace-verify-support-none = 🛟 Support: not included with this purchase
marketplace-verify-downloaded-yes = ⬇️ Downloaded: yes
marketplace-verify-downloaded-no = ⬇️ Downloaded: not yet
marketplace-verify-account = Checked with the marketplace account: { $account }
marketplace-verify-cached = ⏱ Result of a check less than a minute ago.
marketplace-verify-invalid = ❌ This purchase code is not valid. The marketplace says: { $message }
marketplace-verify-too-many = ⏳ Too many code checks in this chat. Wait { $seconds } seconds, then try again.
marketplace-verify-group-not-connected = This group is not connected to a seller's marketplace account. The seller needs to connect the marketplace with /connect in a private chat with the bot, then send /linkgroup in this group.
marketplace-verify-owner-not-connected = Whoever linked this group has not connected a marketplace account. The seller needs to connect it with /connect in a private chat with the bot.
marketplace-verify-owner-credentials = The marketplace rejected the credentials of the seller who linked this group (wrong or changed API key). The seller needs to reconnect with /connect in a private chat with the bot.
