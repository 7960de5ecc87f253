## Sell prices: /jual, the reseller's markup rules (cost → sell price, margin)

command-sellprice = Harga jual: atur markup keuntungan
sell-title = 💰 <b>Harga jual</b>
sell-none = Belum ada aturan, jadi harga jual = harga modal. Atur markup default, per brand atau per produk dengan tombol di bawah.
sell-default = Default: { $markup }
sell-default-none = Default: tanpa markup
sell-step = Dibulatkan ke atas ke kelipatan { $step }
sell-step-none = Tanpa pembulatan
sell-brands-title = <b>Per brand</b>
sell-products-title = <b>Per produk</b>
sell-rule-line = • { $name }: { $markup }
sell-markup-fixed = { $sign }{ $amount }
sell-markup-percent = { $sign }{ $percent }%
sell-markup-price = harga jual { $price }
sell-order-note = <i>Aturan produk mengalahkan brand, brand mengalahkan default.</i> Cepat: <code>/jual 5%</code> mengatur markup default.

sell-button-default = ✏️ Markup default
sell-button-brand = 🏷 Per brand
sell-button-product = 📦 Per produk
sell-button-step-none = Tanpa pembulatan
sell-button-step = { $step }
sell-button-cancel = ❌ Batal

sell-syntax-default = Tulis persen (<code>5%</code>, <code>2,5%</code>) atau rupiah (<code>1500</code>, <code>Rp 1.500</code>, <code>1,5rb</code>). <code>0</code> = tanpa markup.
sell-ask-default =
    ✏️ Ketik markup default untuk semua produk.
    { sell-syntax-default }
sell-bad-default =
    "{ $text }" bukan markup yang saya kenal.
    { sell-syntax-default }
sell-ask-step = Markup { $markup }. Harga jual dibulatkan ke atas ke kelipatan berapa?
sell-use-step-buttons = Pilih pembulatan dengan tombol di atas, atau /batal.
sell-syntax-brand =
    Satu baris per brand: nama brand lalu markup (rupiah atau persen; boleh negatif).
    <code>TELKOMSEL 1000</code>
    <code>MOBILE LEGENDS 5%</code>
    Hapus: <code>TELKOMSEL hapus</code>
sell-ask-brand =
    🏷 Ketik markup per brand (nama seperti di /harga).
    { sell-syntax-brand }
sell-bad-brand =
    Baris "{ $text }" tidak bisa dibaca.
    { sell-syntax-brand }
sell-syntax-product =
    Satu baris per produk: kode produk lalu markup, atau <code>=</code> dan harga jual pasnya.
    <code>TSEL10 1000</code> (markup Rp 1.000)
    <code>TSEL10 5%</code>
    <code>TSEL10 =12500</code> (harga jual Rp 12.500, tanpa pembulatan)
    Hapus: <code>TSEL10 hapus</code>
sell-ask-product =
    📦 Ketik markup per produk.
    { sell-syntax-product }
sell-bad-product =
    Baris "{ $text }" tidak bisa dibaca.
    { sell-syntax-product }
sell-too-large = "{ $text }" terlalu besar: markup atau harga jual paling banyak { $rupiah }, persen paling banyak { $percent }%.
sell-ambiguous = "{ $text }" bisa berarti persen atau rupiah, jadi belum saya pakai. Tulis <code>{ $percent }</code> untuk persen, atau <code>{ $rupiah }</code> untuk rupiah.
sell-ambiguous-oneshot = "{ $text }" bisa berarti persen atau rupiah, jadi aturan tidak diubah. Tulis <code>/jual { $percent }</code> untuk persen, atau <code>/jual { $rupiah }</code> untuk rupiah.
sell-text-only = Balas dengan teks, atau ketik /batal.
sell-cancelled = Dibatalkan; aturan harga jual tidak berubah.
sell-saved = ✅ Aturan harga jual disimpan.
sell-cleared = 🗑 Semua aturan harga jual dihapus: harga jual = harga modal.
sell-bad-oneshot =
    "{ $text }" bukan markup yang saya kenal.
    { sell-syntax-default }
    Contoh: <code>/jual 5%</code>. Hapus semua aturan: <code>/jual hapus</code>. Atur per brand atau produk: /jual lalu pilih tombolnya.
sell-check-line = { $code } · { $figures }
sell-brand-check = { $brand }: { $count } produk, misalnya { $code } · { $figures }
sell-brand-not-in-list = { $brand }: tidak ada produk brand ini di daftar harga Anda (aturannya tetap disimpan). Tulis nama brand seperti di /harga, misalnya { $examples }.
sell-not-in-list = { $code }: tidak ada di daftar harga Anda (aturannya tetap disimpan).

sell-figures = { $cost } → { $sell } ({ $margin })
sell-figures-loss = { $cost } → { $sell } (⚠️ rugi { $margin })
