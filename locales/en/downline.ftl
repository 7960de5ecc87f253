## Downlines: /downline (upline's mode, levels, invite links, the list), invite links, join requests

downline-title = 👥 <b>Downlines</b>
downline-opened = ✅ Downline mode is open. You are an upline now: invite other resellers by link, approve their requests and pick their price level. First level: Bronze (price = your cost until you set its markup).
downline-not-open = Downline mode is not open. Send /downline to open it.
downline-usage =
    Downline commands:
    <code>/downline</code> — your downlines, levels and invite links
    <code>/downline invite 7d 10x</code> — a new invite link (optional: valid 7 days, for 10 people)
    <code>/downline level Gold 2%</code> — create or change a level (more lines: <code>brand TELKOMSEL 500</code>, <code>product TSEL10 =10500</code>, <code>round 500</code>)
    <code>/downline level Gold remove</code> — remove a level
    <code>/downline default Gold</code> — the default level
    <code>/downline auto on</code> or <code>off</code> — approve into the default level automatically
    <code>/downline limit @user 500000</code> or <code>off</code> — a downline's daily spend limit
    <code>/downline group on</code> or <code>off</code> — post downline purchases to your linked group (masked)
    <code>/report dl</code>, <code>/report dl @user</code> — the report of your downlines' purchases (also <code>/export dl</code>)
downline-refused-not-connected = Downline mode is for resellers who connected a reseller top-up account. Connect one first with /connect, then send /downline again.
downline-refused-is-downline = You are a downline of { $name }, so you cannot open downline mode of your own. To have your own downlines, ask { $name } to remove you first, then connect your reseller account with /connect.
downline-refused-is-upline = You are an upline already.
downline-connect-refused = You are a downline of { $name }: your purchases use your upline's account, so a reseller top-up account of your own cannot be connected. To use your own, ask { $name } to remove you first.

downline-levels-title = <b>Levels</b>
downline-level-line = • { $level }: { $rules }
downline-level-default = { $level } (default)
downline-level-at-cost = price = your cost (no markup yet)
downline-level-no-default = no default markup
downline-level-overrides = { $brands } brand, { $products } product overrides
downline-auto-on = 🤖 Auto-approve: on — join requests go straight into the default level.
downline-auto-off = 🤖 Auto-approve: off — every join request waits for your approval.
downline-none = No downlines yet. Make an invite link with 🔗 Invites and share it.
downline-list-title = <b>Downlines ({ $count })</b>
downline-list-line = { $n }. { $name } · { $level } · joined { $joined } · { $status }
downline-list-more = … and { $count } more
downline-status-active = active
downline-status-suspended = ⏸ suspended
downline-card =
    👤 <b>{ $name }</b> (ID { $id })
    Level: { $level }
    Joined: { $joined }
    Status: { $status }

downline-button-card = { $n }. { $name }
downline-button-invites = 🔗 Invites
downline-button-levels = 🏷 Levels
downline-button-auto-on = 🤖 Auto-approve: on
downline-button-auto-off = 🤖 Auto-approve: off
downline-button-back = ⬅️ Back
downline-button-revoke = 🚫 Revoke { $n }
downline-button-new-invite = ➕ New link
downline-button-suspend = ⏸ Suspend
downline-button-resume = ▶️ Resume
downline-button-remove = 🗑 Remove
downline-button-level = 🏷 Make { $level }
downline-button-approve = ✅ Approve: { $level }
downline-button-decline = ❌ Decline

downline-invites-title = 🔗 <b>Invite links</b>
downline-invites-none = No active invite links.
downline-invite-line = { $n }. { $link }
    { $limits }
downline-invite-no-expiry = no expiry
downline-invite-until = valid until { $date }
downline-invite-uses = used { $uses }×
downline-invite-uses-of = used { $uses } of { $max }
downline-invites-help = A link with limits: <code>/downline invite 7d 10x</code> (valid 7 days, for 10 people).
downline-invite-made = 🔗 New invite link:
    { $link }
    Share it with future downlines. Whoever opens it asks to join; you approve and pick their level.
