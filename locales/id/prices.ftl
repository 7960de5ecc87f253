## Prices: /harga, the reseller price list

prices-brands = 📋 <b>Daftar harga</b>
    { $products } produk dari { $brands } brand{ $unavailable ->
        [0] {""}
       *[other] {" "}({ $unavailable } sedang tidak tersedia)
    }. Pilih brand di bawah.
    Cari: ketik saja yang dicari (misalnya <code>pulsa xl 10rb</code>, <code>data tsel 5gb</code>, <code>token pln 50</code>), atau <code>/harga ml 86</code>
prices-page = Halaman { $page }/{ $pages }
prices-empty = Daftar harga dari provider masih kosong. Coba muat ulang nanti.
prices-brand-title = 📋 <b>{ $brand }</b> — { $count } produk, halaman { $page }/{ $pages }
prices-search-title = 🔎 Hasil pencarian "{ $query }" — { $count } produk, halaman { $page }/{ $pages }
prices-search-empty = 🔎 Tidak ada produk yang cocok dengan "{ $query }".
    Dicari: { $understood }
prices-search-examples = Coba: { $examples }
prices-search-forms = Tulis kategori (pulsa, data, token, game, voucher), operator atau brand (tsel, isat, xl, axis, tri, sf, byu, ml, ff) dan nominal (<code>10</code>, <code>10rb</code>, <code>10.000</code>) atau kuota (<code>5gb</code>), atau kode produk. Bisa juga pilih brand.
prices-search-term-category = { $category ->
        [pulsa] pulsa
        [data] paket data
        [pln] token PLN
        [game] game
        [voucher] voucher
       *[ewallet] e-wallet
    }
prices-search-term-number = { $number } ({ $nominal })
prices-search-term-word = "{ $word }"
prices-line-available = <code>{ $code }</code> { $name } — <b>{ $price }</b>
prices-line-sell = <code>{ $code }</code> { $name } — { $figures }
prices-line-unavailable = ⛔ <code>{ $code }</code> { $name } — tidak tersedia ({ $status })
prices-footer = Ketuk produk untuk membelinya. ⛔ = sedang tidak bisa dibeli.

prices-button-brand = { $brand } ({ $count })
prices-button-product = { $code } · { $price }
prices-button-unavailable = ⛔ { $code } · { $status }
prices-button-search = 🔍 Cari
prices-button-brands = « Semua brand

prices-refreshed = Daftar harga diperbarui.
prices-unavailable = { $name } sedang tidak tersedia (status: { $status }). Pilih produk lain atau coba lagi nanti.
prices-gone = Produk ini sudah tidak ada di daftar harga. Ketuk 🔄 Muat ulang untuk daftar terbaru.
prices-buying = { $name } — { $price }
prices-search-prompt = 🔍 Ketik nama produk, operator atau kode yang dicari (misalnya: pulsa xl 10rb, data tsel 5gb, token pln 50, ml 86):
prices-search-placeholder = telkomsel 10

## A product's status as the provider wrote it (gangguan, kosong, nonaktif), in the reader's words
product-status-gangguan = { $status }
product-status-kosong = { $status }
product-status-nonaktif = { $status }
