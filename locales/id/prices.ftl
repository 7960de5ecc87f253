## Prices: /harga, the reseller price list

prices-brands = 📋 <b>Daftar harga</b>
    { $products } produk dari { $brands } brand{ $unavailable ->
        [0] {""}
       *[other] {" "}({ $unavailable } sedang tidak tersedia)
    }. Pilih brand di bawah.
    Cari: ketik saja nama produknya (misalnya <code>telkomsel 10</code>), atau <code>/harga ml 86</code>
prices-page = Halaman { $page }/{ $pages }
prices-empty = Daftar harga dari provider masih kosong. Coba muat ulang nanti.
prices-brand-title = 📋 <b>{ $brand }</b> — { $count } produk, halaman { $page }/{ $pages }
prices-search-title = 🔎 Hasil pencarian "{ $query }" — { $count } produk, halaman { $page }/{ $pages }
prices-search-empty = 🔎 Tidak ada produk yang cocok dengan "{ $query }". Coba kata lain (misalnya nama operator atau kode produk), atau pilih brand.
prices-line-available = <code>{ $code }</code> { $name } — <b>{ $price }</b>
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
prices-search-prompt = 🔍 Ketik nama produk, operator atau kode yang dicari (misalnya: telkomsel 10, ml 86):
prices-search-placeholder = telkomsel 10
