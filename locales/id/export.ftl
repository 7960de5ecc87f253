## Export: /ekspor, the user's transactions of a period as a CSV file

command-export = Ekspor transaksi ke CSV (Excel)
export-menu =
    📤 <b>Ekspor transaksi</b>
    Pilih periode (hari dalam WIB, minggu mulai Senin). Berkas CSV berisi transaksi Anda sendiri.
    Pakai Excel dengan pengaturan Indonesia? Ketuk dulu «Excel Indonesia (;)».

    Rentang lain: <code>/ekspor 2026-11-01 2026-11-15</code>
export-button-semicolon = Excel Indonesia (;)
export-caption = 📤 { $count } transaksi, { $from } s.d. { $to } (WIB).
export-empty = Tidak ada transaksi pada { $from } s.d. { $to } (WIB). Tidak ada berkas yang dikirim.
export-bad-date =
    Tanggal tidak dikenali. Tulis rentang tanggal seperti ini:
    <code>/ekspor 2026-11-01 2026-11-15</code>
    <code>/ekspor 01/11/2026 15/11/2026</code>
    Tambahkan <code>;</code> di akhir untuk Excel Indonesia.
export-bad-order = Tanggal awal harus sebelum (atau sama dengan) tanggal akhir, misalnya <code>/ekspor 2026-11-01 2026-11-15</code>.

export-column-time = Waktu (WIB)
export-column-ref = Ref ID
export-column-trx = Trx ID
export-column-code = Kode produk
export-column-product = Nama produk
export-column-target = Tujuan
export-column-price = Modal
export-column-sell = Harga jual
export-column-margin = Margin (Sukses)
export-column-status = Status
export-column-sn = SN

## Export: /ekspor dl, the upline's CSV of their downlines' purchases

export-dl-menu-all =
    📤 <b>Ekspor pembelian downline</b>
    Pilih periode (hari dalam WIB, minggu mulai Senin). Berkas CSV berisi pembelian semua downline Anda: harga downline, modal Anda dan margin Anda.
    Pakai Excel dengan pengaturan Indonesia? Ketuk dulu «Excel Indonesia (;)».

    Satu downline: <code>/ekspor dl @user</code> · rentang lain: <code>/ekspor dl 2026-11-01 2026-11-15</code>
export-dl-menu-one =
    📤 <b>Ekspor pembelian downline { $name }</b>
    Pilih periode (hari dalam WIB, minggu mulai Senin).
    Pakai Excel dengan pengaturan Indonesia? Ketuk dulu «Excel Indonesia (;)».
export-dl-caption = 📤 { $count } pembelian downline, { $from } s.d. { $to } (WIB).
export-dl-empty = Tidak ada pembelian downline pada { $from } s.d. { $to } (WIB). Tidak ada berkas yang dikirim.
export-dl-bad-date =
    Tanggal tidak dikenali. Tulis rentang tanggal seperti ini:
    <code>/ekspor dl 2026-11-01 2026-11-15</code>
    <code>/ekspor dl @user 01/11/2026 15/11/2026 ;</code>
export-column-downline = Downline
export-column-downline-id = ID downline
export-column-dl-price = Harga downline
export-column-dl-cost = Modal Anda
export-column-dl-margin = Margin Anda (Sukses)
