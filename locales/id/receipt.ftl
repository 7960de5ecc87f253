## Receipt: one transaction in detail (/cek, /riwayat, settlement notices)

receipt-title = 🧾 <b>Struk transaksi</b>
receipt-product = Produk: { $product } ({ $code })
receipt-target = Tujuan: { $target }
receipt-price = Harga: { $price }
receipt-price-sell = Modal → jual: { $cost } → { $sell } ({ $margin })
receipt-price-sell-loss = Modal → jual: { $cost } → { $sell } (⚠️ rugi { $margin })
receipt-price-sell-open = Modal → jual: { $cost } → { $sell } ({ $margin } bila sukses)
receipt-price-sell-none = Modal → jual: { $cost } → { $sell } (tanpa margin)
receipt-status = Status: { $status }
receipt-sn = SN: { $sn }
receipt-token = Token: { $token }
receipt-token-info = Keterangan: { $info }
receipt-ref = Ref ID: { $refId }
receipt-trx = Trx ID: { $trxId }
receipt-time = Waktu: { $time }
receipt-settled = Selesai: { $time }

receipt-status-success = Sukses
receipt-status-failed = Gagal
receipt-status-pending = Pending
receipt-status-created = Diproses
receipt-status-rejected = Ditolak
receipt-status-unresolved = Tidak terselesaikan

receipt-note-pending = ⏳ Masih diproses provider. Anda akan diberi tahu begitu selesai; cek sendiri kapan saja dengan /cek { $refId }
receipt-note-rejected = Provider menolak transaksi ini, saldo tidak terpotong. Alasan: { $reason }
receipt-note-downline-unavailable = Produk sedang tidak tersedia; saldo dompet Anda sudah dikembalikan.
receipt-note-unresolved = Status tidak bisa dipastikan dalam batas waktu pengecekan. Tanyakan ke provider dengan Ref ID di atas.
receipt-note-restored = Bot dipulihkan dari cadangan yang dibuat sebelum pembelian ini dikirim, dan tidak mengirimnya lagi. Tanyakan ke provider dengan Ref ID di atas.

receipt-button-copy-sn = 📋 Salin SN
# $n: the line's number in a multi-line purchase's result.
receipt-button-line-sn = 📋 SN { $n }
receipt-button-line-receipt = 🧾 Struk { $n }
receipt-button-copy-token = 📋 Salin token
receipt-button-buy-again = 🔁 Beli lagi

## Buy again (the button under a Sukses receipt)

receipt-again-question = 🔁 Beli lagi { $product } (<code>{ $code }</code>) — ke tujuan yang sama atau tujuan lain?
receipt-again-same = 📱 { $target }
receipt-again-other = ✏️ Tujuan lain
receipt-again-cancelled = ❌ Dibatalkan. Tidak ada yang dibeli.
receipt-again-gone = Transaksi ini tidak ditemukan lagi. Beli lewat /harga atau /beli.

## The one-line message that pings the owner when a transaction settles (the receipt is the message it replies to)

receipt-ping = { $icon } { $product } · { $target } · { $status }
