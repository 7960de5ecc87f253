## Downlines: /downline (upline's mode, levels, invite links, the list), invite links, join requests

downline-title = 👥 <b>Downline</b>
downline-opened = ✅ Mode downline dibuka. Anda sekarang upline: undang reseller lain dengan link, setujui permintaan mereka dan tentukan level harganya. Level awal: Bronze (harga = modal Anda sampai Anda mengatur markupnya).
downline-not-open = Mode downline belum dibuka. Kirim /downline untuk membukanya.
downline-usage =
    Perintah downline:
    <code>/downline</code> — daftar downline, level dan link undangan
    <code>/downline undang 7d 10x</code> — link undangan baru (opsional: berlaku 7 hari, untuk 10 orang)
    <code>/downline level Gold 2%</code> — buat atau ubah level (baris berikutnya: <code>brand TELKOMSEL 500</code>, <code>produk TSEL10 =10500</code>, <code>bulat 500</code>)
    <code>/downline level Gold hapus</code> — hapus level
    <code>/downline default Gold</code> — level default
    <code>/downline auto nyala</code> atau <code>mati</code> — setujui otomatis ke level default
    <code>/downline limit @user 500000</code> atau <code>off</code> — batas belanja harian seorang downline
    <code>/downline grup nyala</code> atau <code>mati</code> — kirim pembelian downline ke grup tertaut (disamarkan)
    <code>/laporan dl</code>, <code>/laporan dl @user</code> — laporan pembelian downline (juga <code>/ekspor dl</code>)
downline-refused-not-connected = Mode downline hanya untuk reseller yang sudah menghubungkan akun top-up reseller. Hubungkan dulu dengan /hubungkan, lalu kirim /downline lagi.
downline-refused-is-downline = Anda adalah downline dari { $name }, jadi tidak bisa membuka mode downline sendiri. Untuk punya downline sendiri, minta { $name } mengeluarkan Anda dulu, lalu hubungkan akun reseller Anda dengan /hubungkan.
downline-refused-is-upline = Anda sudah menjadi upline.
downline-connect-refused = Anda adalah downline dari { $name }: pembelian Anda memakai akun upline, jadi akun top-up reseller sendiri tidak bisa dihubungkan. Untuk memakai akun sendiri, minta { $name } mengeluarkan Anda dulu.

downline-levels-title = <b>Level</b>
downline-level-line = • { $level }: { $rules }
downline-level-default = { $level } (default)
downline-level-at-cost = harga = modal Anda (belum ada markup)
downline-level-no-default = tanpa markup default
downline-level-overrides = { $brands } brand, { $products } produk khusus
downline-auto-on = 🤖 Setujui otomatis: nyala — permintaan bergabung langsung masuk ke level default.
downline-auto-off = 🤖 Setujui otomatis: mati — setiap permintaan bergabung menunggu persetujuan Anda.
downline-none = Belum ada downline. Buat link undangan dengan 🔗 Undangan dan bagikan.
downline-list-title = <b>Downline ({ $count })</b>
downline-list-line = { $n }. { $name } · { $level } · bergabung { $joined } · { $status }
downline-list-more = … dan { $count } lainnya
downline-status-active = aktif
downline-status-suspended = ⏸ ditangguhkan
downline-card =
    👤 <b>{ $name }</b> (ID { $id })
    Level: { $level }
    Bergabung: { $joined }
    Status: { $status }

downline-button-card = { $n }. { $name }
downline-button-invites = 🔗 Undangan
downline-button-levels = 🏷 Level
downline-button-auto-on = 🤖 Setujui otomatis: nyala
downline-button-auto-off = 🤖 Setujui otomatis: mati
downline-button-back = ⬅️ Kembali
downline-button-revoke = 🚫 Cabut { $n }
downline-button-new-invite = ➕ Buat link
downline-button-suspend = ⏸ Tangguhkan
downline-button-resume = ▶️ Aktifkan
downline-button-remove = 🗑 Keluarkan
downline-button-level = 🏷 Jadikan { $level }
downline-button-approve = ✅ Setujui: { $level }
downline-button-decline = ❌ Tolak

downline-invites-title = 🔗 <b>Link undangan</b>
downline-invites-none = Belum ada link undangan yang aktif.
downline-invite-line = { $n }. { $link }
    { $limits }
downline-invite-no-expiry = tanpa batas waktu
downline-invite-until = berlaku sampai { $date }
downline-invite-uses = dipakai { $uses }×
downline-invite-uses-of = dipakai { $uses } dari { $max }
downline-invites-help = Link dengan batas: <code>/downline undang 7d 10x</code> (berlaku 7 hari, untuk 10 orang).
downline-invite-made = 🔗 Link undangan baru:
    { $link }
    Bagikan ke calon downline. Yang membukanya meminta bergabung; Anda menyetujui dan memilih levelnya.