downline-invite-bad = "{ $text }" does not read. Example: <code>/downline invite 7d 10x</code> (7 days, 10 people); both are optional.
downline-invite-too-many = There are { $max } active links already. Revoke one first under 🔗 Invites.
downline-invite-revoked = Link revoked.
downline-invite-already = This link was revoked already.
downline-invite-unknown = This link no longer exists.

downline-levels-screen-title = 🏷 <b>Downline levels</b>
downline-levels-help =
    A downline's price = your cost + their level's markup (rules as in /sellprice). Example:
    <code>/downline level Gold 2%</code>
    More lines in the same message: <code>brand TELKOMSEL 500</code>, <code>product TSEL10 =10500</code>, <code>round 500</code> (rounding: 100, 500 or 1000), <code>product TSEL10 remove</code>.
    <code>/downline default Gold</code> makes it the default level; <code>/downline level Gold remove</code> removes it.
downline-level-created = ✅ Level created.
downline-level-saved = ✅ Level saved.
downline-level-removed = 🗑 Level { $level } removed.
downline-level-problems = Level not saved: some lines do not read.
downline-level-problem-unreadable = • "{ $line }": not a markup (for example <code>2%</code>, <code>Rp 500</code>, <code>brand XL 1000</code>, <code>product TSEL10 =10500</code>).
downline-level-problem-too-large = • "{ $line }": too large (at most Rp 10.000.000 or 1000%).
downline-level-problem-ambiguous = • "{ $line }": percent or rupiah? Write it with % or Rp, like 10% or Rp 10.
downline-level-not-open = Downline mode is not open. Send /downline to open it.
downline-level-bad-name = A level name is one word (letters, digits, _ or -), at most 24 characters, like Gold.
downline-level-too-many = At most { $max } levels.
downline-level-remove-not-open = Downline mode is not open. Send /downline to open it.
downline-level-remove-unknown-level = There is no level "{ $level }". See your levels under /downline → 🏷 Levels.
downline-level-remove-default = { $level } is the default level. Make another level the default first (<code>/downline default NAME</code>).
downline-level-remove-in-use = Downlines are still at level { $level }. Move them to another level first.
downline-default-set = ✅ { $level } is the default level now.

downline-not-yours = This user is not (or no longer) your downline.
downline-unknown-level = That level no longer exists.
downline-unchanged = Nothing changed.
downline-done-suspend = Downline suspended.
downline-done-resume = Downline active again.
downline-done-remove = Downline removed.
downline-done-level = Level changed.

downline-join-requested = ✅ Join request sent to { $name }. You will be told as soon as they answer.
downline-join-pending = Your request to { $name } is still waiting for an answer. You will be told as soon as they answer.
downline-join-joined = ✅ You are now a downline of { $name }, level { $level }.
downline-join-bad-invite = This invite link does not work (unknown, or its owner closed downline mode). Ask whoever invited you for a new link.
downline-join-self = This is your own invite link: share it with future downlines. You cannot be your own downline.
downline-join-is-reseller = You connected a reseller top-up account of your own, so you cannot be a downline. To join, disconnect it first with /disconnect, then open this link again.
downline-join-is-upline = You are an upline yourself (downline mode is open), so you cannot be someone else's downline.
downline-join-member-same = You are this upline's downline already.
downline-join-member-other = You are someone else's downline already. A downline has one upline: ask yours to remove you first.
downline-join-upline-unavailable = Whoever invited you cannot take downlines right now (their reseller account is not connected). Try again later or contact them.
downline-join-full = Whoever invited you has too many unanswered requests right now. Try again later.
downline-join-invite-revoked = This invite link was revoked. Ask whoever invited you for a new link.
downline-join-invite-expired = This invite link has expired. Ask whoever invited you for a new link.
downline-join-invite-used-up = This invite link has been used up. Ask whoever invited you for a new link.

