## Start, help and commands

command-start = Start and see how to use the bot
command-help = List of commands
command-connect = Connect a provider account (API)
command-disconnect = Disconnect a provider account
command-balance = Check your deposit balance
command-prices = Price list (optionally with a search word)
command-buy = Buy a product: /buy CODE TARGET
command-status = Check a transaction's status
command-history = Transaction history
command-pin = Set a purchase PIN
command-language = Change language
command-cancel = Cancel what is in progress

start-welcome =
    Hello { $name }! 👋 I am kiosbot, your assistant for selling airtime, data packages, PLN tokens and game vouchers.

    First step: connect your provider account with /connect (the API ID and API key from your provider's API settings page).
start-welcome-connected =
    Welcome back, { $name }! 👋 Your provider account is connected.

    Check your balance with /balance, find a product with /prices, or buy quickly: send CODE.TARGET, for example TSEL10.081234567890.
start-welcome-downline =
    Welcome back, { $name }! 👋 You are a downline of { $upline }: you buy through { $upline }'s account, paid from your wallet.

    Check your wallet with /balance, top it up with /deposit, find products with /prices, or buy quickly: send CODE.TARGET, for example TSEL10.081234567890.
start-group =
    Hello everyone! I am kiosbot. In this group I can post the shop owner's transaction notices. Send /help for the commands.

help-title = kiosbot commands
help-section-reseller = Reseller (airtime, data, PLN)
help-section-marketplace = Marketplace
help-section-gameshop = Game shop
help-section-groups = Groups
help-section-settings = Settings
help-connect-first = (connect first)
help-quick-buy = <code>TSEL10.081234567890</code> — quick buy; several lines at once (up to 20)
help-inline = <code>@{ $bot } tsel 10</code> in any chat — send a price card with your sell price (never the cost)

## Language

language-choose = Choose a language:
language-changed = Okay, I will speak English. 🇬🇧
