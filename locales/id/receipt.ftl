## Receipt: one transaction in detail (/cek, /riwayat, settlement notices)

receipt-title = 🧾 <b>Struk transaksi</b>
receipt-product = Produk: { $product } ({ $code })
receipt-target = Tujuan: { $target }
receipt-price = Harga: { $price }
receipt-status = Status: { $status }
receipt-sn = SN: { $sn }
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
receipt-note-unresolved = Status tidak bisa dipastikan dalam batas waktu pengecekan. Tanyakan ke provider dengan Ref ID di atas.

receipt-button-copy-sn = 📋 Salin SN
