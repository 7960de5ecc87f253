## PIN: /pin, the purchase PIN

pin-menu =
    🔐 Your purchase PIN is on: every purchase asks for it.
    What do you want to do?
pin-button-change = 🔁 Change PIN
pin-button-remove = 🗑 Remove PIN
pin-button-cancel = ❌ Cancel
pin-intro = 🔐 You have no purchase PIN yet. With a PIN, every purchase must be confirmed with it, so someone holding your phone cannot buy.
pin-ask-new = Type a new PIN (4–6 digits). I delete the message at once. Send /cancel to stop.
pin-ask-confirm = Type the new PIN once more to make sure.
pin-ask-current = Type your current PIN. I delete the message at once. Send /cancel to stop.
pin-format = A PIN is 4–6 digits, no letters or spaces. Try again.
pin-weak = That PIN is too easy to guess (all the same digit or a sequence). Choose other digits.
pin-mismatch = The two PINs differ. Start over: type the new PIN.
pin-wrong = ❌ Wrong PIN. { $left ->
        [one] 1 try left
       *[other] { $left } tries left
    } before purchases are locked for 15 minutes. Try again.
pin-locked = 🔒 Too many wrong PINs. Purchases and PIN settings are locked until { $until }.
pin-set = ✅ PIN saved. From now on every purchase asks for this PIN.
pin-changed = ✅ PIN changed. The next purchase uses the new PIN.
pin-removed = ✅ PIN removed. Purchases no longer ask for a PIN.
pin-cancelled = Cancelled. Your PIN did not change.
pin-delete-failed = ⚠️ I could not delete the message with your PIN. Delete it yourself now.
pin-text-only = Type the PIN as a plain text message, or send /cancel to stop.
pin-failed = Sorry, the PIN could not be saved because of a problem on the bot's side. Your PIN did not change; try again in a moment.
