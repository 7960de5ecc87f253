## Wallet: a downline's /saldo, /deposit, /mutasi; the upline's /carabayar, /saldodl and deposit requests

command-payinfo = Cara bayar deposit untuk downline Anda
command-dlbalance = Tambah/kurangi saldo downline: /saldodl ID +50000 alasan
command-deposit = Isi saldo deposit di upline Anda: /deposit 100000
command-statement = Mutasi saldo deposit Anda

wallet-balance =
    💰 <b>Saldo deposit Anda</b>: { $amount }
    Disimpan di upline Anda, { $name }. Dibaca { $time }.
    Tambah saldo dengan /deposit; riwayat mutasi dengan /mutasi.
wallet-not-downline = Perintah ini untuk downline: saldo deposit disimpan di upline Anda. Bergabunglah lewat link undangan dari upline Anda.
wallet-button-deposit = ➕ Deposit
wallet-button-statement = 📜 Mutasi
wallet-button-copy-amount = 📋 Salin nominal

wallet-deposit-choose = Pilih nominal deposit, atau ketik misalnya <code>/deposit 150000</code> (minimal { $min }).
wallet-deposit-usage = Nominal tidak terbaca. Ketik misalnya <code>/deposit 100000</code> atau <code>/deposit 100rb</code> (minimal { $min }).
wallet-deposit-bad-amount = Nominal deposit harus antara { $min } dan { $max }.
wallet-deposit-ticket =
    🧾 <b>Tiket deposit</b>
    Transfer tepat <b>{ $total }</b> ({ $amount } + kode unik { $code }) sebelum { $until }.
    Nominal yang tepat menandai transfer Anda: jangan dibulatkan.

    <b>Cara bayar dari { $name }:</b>
    { $payinfo }

    Saldo bertambah { $total } setelah { $name } mengonfirmasi transfer Anda. Anda akan diberi tahu.
wallet-deposit-no-pay-info = { $name } belum mengatur cara bayar deposit. Minta mereka mengaturnya dengan /carabayar, lalu coba lagi.
wallet-deposit-too-many = Anda masih punya { $count } tiket deposit yang belum dikonfirmasi: { $list }. Tunggu konfirmasi upline Anda atau sampai tiketnya kedaluwarsa.
wallet-deposit-busy = Upline Anda sedang punya terlalu banyak tiket deposit terbuka. Coba lagi nanti.
wallet-deposit-suspended = Akun downline Anda sedang ditangguhkan: deposit tidak bisa diminta. Hubungi upline Anda.
wallet-deposit-not-downline = Anda bukan downline siapa pun lagi.

wallet-payinfo-none =
    Cara bayar deposit belum diatur. Kirim misalnya:
    <code>/carabayar BCA 1234567890 a.n. Budi Santoso, atau DANA 081234567890</code>
    Teks ini ditunjukkan ke downline Anda bersama nominal unik setiap tiket deposit.
wallet-payinfo-current =
    Cara bayar deposit saat ini:
    { $text }

    Ubah dengan <code>/carabayar teks baru</code>.
wallet-payinfo-saved =
    ✅ Cara bayar disimpan. Downline Anda melihatnya di setiap tiket deposit:
    { $text }
wallet-payinfo-not-open = Mode downline belum dibuka. Kirim /downline untuk membukanya.
wallet-payinfo-too-long = Cara bayar paling panjang { $max } karakter.

wallet-request =
    💰 <b>Tiket deposit</b> dari { $name } (ID { $id }): <b>{ $total }</b> ({ $amount } + kode { $code }), berlaku sampai { $until }.
    Terima setelah transfer sebesar itu masuk ke rekening Anda.
wallet-button-accept = ✅ Terima
wallet-button-reject = ❌ Tolak
wallet-request-accepted = 💰 Deposit { $total } dari { $name }: ✅ diterima. Saldo downline sekarang { $balance }.
wallet-request-rejected = 💰 Deposit { $total } dari { $name }: ❌ ditolak.
wallet-request-expired = 💰 Deposit { $total } dari { $name }: ⌛ kedaluwarsa, tidak bisa diterima lagi. Downline bisa meminta tiket baru.
wallet-decision-accepted = ✅ Diterima: saldo downline bertambah.
wallet-decision-rejected = ❌ Ditolak.
wallet-decision-already-accepted = Tiket ini sudah diterima (saldo ditambahkan sekali saja).
wallet-decision-already-rejected = Tiket ini sudah ditolak.
wallet-decision-already-expired = Tiket ini sudah kedaluwarsa.
wallet-decision-unknown = Tiket deposit ini tidak ada lagi.

wallet-credited = ✅ Deposit { $total } diterima oleh { $name }. Saldo Anda sekarang { $balance }.
wallet-rejected = ❌ { $name } menolak tiket deposit { $total }. Jika Anda sudah transfer, hubungi { $name }.
wallet-adjusted-add = ➕ { $name } menambah saldo Anda { $amount } ({ $reason }). Saldo Anda sekarang { $balance }.
wallet-adjusted-deduct = ➖ { $name } mengurangi saldo Anda { $amount } ({ $reason }). Saldo Anda sekarang { $balance }.