downline-invite-bad = "{ $text }" tidak terbaca. Contoh: <code>/downline undang 7d 10x</code> (7 hari, 10 orang); keduanya opsional.
downline-invite-too-many = Sudah ada { $max } link aktif. Cabut salah satu dulu di 🔗 Undangan.
downline-invite-revoked = Link dicabut.
downline-invite-already = Link ini sudah dicabut.
downline-invite-unknown = Link ini tidak ada lagi.

downline-levels-screen-title = 🏷 <b>Level downline</b>
downline-levels-help =
    Harga downline = modal Anda + markup levelnya (aturan seperti /jual). Contoh:
    <code>/downline level Gold 2%</code>
    Baris tambahan di pesan yang sama: <code>brand TELKOMSEL 500</code>, <code>produk TSEL10 =10500</code>, <code>bulat 500</code> (pembulatan: 100, 500 atau 1000), <code>produk TSEL10 hapus</code>.
    <code>/downline default Gold</code> menjadikannya level default; <code>/downline level Gold hapus</code> menghapusnya.
downline-level-created = ✅ Level dibuat.
downline-level-saved = ✅ Level disimpan.
downline-level-removed = 🗑 Level { $level } dihapus.
downline-level-problems = Level tidak disimpan: ada baris yang tidak terbaca.
downline-level-problem-unreadable = • "{ $line }": bukan markup (contoh: <code>2%</code>, <code>Rp 500</code>, <code>brand XL 1000</code>, <code>produk TSEL10 =10500</code>).
downline-level-problem-too-large = • "{ $line }": terlalu besar (paling banyak Rp 10.000.000 atau 1000%).
downline-level-problem-ambiguous = • "{ $line }": persen atau rupiah? Tulis dengan % atau Rp, misalnya 10% atau Rp 10.
downline-level-not-open = Mode downline belum dibuka. Kirim /downline untuk membukanya.
downline-level-bad-name = Nama level satu kata (huruf, angka, _ atau -), paling panjang 24 karakter, misalnya Gold.
downline-level-too-many = Paling banyak { $max } level.
downline-level-remove-not-open = Mode downline belum dibuka. Kirim /downline untuk membukanya.
downline-level-remove-unknown-level = Tidak ada level "{ $level }". Lihat level Anda di /downline → 🏷 Level.
downline-level-remove-default = { $level } adalah level default. Jadikan level lain default dulu (<code>/downline default NAMA</code>).
downline-level-remove-in-use = Masih ada downline di level { $level }. Pindahkan mereka ke level lain dulu.
downline-default-set = ✅ { $level } sekarang level default.

downline-not-yours = Pengguna ini bukan downline Anda (lagi).
downline-unknown-level = Level itu tidak ada lagi.
downline-unchanged = Tidak ada yang berubah.
downline-done-suspend = Downline ditangguhkan.
downline-done-resume = Downline aktif lagi.
downline-done-remove = Downline dikeluarkan.
downline-done-level = Level diubah.

downline-join-requested = ✅ Permintaan bergabung terkirim ke { $name }. Anda akan diberi tahu begitu mereka menjawab.
downline-join-pending = Permintaan Anda ke { $name } masih menunggu jawaban. Anda akan diberi tahu begitu mereka menjawab.
downline-join-joined = ✅ Anda sekarang downline dari { $name }, level { $level }.
downline-join-bad-invite = Link undangan ini tidak berlaku (tidak dikenal, atau pengundangnya menutup mode downline). Minta link baru ke pengundang Anda.
downline-join-self = Ini link undangan Anda sendiri: bagikan ke calon downline. Anda tidak bisa menjadi downline diri sendiri.
downline-join-is-reseller = Anda sudah menghubungkan akun top-up reseller sendiri, jadi tidak bisa menjadi downline. Untuk bergabung, putuskan akun itu dulu dengan /putuskan, lalu buka link ini lagi.
downline-join-is-upline = Anda sendiri upline (mode downline terbuka), jadi tidak bisa menjadi downline orang lain.
downline-join-member-same = Anda sudah menjadi downline pengundang ini.
downline-join-member-other = Anda sudah menjadi downline orang lain. Satu downline hanya punya satu upline: minta upline Anda mengeluarkan Anda dulu.
downline-join-upline-unavailable = Pengundang Anda belum bisa menerima downline (akun resellernya tidak terhubung). Coba lagi nanti atau hubungi mereka.
downline-join-full = Pengundang Anda sedang punya terlalu banyak permintaan yang belum dijawab. Coba lagi nanti.
downline-join-invite-revoked = Link undangan ini sudah dicabut. Minta link baru ke pengundang Anda.
downline-join-invite-expired = Link undangan ini sudah kedaluwarsa. Minta link baru ke pengundang Anda.
downline-join-invite-used-up = Link undangan ini sudah habis dipakai. Minta link baru ke pengundang Anda.

