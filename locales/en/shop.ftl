## Shop profile: /shop, the shop as printed on customer receipts

command-shop = Shop profile for customer receipts
shop-intro =
    🏪 <b>Shop profile</b>
    Your shop profile is printed on <b>customer receipts</b>: the 🧾 Customer receipt button under every successful transaction makes a receipt for your buyer (a text ready to forward and a PNG picture) with your shop name, address and footer, and your sell price, never the cost.

    Type your <b>shop name</b> (at most { $max } characters):
shop-ask-name = Type the new <b>shop name</b> (at most { $max } characters):
shop-ask-address = Type the <b>address</b> (one line, at most { $max } characters), e.g. <i>Jl. Melati 5, Bandung · 0812-3456-7890</i>:
shop-ask-footer = Type the <b>footer</b> (at most { $max } characters), e.g. <i>Thank you, see you next time!</i>:
shop-ask-target = How should the <b>target number</b> show on receipts?
shop-profile =
    🏪 <b>Shop profile</b>
    Shop name: { $name }
    Address: { $address }
    Footer: { $footer }
    Target number: { $target }

    What would you like to change?
shop-none = (empty)
shop-target-full = in full (081234567890)
shop-target-masked = masked (0812****7890)
shop-button-name = ✏️ Name
shop-button-address = 📍 Address
shop-button-footer = 📝 Footer
shop-button-target = 🔒 Target number
shop-button-delete = 🗑 Delete profile
shop-button-done = ✅ Done
shop-button-skip = ⏭ Skip
shop-button-clear = 🧹 Clear
shop-button-cancel = ❌ Cancel
shop-button-full = In full
shop-button-masked = Masked
shop-too-long = Too long: at most { $max } characters. Type it again:
shop-too-many-lines = The footer can have at most { $max } lines. Type it again:
shop-one-line = The shop name and the address are one line each: type them without line breaks (Enter). Type it again:
shop-invisible = It contains invisible or control characters (such as a text-direction override or a zero-width space, often carried along when pasting) that would garble the receipt. Type it again in plain letters:
shop-text-only = Type text, or use the buttons.
shop-saved = ✅ Shop profile saved. The next customer receipts use it.
shop-deleted = 🗑 Shop profile deleted. Customer receipts are back to no shop name.
shop-cancelled = The shop profile was not changed.
shop-done = ✅ Done. Customer receipts use this profile.
shop-failed = ⚠️ The shop profile cannot be saved right now. Try again in a moment.

## Customer receipt: the 🧾 Customer receipt button under a Sukses receipt

customer-receipt-button = 🧾 Customer receipt
customer-receipt-title = PURCHASE RECEIPT
customer-receipt-status = SUCCESS
customer-receipt-product = Product
customer-receipt-target = Target number
customer-receipt-sn = SN
customer-receipt-token = Token
customer-receipt-token-info = Details
customer-receipt-price = Price
customer-receipt-time = Time
customer-receipt-ref = Ref no.
customer-receipt-hint = 💡 This receipt does not carry your shop name yet. Set your shop name, address and footer once with /shop.
customer-receipt-gone = This transaction is not in your account (or is too old). Customer receipts are for your own transactions only.
customer-receipt-not-success = Customer receipts are for successful transactions only.
customer-receipt-image-failed = ⚠️ The receipt picture cannot be made right now; the text above can be forwarded as it is.
