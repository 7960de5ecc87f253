## Inline mode: @bot tsel 10 in any chat shares a price card (sell price only)

inline-card-shop = 🏪 <b>{ $shop }</b>
inline-card =
    📦 <b>{ $name }</b>
    💰 Harga: <b>{ $price }</b>
    { $status }
inline-status-available = ✅ Tersedia
inline-status-unavailable = ⛔ Tidak tersedia ({ $status })
inline-description = { $price } · { $status }
inline-button-connect = 🔌 Hubungkan akun reseller dulu di bot
inline-button-empty = 🔎 Tidak ada produk untuk "{ $query }" — buka bot
inline-button-unavailable = ⚠️ Daftar harga belum bisa dibuka — buka bot
inline-start-connect =
    🔌 <b>Bagikan harga dari chat mana pun</b>
    Ketik <code>@{ $bot } tsel 10</code> di chat pelanggan untuk mengirim kartu harga berisi harga jual Anda (modal tidak pernah ikut terkirim).

    Untuk memakainya, hubungkan dulu akun reseller Anda: kirim /connect, pilih Top-up reseller, lalu masukkan API ID dan API key dari halaman pengaturan API provider Anda.
inline-start-help =
    🔎 <b>Bagikan harga dari chat mana pun</b>
    Di chat pelanggan, ketik <code>@{ $bot }</code> lalu produk yang dicari, misalnya <code>@{ $bot } tsel 10</code>, <code>@{ $bot } token pln 50</code> atau <code>@{ $bot } ml 86</code>. Pilih satu hasil: kartu harga dengan harga jual Anda terkirim (modal tidak pernah ikut). Tanpa kata pencarian, produk yang paling sering Anda beli muncul duluan.