wallet-adjust-usage =
    Tambah atau kurangi saldo downline, dengan alasan:
    <code>/saldodl 123456789 +50000 bonus bulan ini</code>
    <code>/saldodl @nama -20000 koreksi transfer</code>
    (ID atau @username downline Anda, tanda + atau −, paling banyak { $max })
wallet-adjust-reason-long = Alasan paling panjang { $max } karakter.
wallet-adjust-not-yours = { $who } bukan downline Anda. Lihat daftarnya di /downline.
wallet-adjust-short = ❌ Tidak dikurangi: saldo { $name } hanya { $balance }, kurang dari { $amount }. Saldo tidak pernah di bawah nol.
wallet-adjust-added = ✅ Saldo { $name } ditambah { $amount } ({ $reason }). Saldo sekarang { $balance }. Downline diberi tahu.
wallet-adjust-deducted = ✅ Saldo { $name } dikurangi { $amount } ({ $reason }). Saldo sekarang { $balance }. Downline diberi tahu.

wallet-statement-title = 📜 <b>Mutasi saldo</b> (halaman { $page }, terbaru dulu)
wallet-statement-line = { $time } · { $what }{ $amount } · saldo { $balance }{ $note }
wallet-statement-empty = Belum ada mutasi. Tambah saldo dengan /deposit.
wallet-statement-no-more = Tidak ada mutasi yang lebih lama.
wallet-kind-deposit = Deposit
wallet-kind-hold = Pembelian
wallet-kind-final = Pembelian sukses
wallet-kind-refund = Pengembalian
wallet-kind-adjust = Koreksi upline

wallet-former =
    💰 <b>Saldo deposit Anda</b>: { $amount } (dibaca { $time })
wallet-former-note = Saldo ini disimpan oleh mantan upline Anda, { $name }: Anda bukan downline mereka lagi. Hubungi { $name } untuk mencairkannya.
wallet-former-held = { $count } pembelian masih diproses: jika gagal, dananya kembali ke saldo ini.
wallet-adjust-former = { $name } bukan downline Anda lagi: saldonya { $balance } hanya bisa dikurangi untuk dibayarkan kembali, misalnya <code>/saldodl { $id } -{ $plain } dibayar tunai</code>.
wallet-decision-gone = Pengguna ini bukan downline Anda lagi, jadi tiket ini tidak bisa diterima. Jika dia sudah transfer, kembalikan langsung kepadanya; tutup tiketnya dengan ❌ Tolak.
wallet-decision-held-elsewhere = Saldo downline ini masih disimpan oleh upline sebelumnya, jadi tiket ini belum bisa diterima. Minta upline itu mencairkannya dulu, atau tutup tiketnya dengan ❌ Tolak.
wallet-adjust-held-elsewhere = ❌ Saldo tidak diubah: saldo { $name } masih disimpan oleh upline sebelumnya, yang harus mencairkannya dulu.

## Held purchases (an upline decides a downline's purchase with no final status)
command-resolve = Selesaikan pembelian downline yang belum pasti: /selesaikan REF_ID sukses|gagal
held-usage = Tulis: <code>/selesaikan REF_ID sukses</code> (provider memotong saldo Anda: harga tetap terpakai) atau <code>/selesaikan REF_ID gagal</code> (kembalikan ke dompet downline). Ref ID ada di pemberitahuan pembelian yang belum pasti.
held-unknown = Ref ID <code>{ $refId }</code> bukan pembelian downline Anda yang dibayar dari dompet.
held-open = Pembelian <code>{ $refId }</code> masih dicek ke provider; hasilnya akan menyelesaikannya sendiri.
held-closed-final = Pembelian <code>{ $refId }</code> sudah selesai: harganya sudah terpakai. Tidak ada yang diubah.
held-closed-refund = Pembelian <code>{ $refId }</code> sudah selesai: harganya sudah dikembalikan ke dompet downline. Tidak ada yang diubah.
held-spent = ✅ Dicatat: pembelian <code>{ $refId }</code> diproses provider; { $price } dari dompet { $name } terpakai. Saldo { $name }: { $balance }.
held-refunded = ✅ { $price } dikembalikan ke dompet { $name } (pembelian <code>{ $refId }</code>). Saldo { $name } sekarang { $balance }.

## Wallet statement in /ekspor

wallet-export-caption = 📜 Mutasi dompet: { $count } entri, { $from } s.d. { $to } (WIB). Saldo awal { $opening }, masuk { $credited }, keluar { $debited }, saldo akhir { $closing }.
wallet-export-column-time = Waktu (WIB)
wallet-export-column-kind = Jenis
wallet-export-column-amount = Jumlah
wallet-export-column-balance = Saldo setelahnya
wallet-export-column-ref = Ref ID
wallet-export-column-note = Keterangan
