## Connect: /connect and /disconnect, the provider credentials

connect-choose = 🔌 Choose the service to connect:
connect-button-service = { $service }
connect-button-replace = 🔁 Replace credentials
connect-button-retry = 🔁 Try again
connect-chosen = 🔌 { $service } chosen.
connect-already =
    { $service } is already connected ({ $label }, since { $since }).
    Replace it with new credentials? The current ones stay in use until the new ones pass the check.
connect-cancelled = Cancelled. Nothing was saved.

connect-ask-api-id =
    Step 1/2: send the <b>API ID</b> of your { $service } account (on the provider's API settings page). I delete messages with credentials from the chat at once.
    Send /cancel to stop.
connect-ask-api-key =
    Step 2/2: send the <b>API key</b> of your { $service } account.
    I delete the message with the key from the chat at once; the key is stored encrypted.
connect-ask-key-only =
    Send the <b>API key</b> of your { $service } account (on its API/account settings page).
    I delete the message with the key from the chat at once; the key is stored encrypted. Send /cancel to stop.
connect-text-only = Send it as a plain text message, or send /cancel to stop.
connect-delete-failed = ⚠️ I could not delete the message with your credentials. Delete it yourself now so nobody else can see them.
connect-checking = ⏳ Checking the credentials with { $service }…

connect-done = ✅ { $service } connected: { $label }. The credentials are stored encrypted.
connect-next-reseller = Next: check your balance with /balance, see the price list with /prices, then buy with /buy.
connect-next-marketplace = Next: see your account with /account, your items with /items, and check a buyer's purchase code with /verify.
connect-next-gameshop = Next: see the games with /games, place an order with /order, and follow your orders with /orders.
connect-rejected =
    ❌ { $service } rejected these credentials. Check them again on the provider's API settings page (copy them without spaces), then try again.
    Nothing was saved.
connect-failed =
    ❌ { $problem }
    Nothing was saved.
connect-failed-generic = ❌ The credentials could not be checked because of a problem on the bot's side. Nothing was saved; try again in a moment.

disconnect-none = No service is connected yet. Send /connect to connect a provider account.
disconnect-choose = Choose the service to disconnect:
disconnect-button-service = { $service } ({ $label })
disconnect-confirm =
    Disconnect { $service } ({ $label })?
    Its credentials are deleted from the bot. Commands that use this service will not work until you connect it again.
disconnect-button-confirm = ✅ Yes, disconnect
disconnect-button-keep = ❌ Cancel
disconnect-done = 🔌 { $service } disconnected and its credentials deleted. Connect again any time with /connect.
disconnect-kept = OK, { $service } stays connected.
disconnect-not-connected = { $service } is no longer connected.