downline-request = 👥 { $name } (ID { $id }) asks to join as your downline. Approve by picking their level, or decline.
downline-request-approved = ✅ Approved: level { $level }.
downline-request-declined = ❌ Declined.
downline-request-void = ⚪ Can no longer be approved.
downline-request-already = This request was answered already.
downline-request-not-open = Your downline mode is not open.
downline-request-unknown-request = This request no longer exists.
downline-request-unknown-level = That level no longer exists. Pick another one.
downline-request-not-connected = Your reseller top-up account is not connected: connect it first with /connect, then approve again.
downline-request-void-reseller = Cannot be approved: this user connected a reseller account of their own.
downline-request-void-upline = Cannot be approved: this user is an upline themselves.
downline-request-void-member = Cannot be approved: this user is someone else's downline already.
downline-joined-auto = 👥 { $name } joined as your downline (auto-approve), level { $level }.

downline-outcome-approved = ✅ { $name } approved you as their downline, level { $level }.
downline-outcome-declined = ❌ { $name } declined your request to join.
downline-outcome-void-reseller = Your request to { $name } could not be approved: you connected a reseller top-up account of your own. Disconnect it first with /disconnect, then open the invite link again.
downline-outcome-void-upline = Your request to { $name } could not be approved: you are an upline yourself.
downline-changed-suspend = ⏸ { $name } suspended your downline account.
downline-changed-resume = ▶️ { $name } made your downline account active again.
downline-changed-remove = { $name } removed you from their downlines.
downline-changed-level = 🏷 { $name } moved you to level { $level }.

## Downlines: the upline's view (balances and today's figures on the list, the card, the daily spend limit)

downline-list-today = └ balance { $balance } · today { $count } trx · your margin { $margin }
downline-list-page = Showing { $from }–{ $to } of { $count }.
downline-button-previous = ◀️ Previous
downline-button-next = Next ▶️
downline-card-wallet = Wallet balance: { $balance }
downline-card-today = Today: { $count } transactions, { $success } successful · sales { $sales } · your margin { $margin }
downline-card-limit = Daily spend limit: { $limit } (spent today { $spent }, { $left } left)
downline-card-limit-none = Daily spend limit: none
downline-button-limit = 💳 Daily limit
downline-button-report = 📊 Report
downline-button-limit-off = No limit
downline-limit-title = 💳 <b>Daily spend limit of { $name }</b>
downline-limit-current = Now: { $limit } per day (WIB).
downline-limit-help = A purchase that would take today's (WIB) spend past the limit is refused; failed purchases do not count. Pick an amount, or type for example <code>/downline limit { $id } 750000</code>.
downline-limit-usage = Write it like this: <code>/downline limit @user 500000</code> (or the downline's ID; an amount from Rp 1 to { $max }), or <code>/downline limit @user off</code> for no limit.
downline-done-limit = Daily limit: { $amount }.
downline-done-limit-off = Daily limit removed.
downline-bad-limit = That limit amount is not valid.
downline-changed-limit = 💳 { $name } set your daily spend limit: { $amount } per day (WIB).
downline-changed-limit-off = 💳 { $name } removed your daily spend limit.
downline-group-on = 📣 Group notices: on — your downlines' settled purchases are posted to your linked group (targets masked, no prices).
downline-group-off = 📣 Group notices: off — <code>/downline group on</code> posts your downlines' purchases to your linked group.
downline-group-set-on = 📣 Group notices on: each settled purchase of a downline is posted to your linked group (the downline's first name, product, masked target, status; no price, cost or margin).
downline-group-set-on-unlinked = 📣 Group notices on, but no group is linked yet: run /linkgroup in your group (as a group admin).
downline-group-set-off = 📣 Group notices off: downline purchases are not posted to the group.
downline-spend-over = This purchase goes past your daily spend limit ({ $limit } a day, WIB): { $left } left today. Pick a cheaper product, try again tomorrow, or ask your upline to raise the limit.