downline-request = 👥 { $name } (ID { $id }) minta bergabung sebagai downline Anda. Setujui dengan memilih levelnya, atau tolak.
downline-request-approved = ✅ Disetujui: level { $level }.
downline-request-declined = ❌ Ditolak.
downline-request-void = ⚪ Tidak bisa disetujui lagi.
downline-request-already = Permintaan ini sudah dijawab.
downline-request-not-open = Mode downline Anda tidak terbuka.
downline-request-unknown-request = Permintaan ini tidak ada lagi.
downline-request-unknown-level = Level itu tidak ada lagi. Pilih level lain.
downline-request-not-connected = Akun top-up reseller Anda tidak terhubung: hubungkan dulu dengan /hubungkan, lalu setujui lagi.
downline-request-void-reseller = Tidak bisa disetujui: pengguna ini sudah menghubungkan akun reseller sendiri.
downline-request-void-upline = Tidak bisa disetujui: pengguna ini sendiri seorang upline.
downline-request-void-member = Tidak bisa disetujui: pengguna ini sudah menjadi downline orang lain.
downline-joined-auto = 👥 { $name } bergabung sebagai downline Anda (setujui otomatis), level { $level }.

downline-outcome-approved = ✅ { $name } menyetujui Anda sebagai downline, level { $level }.
downline-outcome-declined = ❌ { $name } menolak permintaan Anda untuk bergabung.
downline-outcome-void-reseller = Permintaan Anda ke { $name } tidak bisa disetujui: Anda sudah menghubungkan akun top-up reseller sendiri. Putuskan dulu dengan /putuskan, lalu buka link undangan lagi.
downline-outcome-void-upline = Permintaan Anda ke { $name } tidak bisa disetujui: Anda sendiri seorang upline.
downline-changed-suspend = ⏸ { $name } menangguhkan akun downline Anda.
downline-changed-resume = ▶️ { $name } mengaktifkan lagi akun downline Anda.
downline-changed-remove = { $name } mengeluarkan Anda dari downline mereka.
downline-changed-level = 🏷 { $name } memindahkan Anda ke level { $level }.

## Downlines: the upline's view (balances and today's figures on the list, the card, the daily spend limit)

downline-list-today = └ saldo { $balance } · hari ini { $count } trx · margin Anda { $margin }
downline-list-page = Menampilkan { $from }–{ $to } dari { $count }.
downline-button-previous = ◀️ Sebelumnya
downline-button-next = Berikutnya ▶️
downline-card-wallet = Saldo dompet: { $balance }
downline-card-today = Hari ini: { $count } transaksi, { $success } sukses · penjualan { $sales } · margin Anda { $margin }
downline-card-limit = Batas belanja harian: { $limit } (terpakai hari ini { $spent }, sisa { $left })
downline-card-limit-none = Batas belanja harian: tanpa batas
downline-button-limit = 💳 Batas harian
downline-button-report = 📊 Laporan
downline-button-limit-off = Tanpa batas
downline-limit-title = 💳 <b>Batas belanja harian { $name }</b>
downline-limit-current = Sekarang: { $limit } per hari (WIB).
downline-limit-help = Pembelian yang membuat belanja hari ini (WIB) melewati batas ditolak; pembelian yang gagal tidak dihitung. Pilih nominal, atau ketik misalnya <code>/downline limit { $id } 750000</code>.
downline-limit-usage = Tulis seperti ini: <code>/downline limit @user 500000</code> (atau ID downline; nominal Rp 1 sampai { $max }), atau <code>/downline limit @user off</code> untuk tanpa batas.
downline-done-limit = Batas harian: { $amount }.
downline-done-limit-off = Batas harian dihapus.
downline-bad-limit = Nominal batas tidak berlaku.
downline-changed-limit = 💳 { $name } mengatur batas belanja harian Anda: { $amount } per hari (WIB).
downline-changed-limit-off = 💳 { $name } menghapus batas belanja harian Anda.
downline-group-on = 📣 Notifikasi grup: nyala — pembelian downline yang selesai dikirim ke grup tertaut Anda (nomor disamarkan, tanpa harga).
downline-group-off = 📣 Notifikasi grup: mati — <code>/downline grup nyala</code> mengirim pembelian downline ke grup tertaut Anda.
downline-group-set-on = 📣 Notifikasi grup nyala: setiap pembelian downline yang selesai dikirim ke grup tertaut Anda (nama depan downline, produk, nomor disamarkan, status; tanpa harga, modal atau margin).
downline-group-set-on-unlinked = 📣 Notifikasi grup nyala, tapi belum ada grup yang tertaut: jalankan /linkgroup di grup Anda (sebagai admin grup).
downline-group-set-off = 📣 Notifikasi grup mati: pembelian downline tidak dikirim ke grup.
downline-spend-over = Pembelian ini melewati batas belanja harian Anda ({ $limit } per hari, WIB): sisa hari ini { $left }. Pilih produk yang lebih murah, coba lagi besok, atau minta upline Anda menaikkan batasnya.
