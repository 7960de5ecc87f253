## Inline mode: @bot tsel 10 in any chat shares a price card (sell price only)

inline-card-shop = 🏪 <b>{ $shop }</b>
inline-card =
    📦 <b>{ $name }</b>
    💰 Price: <b>{ $price }</b>
    { $status }
inline-status-available = ✅ Available
inline-status-unavailable = ⛔ Unavailable ({ $status })
inline-description = { $price } · { $status }
inline-button-connect = 🔌 Connect your reseller account in the bot first
inline-button-empty = 🔎 No product matches "{ $query }" — open the bot
inline-button-unavailable = ⚠️ The price list cannot be read right now — open the bot
inline-start-connect =
    🔌 <b>Share prices from any chat</b>
    Type <code>@{ $bot } tsel 10</code> in a customer's chat to send a price card with your sell price (your cost is never sent).

    To use it, connect your reseller account first: send /connect, pick Reseller top-up, then enter the API ID and API key from your provider's API settings page.
inline-start-help =
    🔎 <b>Share prices from any chat</b>
    In a customer's chat, type <code>@{ $bot }</code> and the product you look for, for example <code>@{ $bot } tsel 10</code>, <code>@{ $bot } token pln 50</code> or <code>@{ $bot } ml 86</code>. Pick a result: a price card with your sell price is sent (never your cost). With no search words, the products you buy most come first.
