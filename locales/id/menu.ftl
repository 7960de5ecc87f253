## Main menu (reply keyboard in private chats) and the account settings screen

command-settings = Akun & pengaturan: layanan terhubung, bahasa, PIN

menu-balance = 💰 Saldo
menu-buy = 🛒 Beli
menu-prices = 📋 Harga
menu-history = 🧾 Riwayat
menu-status = 🔎 Cek
menu-settings = ⚙️ Pengaturan
# The label before: an older keyboard may still send it.
menu-settings-former = ⚙️ Akun
# Sent after a language change, with the menu in the new language.
menu-ready = Menu di bawah sudah memakai bahasa baru.

settings-title = ⚙️ <b>Akun & pengaturan</b>
settings-services = Layanan:
settings-service-connected = ✅ { $service }: { $label }
settings-service-missing = ➖ { $service }: belum terhubung
settings-service-upline = 👥 { $service }: lewat akun upline Anda, { $name }
settings-language = Bahasa: { $language }
settings-pin-on = PIN transaksi: aktif 🔐
settings-pin-off = PIN transaksi: belum diatur
settings-button-connect = 🔗 Hubungkan akun
settings-button-disconnect = 🔌 Putuskan akun
settings-button-language = 🌐 Bahasa
settings-button-pin = 🔒 PIN

## A flow ended because the user moved on (another command or another feature's button)

# $id: the conversation that ended.
flow-left = { $id ->
        [buy] Pembelian sebelumnya dibatalkan.
        [order] Pesanan sebelumnya dibatalkan.
        [pin] Pengaturan PIN sebelumnya dibatalkan.
       *[connect] Menghubungkan akun dibatalkan; tidak ada yang disimpan.
    }
# $what: what the flow was about (a summary's lines).
flow-left-what = { $id ->
        [buy] Ringkasan sebelumnya ({ $what }) dibatalkan — tidak ada yang dibeli.
       *[other] { $what }: dibatalkan.
    }
