## Common: shared words, errors and provider problems

service-reseller = Reseller top-up
service-marketplace = Marketplace
service-gameshop = Game shop

error-generic = Sorry, something went wrong on the bot's side. Try again in a moment; if it keeps happening, contact the admin.
error-temporary = Sorry, the bot's server has a temporary problem, so your request could not be handled. Nothing is bought twice. Try again in a few minutes.
error-temporary-retrying = Sorry, the bot's server has a temporary problem. I will try your request again by myself shortly (nothing is bought twice); if there is no answer within a few minutes, please send it again.
error-cannot-save = Sorry, the bot cannot save anything right now, so your request was not handled and nothing was bought. Try again in a few minutes.
error-not-connected = Your { $service } account is not connected yet. Send /connect to connect it first.
error-private-only = This command only works in a private chat with the bot, to keep your data safe. Open a private chat with me and try again.
error-too-fast = Slow down 🙂 Too many messages in a short time. Wait a few seconds and try again.

provider-error-credentials = { $service } rejected your credentials (wrong or changed API ID/key). Reconnect with /connect.
provider-error-ip-blocked = { $service } blocks this bot server's IP. Add IP { $ip } to the whitelist in your account's API settings, then try again.
provider-error-ip-blocked-unknown = { $service } blocks this bot server's IP. Ask the bot admin for the server IP, then add it to the whitelist in your account's API settings.
provider-error-insufficient = Your { $service } deposit balance is too low. Top up your deposit, then try again.
provider-error-not-found = { $service } says: { $message }
provider-error-rejected = { $service } rejected the request: { $message }
provider-error-validation = { $service } rejected some fields:
provider-error-unknown = { $service } did not answer in time (network or server trouble). Try again in a moment.
provider-said = { $service } said: "{ $message }"
provider-error-malformed = { $service } sent an answer that cannot be read. Try again later; if it keeps happening, tell the admin.

button-cancel = ❌ Cancel
button-back = « Back
button-prev = ‹ Previous
button-next = Next ›
button-refresh = 🔄 Refresh

conversation-cancelled = Cancelled. Send /help to see what I can do.
conversation-nothing-to-cancel = Nothing is in progress.
# The command that starts conversation $id again.
conversation-restart = { $id ->
        [buy] /buy
        [order] /order
        [pin] /pin
        [sell] /sellprice
       *[connect] /connect
    }
conversation-expired = That step had already ended because there was no reply for { $minutes } min, so I did not pass your message on. Start again with { $command }.

time-wib = { $date } { $hour }:{ $minute } WIB
# The months of a date, January to December, separated by spaces
time-months = Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec
unhandled-text = I did not understand that. Send /help for the commands, or send CODE.TARGET (for example TSEL10.081234567890) to buy quickly.
unhandled-phone = 📱 { $phone } is a { $operator } number. To buy credit or a data package for it, send <code>CODE.{ $phone }</code>; the product codes are in /prices { $search }.
unhandled-phone-unknown = 📱 { $phone } looks like a phone number. To buy for it, send <code>CODE.{ $phone }</code>; find the product code with /prices.
unhandled-bad-target = "{ $target }" is not a valid target for { $code }: a target is written in digits (a phone number, a meter number or a game id), for example <code>{ $code }.081234567890</code>.
unhandled-search-target =
    Products matching "{ $query }" for { $target }. Send one of these lines to buy:
    { $lines }
unhandled-search-target-none = To buy for { $target }, send <code>CODE.{ $target }</code>. Find the product code with /prices { $query }.
unhandled-secret = I deleted your message because it looks like an API key or a PIN and nothing was waiting for one (perhaps the step timed out). Start again with /connect or /pin.
unhandled-secret-expired = I deleted your message because it looks like an API key or a PIN. That step had already ended because there was no reply for { $minutes } min, so nothing was saved. Start again with { $command }.
unhandled-callback = This button is no longer valid. Start again from its command.

## The periods of /ekspor and /laporan (days in WIB, weeks from Monday)
period-today = Today
period-yesterday = Yesterday
period-week = This week
period-month = This month
period-lastmonth = Last month
