## Main menu (reply keyboard in private chats) and the account settings screen

command-settings = Account & settings: connected services, language, PIN

menu-balance = 💰 Balance
menu-buy = 🛒 Buy
menu-prices = 📋 Prices
menu-history = 🧾 History
menu-status = 🔎 Status
menu-settings = ⚙️ Settings
# The label before: an older keyboard may still send it.
menu-settings-former = ⚙️ Account
# Sent after a language change, with the menu in the new language.
menu-ready = The menu below now uses the new language.

settings-title = ⚙️ <b>Account & settings</b>
settings-services = Services:
settings-service-connected = ✅ { $service }: { $label }
settings-service-missing = ➖ { $service }: not connected
settings-service-upline = 👥 { $service }: through your upline's account, { $name }
settings-language = Language: { $language }
settings-pin-on = Purchase PIN: on 🔐
settings-pin-off = Purchase PIN: not set
settings-button-connect = 🔗 Connect an account
settings-button-disconnect = 🔌 Disconnect an account
settings-button-language = 🌐 Language
settings-button-pin = 🔒 PIN

## A flow ended because the user moved on (another command or another feature's button)

# $id: the conversation that ended.
flow-left = { $id ->
        [buy] The previous purchase was cancelled.
        [order] The previous order was cancelled.
        [pin] The previous PIN change was cancelled.
       *[connect] Connecting the account was cancelled; nothing was stored.
    }
# $what: what the flow was about (a summary's lines).
flow-left-what = { $id ->
        [buy] The previous summary ({ $what }) was cancelled — nothing was bought.
       *[other] { $what }: cancelled.
    }
